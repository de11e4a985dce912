import Foundation
import HTTPTypes
import Hummingbird
import RegimenKit
import Tracing

extension ServiceRoutes {
    /// `POST /v1/policies/{name}:authorize` and `POST /v1/policies/{name}:test`, where the name is
    /// the policy's path under the policies folder (`workout-tracker/corrected`), so it may hold
    /// slashes: the route catches the rest of the path and splits the action off its end.
    func addPolicies(to router: Router<ServiceContext>) {
        route(router, .get, "/v1/policies") { _, context in
            let snapshot = try Self.snapshot(context)
            let names = snapshot.policies.keys.sorted().map { name -> Value in
                let policy = snapshot.policies[name]
                return .map(["name": .string(name), "service": .string(policy?.service.rawValue ?? ""), "tests": .bool(policy?.testsFile != nil)])
            }
            return Self.json(.map(["policies": .list(names)]))
        }
        route(router, .post, "/v1/policies/**") { request, context in
            let snapshot = try Self.snapshot(context)
            let rest = context.parameters.getCatchAll().joined(separator: "/")
            let decoded = rest.removingPercentEncoding ?? rest
            guard let colon = decoded.lastIndex(of: ":") else {
                throw ServiceError.notFound(request.uri.path)
            }
            let name = String(decoded[..<colon]), action = String(decoded[decoded.index(after: colon)...])
            guard action == "authorize" || action == "test" else { throw ServiceError.notFound(request.uri.path) }
            guard let policy = snapshot.policies[name] else {
                throw ServiceError(.policyNotFound(name: name, searched: []))
            }
            let data = try await bodies.read(request)
            guard !data.isEmpty else { throw ServiceError(.badRequest, "request.empty", "the body is empty; send one JSON or YAML document") }
            let attributes: SpanAttributes = ["regimen.policy": .string(name), "regimen.revision": .string(snapshot.revision)]
            guard action == "authorize" else {
                return try await context.trace.child("test", attributes: attributes) { _ in
                    try await executor.run(budget: timeBudget) { token in
                        try token.checkpoint()
                        return try test(request, policy: policy, data: data, snapshot: snapshot)
                    }
                }
            }
            return try await context.trace.child("authorize", attributes: attributes) { span in
                // Who asks, and which documents the body may add: settled before any work, so a
                // refused token or body makes no decision.
                let access = try await authorizeAccess(request, policy: name, data: data, caller: context.caller)
                let call = AuthorizeCall(request: request, policy: policy, data: data, access: access, snapshot: snapshot, context: context, span: span)
                if let live = liveDocuments {
                    return try await authorizeLive(call, live: live)
                }
                // A small authorize body (one request, a short batch) is decided where it arrived:
                // microseconds, less than a hop to another thread. Larger batches run on the work
                // executor, a batch stopped between its requests.
                if data.count <= Self.inlineAuthorizeBytes {
                    return try authorize(call, token: WorkToken.unbounded)
                }
                return try await executor.run(budget: timeBudget) { token in try authorize(call, token: token) }
            }
        }
    }

    /// One authorize request, its access settled: what deciding it needs.
    private struct AuthorizeCall: Sendable {
        let request: Request
        let policy: Policy
        let data: Data
        let access: AuthorizeAccess
        let snapshot: RuleSnapshot
        let context: ServiceContext
        /// The authorize span, when the request is traced: it gets the decision id and the decisions.
        let span: (any Span)?
    }

    /// The largest authorize body decided without the work executor: a few dozen requests.
    static let inlineAuthorizeBytes = 8 * 1024

    /// A policy call: a body that is not UTF-8 text or too large is unreadable (400).
    private static func policyCall<T>(_ call: () throws(RegimenError) -> T) throws(ServiceError) -> T {
        do {
            return try call()
        } catch {
            if error.code == .request { throw ServiceError(unreadable: error) }
            throw ServiceError(error)
        }
    }

    private func authorize(_ call: AuthorizeCall, token: WorkToken) throws -> Response {
        let explain = try Self.flag(call.request, "explain")
        let body = try authorizeBody(policy: call.policy, data: call.data, access: call.access, served: call.snapshot.documents(for: call.policy))
        guard let decisions = call.policy.decide(body, explain: explain, proceed: token.proceed) else { throw WorkCancelled() }
        return respond(call, body: body, decisions: decisions, explain: explain)
    }

