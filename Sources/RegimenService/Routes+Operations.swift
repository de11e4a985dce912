import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import RegimenKit

extension ServiceRoutes {
    /// The loaded rules, health, metrics, the OpenAPI document and the admin reload.
    func addOperations(to router: Router<ServiceContext>) {
        route(router, .get, "/v1/rules") { _, context in
            let snapshot = try Self.snapshot(context)
            var fields: Value.Map = [
                "revision": .string(snapshot.revision),
                "loaded_at": .string(ISO8601DateFormatter().string(from: snapshot.loadedAt)),
                "files": .list(snapshot.files.map { .map(["path": .string($0.path), "kind": .string($0.kind)]) }),
                "policies": .list(snapshot.policies.keys.sorted().map(Value.string)),
                "last_failed_reload": .null,
                // The page shows its playground only when the playground's routes exist.
                "playground": .bool(playground.enabled),
            ]
            if let failure = store.lastFailure {
                fields["last_failed_reload"] = .map([
                    "revision": failure.revision.map(Value.string) ?? .null,
                    "failed_at": .string(ISO8601DateFormatter().string(from: failure.failedAt)),
                    "diagnostics": .list(failure.diagnostics.map { .string($0.description) }),
                ])
            }
            return Self.json(.map(fields))
        }
        route(router, .get, "/healthz") { _, _ in
            JSONResponse.make(json: #"{"status": "ok"}"# + "\n")
        }
        route(router, .get, "/readyz") { _, context in
            let snapshot = try Self.snapshot(context)
            return JSONResponse.make(json: Value.map(["status": .string("ready"), "revision": .string(snapshot.revision)]).jsonString(pretty: true) + "\n")
        }
        route(router, .get, "/metrics") { _, _ in
            JSONResponse.make(json: metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        route(router, .get, "/openapi.json") { _, context in
            JSONResponse.make(json: OpenAPIDocument.json(policies: try Self.snapshot(context).policies.keys.sorted()))
        }
        route(router, .post, "/v1/admin/reload") { request, _ in
            try authorizeAdmin(request)
            switch await reloader.reload(force: true, reason: "admin") {
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

    /// Admin endpoints answer 404 when no token is configured (they do not exist), and 401
    /// without or 403 with a wrong bearer token. Tokens compare by their SHA-256, so the time
    /// taken does not depend on how much of a guess was right.
    private func authorizeAdmin(_ request: Request) throws(ServiceError) {
        guard let adminToken else { throw ServiceError.notFound(request.uri.path) }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw ServiceError(.unauthorized, "admin.token", "admin endpoints need 'Authorization: Bearer TOKEN'", path: "Authorization")
        }
        let given = SHA256.hash(data: Data(header.dropFirst(7).utf8)), expected = SHA256.hash(data: Data(adminToken.utf8))
        guard given == expected else {
            throw ServiceError(.forbidden, "admin.token", "the bearer token is not the admin token", path: "Authorization")
        }
    }
}
