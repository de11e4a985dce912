import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Testing

/// Reloads swap a whole checked set in; a broken set never serves.
@Suite struct ReloadTests {
    typealias Support = ServiceTestSupport
    static let token = "test-admin-token-0123456789"
    static let revisionHeader = HTTPField.Name("Regimen-Revision")!

    static func reload(_ client: some TestClientProtocol) async throws -> TestResponse {
        try await client.execute(uri: "/v1/admin/reload", method: .post, headers: [.authorization: "Bearer \(token)"])
    }

    @Test func adminEndpointsNeedTheBearerTokenAndDoNotExistWithoutOne() async throws {
        try await Support.server().application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/admin/reload", method: .post, headers: [.authorization: "Bearer anything-at-all-here"]) { response in
                #expect(response.status == .notFound)
            }
        }
        try await Support.server(Support.configuration(adminToken: Self.token)).application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/admin/reload", method: .post) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/admin/reload", method: .post, headers: [.authorization: "Bearer \(Self.token)x"]) { #expect($0.status == .forbidden) }
            let response = try await Self.reload(client)
            #expect(response.status == .ok)
            #expect(Support.text(response).contains("\"unchanged\""))
        }
    }

    @Test func aBrokenEditKeepsTheLastGoodSetAndAFixBringsTheNewRevision() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let goals = folder.appendingPathComponent("rules/goals.yaml")
        let original = try String(contentsOf: goals, encoding: .utf8)
        let server = try Support.server(Support.configuration(rules: folder.appendingPathComponent("rules"), adminToken: Self.token))
        let first = server.store.current.revision
        try await server.application(.private).test(.router) { client in
            try (original + "\nbroken: [unclosed\n").write(to: goals, atomically: true, encoding: .utf8)
            let failed = try await Self.reload(client)
            #expect(failed.status == .conflict)
            #expect(server.store.current.revision == first)
            try await client.execute(uri: "/v1/rules", method: .get) { response in
                let info = try #require(try Support.value(response) as? [String: Any])
                #expect(info["revision"] as? String == first)
                let failure = try #require(info["last_failed_reload"] as? [String: Any])
                let diagnostics = try #require(failure["diagnostics"] as? [String])
                #expect(diagnostics.contains { $0.contains("goals.yaml:") && $0.range(of: #"goals\.yaml:\d+:\d+"#, options: .regularExpression) != nil }, "\(diagnostics)")
            }
            // Requests still answer with the last good set.
            try await client.execute(uri: "/v1/plans", method: .post, headers: [.contentType: "application/yaml"], body: Support.file("examples/minimal.yaml")) { response in
                #expect(response.status == .ok)
                #expect(response.headers[Self.revisionHeader] == first)
            }
            try (original + "\n# a coach's note\n").write(to: goals, atomically: true, encoding: .utf8)
            let fixed = try await Self.reload(client)
            #expect(fixed.status == .ok)
            let second = server.store.current.revision
            #expect(second != first)
            try await client.execute(uri: "/v1/rules", method: .get) { response in
                let info = try #require(try Support.value(response) as? [String: Any])
                #expect(info["revision"] as? String == second)
                #expect(info["last_failed_reload"] is NSNull)
                let files = try #require(info["files"] as? [[String: Any]])
                #expect(files.contains { $0["path"] as? String == "rules/goals.yaml" })
                #expect(files.contains { ($0["kind"] as? String) == "security-rules" })
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = Support.text(response)
                #expect(text.contains(#"regimen_reloads_total{outcome="failure"} 1"#))
                #expect(text.contains(#"regimen_reloads_total{outcome="success"} 1"#))
                #expect(text.contains(#"regimen_rules_info{revision="\#(second)"} 1"#))
                #expect(!text.contains(#"regimen_rules_info{revision="\#(first)"}"#))
            }
        }
    }

    @Test func aBrokenPolicyFailsTheWholeSet() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Support.server(Support.configuration(rules: folder.appendingPathComponent("rules"), adminToken: Self.token))
        let first = server.store.current.revision
        let policy = folder.appendingPathComponent("rules/security/workout-tracker/corrected.rules")
        let text = try String(contentsOf: policy, encoding: .utf8)
        try (text + "\nmatch /oops { allow read: if (; }\n").write(to: policy, atomically: true, encoding: .utf8)
        let outcome = await server.reloader.reload(reason: "test")
        guard case .failed(_, let diagnostics) = outcome else { Issue.record("expected a failed reload, got \(outcome)"); return }
        #expect(diagnostics.contains { $0.contains("corrected.rules:") })
        #expect(server.store.current.revision == first)
        #expect(server.store.current.policies["workout-tracker/corrected"] != nil)
    }
}