    /// Authorize with live documents (``LiveDocumentDecider``): the database's documents are the
    /// served ones, a body's own lie under them as they would under `--documents`. A large body's
    /// rounds of evaluation run on the work executor, as a large body's decisions do otherwise.
    private func authorizeLive(_ call: AuthorizeCall, live: LiveDocumentDecider) async throws -> Response {
        let explain = try Self.flag(call.request, "explain")
        let body = try authorizeBody(policy: call.policy, data: call.data, access: call.access, served: DocumentStore())
        let executor = executor, budget = timeBudget, large = call.data.count > Self.inlineAuthorizeBytes
        let decisions = try await live.decide(body, policy: call.policy, layering: call.access.layering, explain: explain) { work in
            large ? try await executor.run(budget: budget) { _ in work() } : work()
        }
        return respond(call, body: body, decisions: decisions, explain: explain)
    }

    /// The body's requests as the operator allows them: the verified identity in place of a
    /// body's `auth`, the body's documents laid under `served` (or dropped).
    private func authorizeBody(policy: Policy, data: Data, access: AuthorizeAccess, served: DocumentStore) throws(ServiceError) -> PolicyRequestBody {
        var body = try Self.policyCall { () throws(RegimenError) in
            try policy.requests(from: data, name: "<body>", served: served, layering: access.layering)
        }
        if case .verified(let auth) = access.asker { body = body.replacingAuth(with: auth) }
        if !access.bodyDocumentsAllowed { body = body.replacingDocuments(with: served) }
        return body
    }

    /// The decisions' answer, counted in the metrics, written to the decision log and named on
    /// the authorize span (decision id, and `allow` or `deny` for each request, in order).
    private func respond(_ call: AuthorizeCall, body: PolicyRequestBody, decisions: [Decision], explain: Bool) -> Response {
        let allowed = decisions.reduce(0) { $0 + ($1.allowed ? 1 : 0) }
        metrics.decisions(allowed: allowed, denied: decisions.count - allowed)
        let decisionID = DecisionAudit.newID()
        if let decisionLog {
            let verified: Bool
            if case .verified = call.access.asker { verified = true } else { verified = false }
            let askers = body.askers.map { auth in
                DecisionAsker(source: auth == nil ? .signedOut : verified ? .idToken : .body, uid: auth?.uid, caller: call.context.caller?.id)
            }
            decisionLog.record(
                policy: call.policy.name, revision: call.snapshot.revision, requestID: call.context.requestID, decisionID: decisionID, body: call.data,
                decisions: decisions, askers: askers)
        }
        if let span = call.span {
            let words = decisions.map { $0.allowed ? "allow" : "deny" }
            span.attributes["regimen.decision_id"] = decisionID
            span.attributes["regimen.decision"] = body.isBatch ? SpanAttribute.stringArray(words) : SpanAttribute.string(words.first ?? "")
        }
        let values = decisions.map { $0.contractValue(explain: explain) }
        var response = body.isBatch ? Self.json(.list(values)) : Self.json(values.first ?? .null)
        response.headers[.regimenDecisionID] = decisionID
        return response
    }

    private func test(_ request: Request, policy: Policy, data: Data, snapshot: RuleSnapshot) throws(ServiceError) -> Response {
        let accept = request.headers[.accept] ?? ""
        let format = Self.query(request, "format") ?? (accept.contains("junit") || accept.contains("application/xml") || accept.contains("text/xml") ? "junit" : "json")
        guard format == "json" || format == "junit" else {
            throw ServiceError(.unprocessableContent, "query.format", "'format' must be json or junit, not '\(format)'", path: "format")
        }
        let result = try Self.policyCall { () throws(RegimenError) in try policy.test(body: data, name: "<body>", documents: snapshot.documents(for: policy)) }
        if format == "junit" {
            return JSONResponse.make(json: SecurityTestReport.junit([result]), contentType: "application/xml; charset=utf-8")
        }
        return JSONResponse.make(json: SecurityTestReport.json([result]))
    }
}
