import Foundation
import Hummingbird
import RegimenKit
import Tracing

/// What every route needs: the body reader, the snapshot store, metrics, the decision log, the
/// reloader, the admin token, the work executor and the playground gate.
struct ServiceRoutes: Sendable {
    let bodies: RequestBodyReader
    let store: SnapshotStore
    let metrics: ServiceMetrics
    let reloader: Reloader
    let decisionLog: DecisionLog?
    let adminToken: String?
    let timeBudget: Duration
    /// Where heavy routes compute.
    let executor: WorkExecutor
    /// Whether the playground is on, and its panel.
    let playground: PlaygroundSettings
    /// Who may ask, and as whom (identity modes, ID tokens).
    let access: AccessControl
    /// The listener these routes answer on.
    let listener: Listener
    /// Where `get()` and `exists()` read when documents are live (a Firestore database);
    /// `nil`: the `--documents` files.
    var liveDocuments: LiveDocumentDecider? = nil

    typealias Handler = @Sendable (Request, ServiceContext) async throws -> Response

    /// Registers a route whose handler runs where it is called: routes that answer from memory
    /// (health, metrics, the rules list) and so never wait behind heavy work.
    ///
    /// A `GET` route answers `HEAD` too (RFC 9110 §9.3.2): the same status and headers, no body.
    /// Monitors and link checkers probe with `HEAD /`.
    func route(_ router: Router<ServiceContext>, _ method: HTTPRequest.Method, _ path: RouterPath, _ handler: @escaping Handler) {
        router.on(path, method: method, use: handler)
        guard method == .get else { return }
        router.on(path, method: .head) { request, context in
            var response = try await handler(request, context)
            let length = response.body.contentLength
            response.body = ResponseBody()
            if let length { response.headers[.contentLength] = String(length) }
            return response
        }
    }

    /// A request whose body has been read: what heavy work computes with.
    struct BodyRequest: Sendable {
        let request: Request
        let context: ServiceContext
        let snapshot: RuleSnapshot
        /// The body's bytes, within the limits (media type, size).
        let data: Data

        /// The body as one readable document (400 when it is not).
        func document() throws(ServiceError) -> Value {
            do {
                return try snapshot.engine.document(from: data, name: "<body>")
            } catch {
                throw ServiceError(unreadable: error)
            }
        }
    }

    /// Registers a `POST` route whose work is CPU-heavy (plans, batches, the playground): the
    /// body is read here, where waiting for bytes holds no thread, then `compute` runs on the
    /// ``WorkExecutor`` within the time budget; past it, the request is answered 503 and
    /// `compute` stops at its next checkpoint.
    func heavy(_ router: Router<ServiceContext>, _ path: RouterPath, _ compute: @escaping @Sendable (BodyRequest, WorkToken) throws -> Response) {
        let bodies = bodies, executor = executor, budget = timeBudget
        router.on(path, method: .post) { request, context in
            let snapshot = try Self.snapshot(context)
            let data = try await bodies.read(request)
            let body = BodyRequest(request: request, context: context, snapshot: snapshot, data: data)
            // The span covers the wait for a worker too: a slow answer under load shows there.
            return try await context.trace.child("compute", attributes: ["regimen.revision": .string(snapshot.revision)]) { _ in
                try await executor.run(budget: budget) { token in try compute(body, token) }
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
