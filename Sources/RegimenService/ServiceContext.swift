import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The request context: Hummingbird's, plus the one snapshot the request is answered with and
/// its request id. The service middleware sets both before any route runs.
struct ServiceContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The snapshot read once for this request.
    var snapshot: RuleSnapshot?
    /// Names the request in logs, the decision log and the `Regimen-Request-Id` header.
    var requestID: String = ""
    /// The caller its API key identifies, when it sent one (public listener, keys configured).
    var caller: Caller?

    /// The request's span and tracer, when tracing is on (``RequestTracing``).
    var trace: RequestTrace?

    /// The connection, for its TLS client certificate (mutual TLS).
    var channel: (any Channel)?

    init(source: Source) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

extension HTTPField.Name {
    // Both names are valid header tokens, written once here; `init?` fails only on invalid ones.
    /// The revision that computed the response.
    static let regimenRevision = Self("Regimen-Revision")!
    /// The request's id, as in the logs.
    static let regimenRequestID = Self("Regimen-Request-Id")!
}
