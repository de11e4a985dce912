import CryptoExtras
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import RegimenTestSupport
import Testing

/// Issue 35 item 1: `request.auth` from a verified ID token.
@Suite struct VerifiedIdentityTests {
    typealias Support = ServiceTestSupport
    let factory = IDTokenFactory.shared

    /// A server over the repository's rules in `mode`, verifying tokens with the factory's keys;
    /// its decision log in `folder`.
    func server(_ folder: ScratchFolder, mode: IdentityMode?, documents: URL? = nil, layering: BodyDocumentLayering = .under) throws -> RegimenServer {
        try factory.keySet.write(to: folder.url.appendingPathComponent("jwks.json"))
        var configuration = Support.configuration(documents: documents, decisionLog: folder.url.appendingPathComponent("decisions.jsonl"))
        configuration.access = AccessConfiguration(
            identityMode: mode,
            idTokens: .firebase(project: IDTokenFactory.project, keySetFile: folder.url.appendingPathComponent("jwks.json")), bodyDocuments: layering)
        return try Support.server(configuration)
    }

    static func decisionLines(_ folder: ScratchFolder) -> Int {
        ((try? String(contentsOf: folder.url.appendingPathComponent("decisions.jsonl"), encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    static let authorize = "/v1/policies/workout-tracker/corrected:authorize"

    static func headers(token: String?) -> HTTPFields {
        var headers = Support.json
        if let token { headers[.authorization] = "Bearer \(token)" }
        return headers
    }

    /// A uid of 1–40 letters and digits (a path segment as it is).
    static func uid(_ generator: inout SeededGenerator) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<Int.random(in: 1...40, using: &generator)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// For generated tokens of every kind: only the valid ones give an identity (the owner may
    /// read their document, nobody else's); every other one is answered 401 with its reason,
    /// names the header, and makes no decision (none is logged).
    @Test func onlyValidTokensGiveAnIdentityAndEveryOtherIsRefusedWithItsReason() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let server = try server(folder, mode: .verified)
        var generator = SeededGenerator(seed: 35)
        // (uid, kind, token) for six generated users; time offsets and custom claims vary.
        var cases: [(uid: String, kind: IDTokenFactory.Kind, token: String)] = []
        for _ in 0..<6 {
            let uid = Self.uid(&generator)
            let now = Date().addingTimeInterval(-Double(Int.random(in: 0...50, using: &generator)))
            let extra: [String: Any] = Bool.random(using: &generator) ? ["plan": "pro"] : [:]
            for kind in IDTokenFactory.Kind.allCases { cases.append((uid, kind, factory.token(kind, uid: uid, now: now, extra: extra))) }
        }
        let tokens = cases
        let decisions = try await server.application(.public).test(.router) { client in
            var decisions = 0
            for (uid, kind, token) in tokens {
                for (path, owner) in [("users/\(uid)", true), ("users/\(uid)x", false)] {
                    let response = try await client.execute(
                        uri: Self.authorize, method: .post, headers: Self.headers(token: token), body: Support.body(#"{"get": "\#(path)"}"#))
                    if let refusal = kind.refusal {
                        #expect(response.status == .unauthorized, "\(kind) \(uid)")
                        #expect(try Support.error(response)["id"] as? String == refusal, "\(kind): \(Support.text(response))")
                        #expect(response.headers[.wwwAuthenticate]?.contains(refusal) == true)
                    } else {
                        #expect(response.status == .ok, "\(kind): \(Support.text(response))")
                        let decision = try #require(try Support.value(response) as? [String: Any])
                        #expect(decision["allowed"] as? Bool == owner, "\(kind) \(path): \(decision)")
                        decisions += 1
                    }
                }
            }
            return decisions
        }
        #expect(decisions == 6 * 2 * 2)
        #expect(Self.decisionLines(folder) == decisions, "a refused token made a decision")
    }

    /// The token's claims are `request.auth.token`: an administrator claim set by the issuer
    /// counts; no token is a signed-out request.
    @Test func claimsReachTheRulesAndNoTokenIsSignedOut() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let server = try server(folder, mode: .verified)
        try await server.application(.public).test(.router) { client in
            let admin = factory.token(.validRS256, uid: "root", now: Date(), extra: ["admin": true])
            var response = try await client.execute(
                uri: Self.authorize, method: .post, headers: Self.headers(token: admin), body: Support.body(#"{"delete": "users/alice"}"#))
            #expect(try Support.value(response) as? [String: Any] != nil)
            #expect((try Support.value(response) as? [String: Any])?["allowed"] as? Bool == true)
            response = try await client.execute(uri: Self.authorize, method: .post, headers: Self.headers(token: nil), body: Support.body(#"{"get": "users/alice"}"#))
            #expect((try Support.value(response) as? [String: Any])?["allowed"] as? Bool == false)
        }
    }

    /// In verified mode no body changes request.auth: every generated body naming `auth` (one
    /// request, a list, `{requests}`, YAML, `auth: null`) is refused 400 without a decision; every
    /// other body is decided as the token's user (or signed out without a token).
    @Test func inVerifiedModeNoBodyChangesRequestAuth() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let server = try server(folder, mode: .verified)
        var generator = SeededGenerator(seed: 3535)
        struct Case: Sendable { var body: String, token: String?, user: String, victim: String, namesAuth: Bool, deletes: Bool }
        var cases: [Case] = []
        for _ in 0..<40 {
            let user = Self.uid(&generator)
            let victim = Bool.random(using: &generator) ? user : Self.uid(&generator)
            let claimed = [#"{"uid": "\#(victim)", "token": {"admin": true}}"#, "null", #"{"uid": "\#(victim)"}"#].randomElement(using: &generator) ?? "null"
            let namesAuth = Bool.random(using: &generator)
            let operation = [#""get": "users/\#(victim)""#, #""delete": "users/\#(victim)""#, #""update": "users/\#(victim)", "data": {"name": "x"}"#]
                .randomElement(using: &generator) ?? ""
            let request = namesAuth ? "{\(operation), \"auth\": \(claimed)}" : "{\(operation)}"
            let body: String
            var deletes = operation.hasPrefix(#""delete""#)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: body = request
            case 1: body = "[{\"get\": \"users/\(user)\"}, \(request)]"
            case 2: body = "{\"requests\": [\(request)]}"
            default:
                body = namesAuth ? "get: users/\(victim)\nauth:\n  uid: \(victim)\n" : "get: users/\(victim)\n"
                deletes = false
            }
            let token = Bool.random(using: &generator) ? factory.token(.validES256, uid: user, now: Date()) : nil
            cases.append(Case(body: body, token: token, user: user, victim: victim, namesAuth: namesAuth, deletes: deletes))
        }
        let bodies = cases
        let decided = try await server.application(.public).test(.router) { client in
            var decided = 0
            for item in bodies {
                let response = try await client.execute(uri: Self.authorize, method: .post, headers: Self.headers(token: item.token), body: Support.body(item.body))
                if item.namesAuth {
                    #expect(response.status == .badRequest, "\(item.body): \(Support.text(response))")
                    #expect(try Support.error(response)["id"] as? String == "request.auth")
                    continue
                }
                #expect(response.status == .ok, "\(item.body): \(Support.text(response))")
                let value = try Support.value(response)
                let answers = (value as? [[String: Any]]) ?? [(value as? [String: Any]) ?? [:]]
                decided += answers.count
                // The last request is the generated one: allowed only for the token's own user,
                // reading or updating their document (no one deletes without the admin claim).
                let expected = item.token != nil && item.victim == item.user && !item.deletes
                #expect(answers.last?["allowed"] as? Bool == expected, "\(item.body) as \(item.token == nil ? "nobody" : item.user)")
            }
            return decided
        }
        #expect(Self.decisionLines(folder) == decided)
    }

    /// The issue's first report: an anonymous caller claiming an administrator in the body
    /// deleted another user's program. In verified mode the claim is refused.
    @Test func theAnonymousAdministratorClaimIsRefusedInVerifiedMode() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let body = #"{"delete": "users/alice/programs/p1", "auth": {"uid": "mallory", "token": {"admin": true}}}"#
        let verified = try server(folder, mode: .verified)
        try await verified.application(.public).test(.router) { client in
            let response = try await client.execute(uri: Self.authorize, method: .post, headers: Support.json, body: Support.body(body))
            #expect(response.status == .badRequest)
        }
        #expect(Self.decisionLines(folder) == 0)
    }

    /// A body's `documents` lie under the served ones: a body cannot rewrite a trainer assignment
    /// the service holds (the issue's report: assignment rewritten to mallory → allow), unless the
    /// operator lays them over.
    @Test func bodyDocumentsLieUnderTheServedOnes() async throws {
        let documents = try ScratchFolder([
            "assignments.yaml": """
            workouts/w1: {trainerId: carol, studentId: bob}
            workout_progress/p1: {studentId: bob, workoutId: w1}
            """,
        ])
        defer { documents.cleanUp() }
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let body = #"""
        {"get": "workout_progress/p1", "auth": {"uid": "mallory"},
         "documents": {"workouts/w1": {"trainerId": "mallory", "studentId": "bob"}, "workout_progress/p2": {"studentId": "x"}}}
        """#
        let path = "/v1/policies/trainer-student/firestore:authorize"
        for (layering, allowed) in [(BodyDocumentLayering.under, false), (.over, true)] {
            let server = try server(folder, mode: .open, documents: documents.url, layering: layering)
            try await server.application(.public).test(.router) { client in
                let response = try await client.execute(uri: path, method: .post, headers: Support.json, body: Support.body(body))
                #expect((try Support.value(response) as? [String: Any])?["allowed"] as? Bool == allowed, "\(layering): \(Support.text(response))")
                // The served assignment decides for its trainer either way.
                let carol = try await client.execute(
                    uri: path, method: .post, headers: Support.json, body: Support.body(#"{"get": "workout_progress/p1", "auth": {"uid": "carol"}}"#))
                #expect((try Support.value(carol) as? [String: Any])?["allowed"] as? Bool == true)
            }
        }
        // In verified mode a body's documents are refused (no caller holds the documents scope).
        let verified = try server(folder, mode: .verified, documents: documents.url)
        try await verified.application(.public).test(.router) { client in
            let token = factory.token(.validRS256, uid: "mallory", now: Date())
            let response = try await client.execute(
                uri: path, method: .post, headers: Self.headers(token: token),
                body: Support.body(#"{"get": "workout_progress/p1", "documents": {"workouts/w1": {"trainerId": "mallory"}}}"#))
            #expect(response.status == .forbidden)
            #expect(try Support.error(response)["id"] as? String == "request.documents-scope")
        }
    }

    /// Keys rotate: a token naming a new `kid` has the key file read again, at most once per
    /// refresh interval.
    @Test func anUnknownKidRereadsTheKeyFileAtMostOncePerInterval() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let file = folder.url.appendingPathComponent("jwks.json")
        try factory.keySet.write(to: file)
        let newKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let token = IDTokenFactory.token(
            header: ["alg": "RS256", "kid": "rsa-2"], claims: IDTokenFactory.claims(uid: "alice", now: Date()), signature: .rs256(newKey))
        let rotatedSet = IDTokenFactory.json(["keys": [IDTokenFactory.jwk(rsa: newKey.publicKey, kid: "rsa-2")]])

        let slow = try IDTokenVerifier(IDTokenSettings(
            keySetFile: file, issuer: IDTokenFactory.issuer, audience: IDTokenFactory.project, refreshInterval: .seconds(86_400)))
        let eager = try IDTokenVerifier(IDTokenSettings(
            keySetFile: file, issuer: IDTokenFactory.issuer, audience: IDTokenFactory.project, refreshInterval: .zero))
        try rotatedSet.write(to: file)
        guard case .failure(let early) = await slow.identity(token: token) else { Issue.record("the key file was read again within its interval"); return }
        #expect(early.id == "token.kid-unknown")
        let identity = try (await eager.identity(token: token)).get()
        #expect(identity.uid == "alice")
        // The old key is gone from the rotated set: its tokens are refused now.
        let old = factory.token(.validRS256, uid: "alice", now: Date())
        guard case .failure(let refusal) = await eager.identity(token: old) else { Issue.record("the rotated-away key still verifies"); return }
        #expect(refusal.id == "token.kid-unknown")
    }

    /// Without an explicit mode the service serves only loopback; verified mode needs keys.
    @Test func aPublicListenerBeyondLoopbackNeedsAnIdentityMode() throws {
        #expect(throws: AccessConfigurationError.self) { try AccessConfiguration().resolvedIdentityMode(publicHost: "0.0.0.0") }
        #expect(try AccessConfiguration().resolvedIdentityMode(publicHost: "127.0.0.1") == .open)
        #expect(try AccessConfiguration(identityMode: .trustedCaller).resolvedIdentityMode(publicHost: "0.0.0.0") == .trustedCaller)
        #expect(throws: AccessConfigurationError.self) { try AccessConfiguration(identityMode: .verified).resolvedIdentityMode(publicHost: "127.0.0.1") }
    }
}
