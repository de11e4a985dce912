import HTTPTypes
import Tracing

/// Reads a propagated context (`traceparent`, `tracestate`) from a request's headers.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from headers: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { headers[$0] }
    }
}

/// Writes a propagated context into a set of headers, keyed as the tracer's propagator names them.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        headers[name] = value
    }
}
