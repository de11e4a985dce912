import Foundation
package import Logging
import OTel
import ServiceLifecycle
package import Tracing

/// Request tracing (`regimen serve --otel-endpoint URL`): the tracer request spans start on, and
/// the service that sends what it records to a collector. Absent from the configuration, no
/// span is started and nothing is exported.
package struct TracingSettings: Sendable {
    /// Starts the spans and reads and writes `traceparent`.
    package var tracer: any Tracer
    /// Batches finished spans and sends them; runs beside the listeners and flushes on shutdown.
    /// `nil` for a tracer that needs no such service.
    var exporter: (any Service)?

    /// How spans are encoded on the wire: protobuf is what collectors expect by default; JSON
    /// is the same messages as text.
    package enum Encoding: Sendable {
        case protobuf, json
    }

    /// Whether `text` can name a collector: an http or https URL with a host.
    package static func isEndpoint(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// swift-otel's tracer with W3C Trace Context propagation (`traceparent`, `tracestate`),
    /// exporting over OTLP/HTTP to `endpoint`. A URL without a path gets the collector's traces
    /// path (`/v1/traces`). The `OTEL_*` environment variables still apply over these settings
    /// (the sampler, say, with `OTEL_TRACES_SAMPLER`), as swift-otel documents.
    /// - Throws: ``TracingSettingsError`` for an endpoint that is not an http(s) URL, or
    ///   swift-otel's error for a configuration it refuses.
    package static func otlp(endpoint: String, encoding: Encoding = .protobuf, logger: Logger) throws -> TracingSettings {
        guard isEndpoint(endpoint), let url = URL(string: endpoint) else { throw TracingSettingsError.endpoint(endpoint) }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "regimen"
        configuration.diagnosticLogger = .custom(logger)
        configuration.propagators = [.traceContext]
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.endpoint = url.path.isEmpty || url.path == "/" ? url.appendingPathComponent("v1/traces").absoluteString : endpoint
        configuration.traces.otlpExporter.protocol = encoding == .json ? .httpJSON : .httpProtobuf
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return TracingSettings(tracer: backend.factory, exporter: backend.service)
    }
}

/// Why `--otel-endpoint` was refused.
enum TracingSettingsError: Error, CustomStringConvertible {
    case endpoint(String)

    package var description: String {
        switch self {
        case .endpoint(let text): "--otel-endpoint must be an http:// or https:// URL (an OTLP/HTTP collector), not '\(text)'"
        }
    }
}
