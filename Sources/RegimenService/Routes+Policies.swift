import Foundation
import HTTPTypes
import Hummingbird
import RegimenKit

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
            // Who asks, and which documents the body may add: settled before any work, so a
            // refused token or body makes no decision.
            let access = action == "authorize" ? try await authorizeAccess(request, policy: name, data: data, caller: context.caller) : AuthorizeAccess.open
            if action == "authorize", let live = liveDocuments {
                return try await authorizeLive(request, policy: policy, data: data, access: access, snapshot: snapshot, context: context, live: live)
            }
            // A small authorize body (one request, a short batch) is decided where it arrived:
            // microseconds, less than a hop to another thread. Larger batches and tests run on
            // the work executor, a batch stopped between its requests.
            if action == "authorize", data.count <= Self.inlineAuthorizeBytes {
                return try authorize(request, policy: policy, data: data, access: access, snapshot: snapshot, context: context, token: WorkToken.unbounded)
            }
            return try await executor.run(budget: timeBudget) { token in
                if action == "authorize" {
                    return try authorize(request, policy: policy, data: data, access: access, snapshot: snapshot, context: context, token: token)
                }
                try token.checkpoint()
                return try test(request, policy: policy, data: data, snapshot: snapshot)
            }
        }
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

    private func authorize(
        _ request: Request, policy: Policy, data: Data, access: AuthorizeAccess, snapshot: RuleSnapshot, context: ServiceContext, token: WorkToken
    ) throws -> Response {
        let explain = try Self.flag(request, "explain")
        let body = try authorizeBody(policy: policy, data: data, access: access, served: snapshot.documents(for: policy))
        guard let decisions = policy.decide(body, explain: explain, proceed: token.proceed) else { throw WorkCancelled() }
        return respond(policy: policy, data: data, body: body, decisions: decisions, access: access, snapshot: snapshot, context: context, explain: explain)
    }

    /// Authorize with live documents (``LiveDocumentDecider``): the database's documents are the
    /// served ones, a body's own lie under them as they would under `--documents`. A large body's
    /// rounds of evaluation run on the work executor, as a large body's decisions do otherwise.
    private func authorizeLive(
        _ request: Request, policy: Policy, data: Data, access: AuthorizeAccess, snapshot: RuleSnapshot, context: ServiceContext, live: LiveDocumentDecider
    ) async throws -> Response {
        let explain = try Self.flag(request, "explain")
        let body = try authorizeBody(policy: policy, data: data, access: access, served: DocumentStore())
        let executor = executor, budget = timeBudget, large = data.count > Self.inlineAuthorizeBytes
        let decisions = try await live.decide(body, policy: policy, layering: access.layering, explain: explain) { work in
            large ? try await executor.run(budget: budget) { _ in work() } : work()
        }
        return respond(policy: policy, data: data, body: body, decisions: decisions, access: access, snapshot: snapshot, context: context, explain: explain)
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

    /// The decisions' answer, counted in the metrics and written to the decision log.
    private func respond(
        policy: Policy, data: Data, body: PolicyRequestBody, decisions: [Decision], access: AuthorizeAccess, snapshot: RuleSnapshot,
        context: ServiceContext, explain: Bool
    ) -> Response {
        let allowed = decisions.reduce(0) { $0 + ($1.allowed ? 1 : 0) }
        metrics.decisions(allowed: allowed, denied: decisions.count - allowed)
        let decisionID = DecisionAudit.newID()
        if let decisionLog {
            let verified: Bool
            if case .verified = access.asker { verified = true } else { verified = false }
            let askers = body.askers.map { auth in
                DecisionAsker(source: auth == nil ? .signedOut : verified ? .idToken : .body, uid: auth?.uid, caller: context.caller?.id)
            }
            decisionLog.record(
                policy: policy.name, revision: snapshot.revision, requestID: context.requestID, decisionID: decisionID, body: data,
                decisions: decisions, askers: askers)
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
