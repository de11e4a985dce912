import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import RegimenTestSupport
import Testing

/// Issue 35 item 5: each decision has an id the answer names, and the log says who asked.
@Suite struct DecisionAuditTests {
    typealias Support = ServiceTestSupport
    let factory = IDTokenFactory.shared

    func server(_ folder: ScratchFolder, mask: Set<MaskedField> = []) throws -> RegimenServer {
        try folder.write(CallerKeysTests.keyFile(CallerKeysTests.keys), to: "keys.json")
        try factory.keySet.write(to: folder.url.appendingPathComponent("jwks.json"))
        var configuration = Support.configuration(decisionLog: folder.url.appendingPathComponent("decisions.jsonl"))
        configuration.access = AccessConfiguration(
            identityMode: .verified, idTokens: .firebase(project: IDTokenFactory.project, keySetFile: folder.url.appendingPathComponent("jwks.json")),
            callerKeys: folder.url.appendingPathComponent("keys.json"))
        configuration.access.decisionLogMask = mask
        return try Support.server(configuration)
    }

    static func lines(_ folder: ScratchFolder) throws -> [[String: Any]] {
        let text = try String(contentsOf: folder.url.appendingPathComponent("decisions.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// Every answer's Regimen-Decision-Id names its log lines (one per request of a batch, in
    /// order), each with the verified uid, the caller's key id, the decision and, for an allow,
    /// the statement that granted it.
    @Test func everyDecisionIsLoggedUnderTheAnswersIdWithWhoAsked() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let server = try server(folder)
        let token = factory.token(.validRS256, uid: "alice", now: Date())
        var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
        headers[HTTPField.Name("Regimen-Api-Key")!] = "key-app-0123456789"
        let sent = headers
        let ids = try await server.application(.public).test(.router) { client in
            var ids: [String] = []
            for body in [#"[{"get": "users/alice"}, {"get": "users/bob"}, {"delete": "users/alice"}]"#, #"{"get": "users/alice"}"#] {
                let response = try await client.execute(
                    uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: sent, body: Support.body(body))
                #expect(response.status == .ok)
                let id = try #require(response.headers[HTTPField.Name("Regimen-Decision-Id")!])
                #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
                ids.append(id)
            }
            return ids
        }
        #expect(Set(ids).count == 2)
        let lines = try Self.lines(folder)
        #expect(lines.map { $0["decision_id"] as? String } == [ids[0], ids[0], ids[0], ids[1]])
        #expect(lines.map { $0["index"] as? Int } == [0, 1, 2, 0])
        #expect(lines.map { $0["decision"] as? String } == ["allow", "deny", "deny", "allow"])
        for line in lines {
            #expect(line["uid"] as? String == "alice")
            #expect(line["auth_source"] as? String == "id-token")
            #expect(line["caller"] as? String == "app")
            #expect(line["policy"] as? String == "workout-tracker/corrected")
            let statement = line["statement"] as? String
            #expect((line["decision"] as? String == "allow") == (statement?.contains("corrected.rules:") == true), "\(line)")
        }
    }

    /// Masked fields are digests: the same value gives the same digest, and the value itself
    /// appears nowhere in the log.
    @Test func maskedFieldsAreDigestsThatStillMatch() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let server = try server(folder, mask: [.uid, .path, .caller])
        let token = factory.token(.validES256, uid: "zelda-unique-uid", now: Date())
        var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
        headers[HTTPField.Name("Regimen-Api-Key")!] = "key-backend-0123456789"
        let sent = headers
        try await server.application(.public).test(.router) { client in
            for _ in 0..<2 {
                let response = try await client.execute(
                    uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: sent,
                    body: Support.body(#"{"get": "users/zelda-unique-uid"}"#))
                #expect(response.status == .ok)
            }
        }
        let text = try String(contentsOf: folder.url.appendingPathComponent("decisions.jsonl"), encoding: .utf8)
        #expect(!text.contains("zelda-unique-uid"))
        #expect(!text.contains("\"backend\""))
        let lines = try Self.lines(folder)
        #expect(lines.count == 2)
        for field in ["uid", "path", "caller"] {
            let values = lines.map { $0[field] as? String }
            #expect(values[0]?.hasPrefix("sha256:") == true && values[0]?.count == 23, "\(field)")
            #expect(values[0] == values[1])
        }
        #expect(lines[0]["decision"] as? String == "allow")
    }
}
