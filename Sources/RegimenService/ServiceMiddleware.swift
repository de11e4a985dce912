import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import RegimenLanguage

/// Wraps every request: reads the snapshot once, turns every error (the routes' time budget
/// included) into the error body, stamps the revision and request id, logs one line and
/// counts it.
struct ServiceMiddleware: RouterMiddleware {
    typealias Context = ServiceContext

    let store: SnapshotStore
    let metrics: ServiceMetrics
    let logger: Logger
    private let sequence = Sequence()

    /// Request ids: a per-process prefix and a counter, unique and cheap.
    private final class Sequence: Sendable {
        private let next = Atomic<UInt64>(0)
        private let prefix = String(UInt32.random(in: 0...UInt32.max), radix: 16)

        func id() -> String {
            let n = next.wrappingAdd(1, ordering: .relaxed).newValue
            return "\(prefix)-\(n)"
        }
    }

    func handle(_ request: Request, context: ServiceContext, next: (Request, ServiceContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let snapshot = store.current
        var context = context
        context.snapshot = snapshot
        context.requestID = request.headers[.regimenRequestID].flatMap(Self.acceptedRequestID) ?? sequence.id()
        let route = context.endpointPath ?? "unmatched"
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = Self.response(for: error, request: request, context: context)
        }
        response.headers[.regimenRevision] = snapshot.revision
        response.headers[.regimenRequestID] = context.requestID
        // Answers are data, never a page to sniff, and each is for this request alone; the
        // page's own files set their caching themselves.
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        let elapsed = ContinuousClock.now - start
        metrics.request(route: route, method: request.method.rawValue, status: response.status.code, duration: elapsed)
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        // A 5xx is a defect of the service: logged as an error, so it shows at any log level.
        logger.log(level: response.status.code >= 500 ? .error : .info, "request", metadata: [
            "route": "\(route)", "method": "\(request.method.rawValue)", "status": "\(response.status.code)",
            "latency_ms": "\(String(format: "%.3f", milliseconds))", "revision": "\(snapshot.revision)", "request_id": "\(context.requestID)",
        ])
        return response
    }

    /// A caller's request id, when it is 1–64 letters, digits, `-`, `_`, `.` or `:`; any other
    /// is replaced by the service's own, so an id written to the logs cannot forge a line or a field.
    static func acceptedRequestID(_ given: String) -> String? {
        guard (1...64).contains(given.utf8.count),
              given.utf8.allSatisfy({ byte in
                  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                      || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
              })
        else { return nil }
        return given
    }

    /// Every error as the error body: the service's own, Hummingbird's (no route, a body too
    /// large). Routes throw nothing else; anything that still arrives is a defect of the
    /// service and is reported as one (500), never hidden as the caller's fault.
    static func response(for error: any Error, request: Request, context: ServiceContext) -> Response {
        let serviceError: ServiceError
        switch error {
        case let error as ServiceError: serviceError = error
        case let error as HTTPError:
            switch error.status {
            case .notFound: serviceError = .notFound(request.uri.path)
            case .methodNotAllowed: serviceError = ServiceError(.methodNotAllowed, "route.method", "\(request.method) is not allowed on \(request.uri.path)")
            case .contentTooLarge: serviceError = ServiceError(.contentTooLarge, "request.too-large", "the body is larger than the service accepts")
            default: serviceError = ServiceError(error.status, "request.http", error.body ?? error.status.reasonPhrase)
            }
        default:
            serviceError = ServiceError(.internalServerError, "service.internal", "the service failed: \(error)")
        }
        var response = JSONResponse.make(status: serviceError.status, json: serviceError.value.jsonString(pretty: true) + "\n")
        if let seconds = serviceError.retryAfter {
            response.headers[.retryAfter] = String(seconds)
        } else if serviceError.status == .serviceUnavailable {
            response.headers[.retryAfter] = "1"
        }
        // RFC 6750 §3: a refused bearer token is named as such, with the reason's id.
        if serviceError.status == .unauthorized {
            let id = serviceError.problems[0].id
            response.headers[.wwwAuthenticate] = id.hasPrefix("caller.")
                ? "Regimen-Api-Key realm=\"regimen\", error=\"\(id)\""
                : "Bearer realm=\"regimen\", error=\"invalid_token\", error_description=\"\(id)\""
        }
        return response
    }
}
