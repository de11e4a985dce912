import HTTPTypes
import Hummingbird
import Tracing

/// One server span per request (`--otel-endpoint`): it continues the caller's trace when the
/// request carries a W3C `traceparent` and starts a new one otherwise, names the route, the
/// method and the status, and marks a 5xx failed. The answer carries `traceresponse` (W3C
/// Trace Context Level 2), so a caller that sent no `traceparent` can still find its trace.
///
/// The tracer is the one the configuration names, never the process-wide
/// `InstrumentationSystem`: that one can be bootstrapped only once per process, and a server
/// configured without tracing must record nothing even when something else bootstrapped it.
/// Added outside ``ServiceMiddleware``, which turns every error into an answer, so the span
/// sees the status the caller sees.
struct RequestTracing: RouterMiddleware {
    typealias Context = ServiceContext

    let tracer: any Tracer

    func handle(_ request: Request, context: ServiceContext, next: (Request, ServiceContext) async throws -> Response) async throws -> Response {
        var parent = InstrumentationContext.topLevel
        tracer.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        let route = context.endpointPath ?? "unmatched"
        let span = tracer.startSpan("\(request.method.rawValue) \(route)", context: parent, ofKind: .server)
        defer { span.end() }
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["http.route"] = route
        span.attributes["url.path"] = request.uri.path
        var context = context
        context.trace = RequestTrace(tracer: tracer, span: span)
        var response: Response
        do {
            response = try await InstrumentationContext.$current.withValue(span.context) { try await next(request, context) }
        } catch {
            // The service middleware answers every error; one that still arrives is a defect.
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
        span.attributes["http.response.status_code"] = Int(response.status.code)
        // The id the service's log line and the decision log name the request by.
        span.attributes["regimen.request_id"] = response.headers[.regimenRequestID]
        if response.status.code >= 500 {
            span.attributes["error.type"] = String(response.status.code)
            span.setStatus(SpanStatus(code: .error))
        }
        if let traceResponse = Self.traceResponse(for: span, tracer: tracer) {
            response.headers[.traceResponse] = traceResponse
        }
        return response
    }

    /// The span as W3C `traceresponse` names it: what the tracer's propagator would send as
    /// `traceparent` to a call this span made. `nil` when the propagator writes no `traceparent`.
    static func traceResponse(for span: any Span, tracer: any Tracer) -> String? {
        var headers = HTTPFields()
        tracer.inject(span.context, into: &headers, using: HTTPFieldsInjector())
        return headers[.traceParent]
    }
}

extension HTTPField.Name {
    // Valid header tokens, written once here; `init?` fails only on invalid ones.
    /// W3C Trace Context: the caller's trace and span.
    static let traceParent = Self("traceparent")!
    /// W3C Trace Context Level 2: the trace and span that answered.
    static let traceResponse = Self("traceresponse")!
}
