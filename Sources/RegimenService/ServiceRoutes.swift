import Foundation
import Hummingbird
import RegimenKit

/// What every route needs: the body reader, the snapshot store, metrics, the decision log, the
/// reloader, the admin token and the playground gate.
struct ServiceRoutes: Sendable {
    let bodies: RequestBodyReader
    let store: SnapshotStore
    let metrics: ServiceMetrics
    let reloader: Reloader
    let decisionLog: DecisionLog?
    let adminToken: String?
    let timeBudget: Duration
    /// Whether the playground is on, and its panel.
    let playground: PlaygroundSettings

    typealias Handler = @Sendable (Request, ServiceContext) async throws -> Response

    /// Registers a route whose handler runs within the time budget: past it, the request is
    /// answered 503 at once and the abandoned work finishes in the background.
    func route(_ router: Router<ServiceContext>, _ method: HTTPRequest.Method, _ path: RouterPath, _ handler: @escaping Handler) {
        let budget = timeBudget
        router.on(path, method: method) { request, context in
            try await TimeBudget.run(budget, onTimeout: { ServiceError.timeBudget(budget) }) {
                try await handler(request, context)
            }
        }
    }

    /// The snapshot the middleware read for this request.
    static func snapshot(_ context: ServiceContext) throws(ServiceError) -> RuleSnapshot {
        guard let snapshot = context.snapshot else {
            throw ServiceError(.serviceUnavailable, "service.not-ready", "no rules are loaded")
        }
        return snapshot
    }

    /// Runs an engine call, its error as the error body.
    static func engine<T>(_ call: () throws(RegimenError) -> T) throws(ServiceError) -> T {
        do { return try call() } catch { throw ServiceError(error) }
    }

    /// The body, read within the limits and checked to be one readable document (400 when not).
    func document(_ request: Request, _ snapshot: RuleSnapshot) async throws(ServiceError) -> (data: Data, value: Value) {
        let data = try await bodies.read(request)
        do {
            return (data, try snapshot.engine.document(from: data, name: "<body>"))
        } catch {
            throw ServiceError(unreadable: error)
        }
    }

    /// A query parameter, if given.
    static func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map(String.init)
    }

    /// An integer query parameter, 422 naming it when it is not one.
    static func integer(_ request: Request, _ name: String) throws(ServiceError) -> Int? {
        guard let text = query(request, name) else { return nil }
        guard let value = Int(text) else { throw ServiceError(.unprocessableContent, "query.type", "'\(name)' must be an integer, not '\(text)'", path: name) }
        return value
    }

    /// A number query parameter, 422 naming it when it is not a finite one.
    static func number(_ request: Request, _ name: String) throws(ServiceError) -> Double? {
        guard let text = query(request, name) else { return nil }
        guard let value = Double(text), value.isFinite else { throw ServiceError(.unprocessableContent, "query.type", "'\(name)' must be a number, not '\(text)'", path: name) }
        return value
    }

    /// A time query parameter (RFC 3339), or now.
    static func time(_ request: Request, _ name: String) throws(ServiceError) -> Timestamp {
        guard let text = query(request, name) else { return Timestamp(seconds: Int64(Date().timeIntervalSince1970)) }
        guard let time = Timestamp(iso8601: text) else {
            throw ServiceError(.unprocessableContent, "query.time", "'\(name)' must be an RFC 3339 time such as 2026-02-04T12:00:00Z, not '\(text)'", path: name)
        }
        return time
    }

    /// A boolean query parameter: `true`/`1` or `false`/`0`.
    static func flag(_ request: Request, _ name: String) throws(ServiceError) -> Bool {
        switch query(request, name) {
        case nil, "false", "0": return false
        case "true", "1", "": return true
        case let other?: throw ServiceError(.unprocessableContent, "query.type", "'\(name)' must be true or false, not '\(other)'", path: name)
        }
    }

    static func json(_ contract: some SeedContract) -> Response { JSONResponse.make(json: contract.json()) }

    static func json(_ value: Value) -> Response { JSONResponse.make(json: value.roundedForPeople.jsonString(pretty: true) + "\n") }
}
