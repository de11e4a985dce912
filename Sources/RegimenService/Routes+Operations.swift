import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import RegimenKit

extension ServiceRoutes {
    /// The loaded rules, health, metrics, the OpenAPI document and (on the private listener) the
    /// admin reload.
    func addOperations(to router: Router<ServiceContext>, admin: Bool) {
        route(router, .get, "/v1/rules") { _, context in
            let snapshot = try Self.snapshot(context)
            var fields = servedSet(snapshot)
            fields["files"] = .list(snapshot.files.map { .map(["path": .string($0.path), "kind": .string($0.kind)]) })
            fields["policies"] = .list(snapshot.policies.keys.sorted().map(Value.string))
            // The page shows its playground only when the playground's routes exist.
            fields["playground"] = .bool(playground.enabled)
            return Self.json(.map(fields))
        }
        route(router, .get, "/healthz") { _, _ in
            JSONResponse.make(json: #"{"status": "ok"}"# + "\n")
        }
        // Ready while a checked set serves; a failed reload since does not stop it (the last
        // good set answers) but is reported, with the served set's age, for the operator.
        route(router, .get, "/readyz") { _, context in
            let snapshot = try Self.snapshot(context)
            var fields = servedSet(snapshot)
            fields["status"] = .string(store.lastFailure == nil ? "ready" : "ready-stale")
            return JSONResponse.make(json: Value.map(fields).jsonString(pretty: true) + "\n")
        }
        route(router, .get, "/metrics") { _, _ in
            JSONResponse.make(json: metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        route(router, .get, "/openapi.json") { _, context in
            JSONResponse.make(json: OpenAPIDocument.json(policies: try Self.snapshot(context).policies.keys.sorted()))
        }
        guard admin else { return }
        route(router, .post, "/v1/admin/reload") { request, _ in
            try authorizeAdmin(request)
            let allowRowLoss = try Self.flag(request, "allow-row-loss")
            switch await reloader.reload(force: true, allowRowLoss: allowRowLoss, reason: "admin") {
            case .unchanged(let revision):
                return Self.json(.map(["outcome": .string("unchanged"), "revision": .string(revision)]))
            case .loaded(let revision):
                return Self.json(.map(["outcome": .string("loaded"), "revision": .string(revision)]))
            case .failed(let revision, let diagnostics):
                // The files on disk do not load: a conflict with the serving set, which stays.
                let problems = diagnostics.map { ServiceError.Problem(id: "reload.failed", message: $0, path: nil) }
                throw problems.isEmpty
                    ? ServiceError(.conflict, "reload.failed", "the rules did not load (revision \(revision ?? "?")); the last good set keeps serving")
                    : ServiceError(.conflict, problems: problems)
            }
        }
    }

    /// The served set as `/v1/rules` and `/readyz` report it: revision, when loaded, its age,
    /// and the last reload that failed since (its diagnostics with paths relative to the
    /// served folders), or `null`.
    private func servedSet(_ snapshot: RuleSnapshot) -> Value.Map {
        var fields: Value.Map = [
            "revision": .string(snapshot.revision),
            "loaded_at": .string(ISO8601DateFormatter().string(from: snapshot.loadedAt)),
            "age_seconds": .int(Int64(max(0, Date().timeIntervalSince(snapshot.loadedAt)).rounded(.down))),
            "last_failed_reload": .null,
        ]
        if let failure = store.lastFailure {
            fields["last_failed_reload"] = .map([
                "revision": failure.revision.map(Value.string) ?? .null,
                "failed_at": .string(ISO8601DateFormatter().string(from: failure.failedAt)),
                "diagnostics": .list(failure.diagnostics.map { .string($0.description) }),
            ])
        }
        return fields
    }

    /// Admin endpoints answer 404 when neither a token nor caller keys are configured (they do
    /// not exist). A caller key (`Regimen-Api-Key`) holding the `admin` scope is let in; an
    /// unknown key is 401, one without the scope 403. Otherwise the admin token: 401 without or
    /// 403 with a wrong bearer token. Tokens compare by their SHA-256, so the time taken does not
    /// depend on how much of a guess was right.
    private func authorizeAdmin(_ request: Request) throws(ServiceError) {
        if let keys = access.keys, let presented = request.headers[.regimenAPIKey] {
            guard let caller = keys.caller(presenting: presented) else {
                throw ServiceError(.unauthorized, "caller.key-unknown", "the Regimen-Api-Key is not a key of this service", path: "Regimen-Api-Key")
            }
            guard caller.scopes.contains(.admin) else {
                throw ServiceError(.forbidden, "caller.scope", "key '\(caller.id)' does not hold the admin scope", path: "Regimen-Api-Key")
            }
            return
        }
        guard let adminToken else {
            guard access.keys != nil else { throw ServiceError.notFound(request.uri.path) }
            throw ServiceError(.unauthorized, "admin.key", "admin endpoints need a Regimen-Api-Key holding the admin scope", path: "Regimen-Api-Key")
        }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw ServiceError(.unauthorized, "admin.token", "admin endpoints need 'Authorization: Bearer TOKEN'", path: "Authorization")
        }
        let given = SHA256.hash(data: Data(header.dropFirst(7).utf8)), expected = SHA256.hash(data: Data(adminToken.utf8))
        guard given == expected else {
            throw ServiceError(.forbidden, "admin.token", "the bearer token is not the admin token", path: "Authorization")
        }
    }
}
