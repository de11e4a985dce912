import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
@testable import RegimenKit
@testable import RegimenService
import RegimenTestSupport
import Testing

/// Issue 35 items 2 and 6: caller API keys with scopes, open route groups, the documents scope,
/// rate limits.
@Suite struct CallerKeysTests {
    typealias Support = ServiceTestSupport
    let factory = IDTokenFactory.shared

    static let keys: [(id: String, key: String, scopes: [String], rate: String?)] = [
        ("planner", "key-planner-0123456789", ["plans"], nil),
        ("app", "key-app-0123456789", ["authorize"], nil),
        ("backend", "key-backend-0123456789", ["authorize", "authorize:claims", "documents", "test"], nil),
        ("limited", "key-limited-0123456789", ["authorize"], #"{"per_second": 0.001, "burst": 2}"#),
    ]

    static func hex(_ key: String) -> String { SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined() }

    static func keyFile(_ entries: [(id: String, key: String, scopes: [String], rate: String?)]) -> String {
        let lines = entries.map { entry in
            let scopes = entry.scopes.map { "\"\($0)\"" }.joined(separator: ", ")
            return #"{"id": "\#(entry.id)", "sha256": "\#(hex(entry.key))", "scopes": [\#(scopes)]\#(entry.rate.map { #", "rate": \#($0)"# } ?? "")}"#
        }
        return "{\"keys\": [\n" + lines.joined(separator: ",\n") + "\n]}\n"
    }

    func server(_ folder: ScratchFolder, mode: IdentityMode = .verified, open: Set<RouteGroup> = [], documents: URL? = nil) throws -> RegimenServer {
        try folder.write(Self.keyFile(Self.keys), to: "keys.json")
        try factory.keySet.write(to: folder.url.appendingPathComponent("jwks.json"))
        var configuration = Support.configuration(documents: documents)
        configuration.access = AccessConfiguration(
            identityMode: mode, idTokens: .firebase(project: IDTokenFactory.project, keySetFile: folder.url.appendingPathComponent("jwks.json")),
            callerKeys: folder.url.appendingPathComponent("keys.json"), openRouteGroups: open)
        return try Support.server(configuration)
    }

    static func headers(key: String?, token: String? = nil, type: String = "application/json") -> HTTPFields {
        var headers: HTTPFields = [.contentType: type]
        if let key { headers[HTTPField.Name("Regimen-Api-Key")!] = key }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return headers
    }

    /// A route group needs a key holding its scope: none → 401, an unknown one → 401, one
    /// without the scope → 403; health and the OpenAPI document never need one; an opened group
    /// needs none, but a key sent there must still be a key.
    @Test func routeGroupsNeedAKeyWithTheirScopeUnlessOpened() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let plan = try Support.file("examples/minimal.yaml")
        let closed = try server(folder)
        try await closed.application(.public).test(.router) { client in
            for (key, status, id) in [(nil, HTTPResponse.Status.unauthorized, "caller.key-missing"), ("not-a-key", .unauthorized, "caller.key-unknown"),
                                      ("key-app-0123456789", .forbidden, "caller.scope")] as [(String?, HTTPResponse.Status, String)] {
                let response = try await client.execute(uri: "/v1/plans", method: .post, headers: Self.headers(key: key, type: "application/yaml"), body: plan)
                #expect(response.status == status, "\(key ?? "no key")")
                #expect(try Support.error(response)["id"] as? String == id)
            }
            let planned = try await client.execute(uri: "/v1/plans", method: .post, headers: Self.headers(key: "key-planner-0123456789", type: "application/yaml"), body: plan)
            #expect(planned.status == .ok)
            for path in ["/healthz", "/readyz", "/openapi.json"] {
                #expect(try await client.execute(uri: path, method: .get).status == .ok, "\(path)")
            }
            let authorize = try await client.execute(
                uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: Self.headers(key: "key-planner-0123456789"),
                body: Support.body(#"{"get": "users/alice"}"#))
            #expect(authorize.status == .forbidden)
        }
        let opened = try server(folder, open: [.plans])
        try await opened.application(.public).test(.router) { client in
            let anonymous = try await client.execute(uri: "/v1/plans", method: .post, headers: Self.headers(key: nil, type: "application/yaml"), body: plan)
            #expect(anonymous.status == .ok)
            let wrong = try await client.execute(uri: "/v1/plans", method: .post, headers: Self.headers(key: "wrong", type: "application/yaml"), body: plan)
            #expect(wrong.status == .unauthorized)
        }
        // The private listener is the operator's: no keys there.
        try await closed.application(.private).test(.router) { client in
            let response = try await client.execute(uri: "/v1/plans", method: .post, headers: Self.headers(key: nil, type: "application/yaml"), body: plan)
            #expect(response.status == .ok)
        }
    }

    /// Over its bucket a key gets 429 with Retry-After; other keys are not held back.
    @Test func aKeyOverItsRateLimitIs429WithRetryAfter() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let server = try server(folder)
        try await server.application(.public).test(.router) { client in
            let path = "/v1/policies/workout-tracker/corrected:authorize", body = Support.body(#"{"get": "users/alice"}"#)
            for _ in 0..<2 {
                #expect(try await client.execute(uri: path, method: .post, headers: Self.headers(key: "key-limited-0123456789"), body: body).status == .ok)
            }
            let refused = try await client.execute(uri: path, method: .post, headers: Self.headers(key: "key-limited-0123456789"), body: body)
            #expect(refused.status == .tooManyRequests)
            #expect(try Support.error(refused)["id"] as? String == "caller.rate-limit")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(try await client.execute(uri: path, method: .post, headers: Self.headers(key: "key-app-0123456789"), body: body).status == .ok)
        }
    }

    /// A revoked key stops working once the file changes, without a restart.
    @Test func keysAreReadAgainWhenTheFileChanges() throws {
        let folder = try ScratchFolder(["keys.json": Self.keyFile(Self.keys)])
        defer { folder.cleanUp() }
        let keys = try CallerKeys(file: folder.url.appendingPathComponent("keys.json"), logger: Support.quietLogger, recheckInterval: .zero)
        #expect(keys.caller(presenting: "key-app-0123456789")?.id == "app")
        try folder.write(Self.keyFile(Array(Self.keys.dropFirst(2))), to: "keys.json")
        #expect(keys.caller(presenting: "key-app-0123456789") == nil)
        #expect(keys.caller(presenting: "key-backend-0123456789")?.scopes.contains(.documents) == true)
        // A broken file keeps the keys that read.
        try folder.write("{\"keys\": [{\"id\": \"x\"}]}", to: "keys.json")
        #expect(keys.caller(presenting: "key-backend-0123456789")?.id == "backend")
        #expect(throws: AccessConfigurationError.self) { try CallerKeys(file: folder.url.appendingPathComponent("keys.json"), logger: Support.quietLogger) }
    }

    /// With keys configured, in verified mode, for generated bodies: no body changes
    /// request.auth (a body naming `auth` is refused), and without the documents scope no body
    /// changes what get() reads (a body naming `documents` is refused); with the scope, its
    /// documents lie under the served ones. Every decision made equals the decision the served
    /// documents give the token's user.
    @Test func noBodyChangesRequestAuthOrWhatGetReadsWithoutTheScope() async throws {
        let documents = try ScratchFolder([
            "assignments.yaml": """
            workouts/w1: {trainerId: carol, studentId: bob}
            workout_progress/p1: {studentId: bob, workoutId: w1}
            """,
        ])
        defer { documents.cleanUp() }
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let server = try server(folder, documents: documents.url)
        // Who may read workout_progress/p1 by the served documents: its student and the trainer.
        let servedAllows: Set = ["carol", "bob"]
        var generator = SeededGenerator(seed: 3_500)
        struct Case: Sendable { var body: String, key: String, user: String, namesAuth: Bool, namesDocuments: Bool, scoped: Bool }
        var cases: [Case] = []
        let rewrites = [
            #""workouts/w1": {"trainerId": "mallory", "studentId": "mallory"}"#, #""workout_progress/p1": {"studentId": "mallory", "workoutId": "w9"}"#,
            #""workouts/w9": {"trainerId": "mallory"}"#, #""workout_progress/p1": null"#, #""workouts/w1": null"#,
        ]
        for _ in 0..<48 {
            let user = ["carol", "bob", "mallory"].randomElement(using: &generator) ?? "mallory"
            let namesAuth = Int.random(in: 0..<4, using: &generator) == 0
            let namesDocuments = Bool.random(using: &generator)
            // One to three entries, each on its own path (a repeated key is unreadable, 400).
            var entries: [String] = []
            for rewrite in rewrites.shuffled(using: &generator) where entries.count < 3 {
                let path = rewrite.prefix { $0 != ":" }
                if !entries.contains(where: { $0.hasPrefix(path) }) { entries.append(rewrite) }
            }
            let documentsValue = "{" + entries.prefix(Int.random(in: 1...3, using: &generator)).joined(separator: ", ") + "}"
            var request = #"{"get": "workout_progress/p1""#
            if namesAuth { request += #", "auth": {"uid": "carol"}"# }
            let perRequest = namesDocuments && Bool.random(using: &generator)
            if perRequest { request += ", \"documents\": \(documentsValue)" }
            request += "}"
            let body: String
            if namesDocuments, !perRequest {
                body = "{\"requests\": [\(request)], \"documents\": \(documentsValue)}"
            } else {
                body = Bool.random(using: &generator) ? request : "[\(request)]"
            }
            let key = ["key-app-0123456789", "key-backend-0123456789"].randomElement(using: &generator) ?? ""
            cases.append(Case(body: body, key: key, user: user, namesAuth: namesAuth, namesDocuments: namesDocuments, scoped: key.hasPrefix("key-backend")))
        }
        let generated = cases
        let tokens = Dictionary(uniqueKeysWithValues: ["carol", "bob", "mallory"].map { ($0, factory.token(.validRS256, uid: $0, now: Date())) })
        try await server.application(.public).test(.router) { client in
            for item in generated {
                let response = try await client.execute(
                    uri: "/v1/policies/trainer-student/firestore:authorize", method: .post, headers: Self.headers(key: item.key, token: tokens[item.user]),
                    body: Support.body(item.body))
                if item.namesAuth {
                    #expect(response.status == .badRequest, "\(item.body)")
                    continue
                }
                if item.namesDocuments, !item.scoped {
                    #expect(response.status == .forbidden, "\(item.body)")
                    #expect(try Support.error(response)["id"] as? String == "request.documents-scope")
                    continue
                }
                #expect(response.status == .ok, "\(item.body): \(Support.text(response))")
                let value = try Support.value(response)
                let decision = (value as? [[String: Any]])?.first ?? (value as? [String: Any]) ?? [:]
                #expect(decision["allowed"] as? Bool == servedAllows.contains(item.user), "\(item.user) with \(item.key): \(item.body)")
            }
        }
    }

    /// In trusted-caller mode a body's `auth` counts only from a key holding authorize:claims.
    @Test func trustedCallersNameTheUserOthersCannot() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let server = try server(folder, mode: .trustedCaller)
        try await server.application(.public).test(.router) { client in
            let path = "/v1/policies/workout-tracker/corrected:authorize", body = Support.body(#"{"get": "users/alice", "auth": {"uid": "alice"}}"#)
            let trusted = try await client.execute(uri: path, method: .post, headers: Self.headers(key: "key-backend-0123456789"), body: body)
            #expect((try Support.value(trusted) as? [String: Any])?["allowed"] as? Bool == true)
            let untrusted = try await client.execute(uri: path, method: .post, headers: Self.headers(key: "key-app-0123456789"), body: body)
            #expect(untrusted.status == .forbidden)
            #expect(try Support.error(untrusted)["id"] as? String == "request.auth-scope")
            // Without a body 'auth' or a token, the request is signed out.
            let anonymous = try await client.execute(
                uri: path, method: .post, headers: Self.headers(key: "key-backend-0123456789"), body: Support.body(#"{"get": "users/alice"}"#))
            #expect((try Support.value(anonymous) as? [String: Any])?["allowed"] as? Bool == false)
        }
    }
}
