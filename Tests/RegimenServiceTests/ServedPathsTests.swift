import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import Testing

/// Answers name files as a client knows them (a policy by its path under the policies folder, a
/// rule file under `rules/`), never by where the server keeps them.
@Suite struct ServedPathsTests {
    typealias Support = ServiceTestSupport
    static let token = "test-admin-token-0123456789"

    @Test func explanationsNameEveryPolicyByItsPathUnderThePoliciesFolder() async throws {
        let server = try Support.server()
        let names = server.store.current.policies.keys.sorted()
        #expect(names.contains("workout-tracker/corrected"))
        try await server.application(.private).test(.router) { client in
            for name in names {
                let request = server.store.current.policies[name]?.service.rawValue == "firebase.storage"
                    ? #"{"download": "users/alice/photo.jpg", "auth": {"uid": "alice"}}"#
                    : #"{"get": "users/alice", "auth": {"uid": "alice"}}"#
                try await client.execute(uri: "/v1/policies/\(name):authorize?explain=true", method: .post, headers: Support.json, body: Support.body(request)) { response in
                    #expect(response.status == .ok, "\(name): \(Support.text(response))")
                    let text = Support.text(response)
                    #expect(!text.contains(Support.root.path), "\(name): \(text)")
                    let decision = try #require(try Support.value(response) as? [String: Any])
                    let evaluations = try #require(decision["evaluations"] as? [[String: Any]])
                    let locations = evaluations.compactMap { $0["location"] as? String } + [decision["grantedBy"] as? String].compactMap { $0 }
                    for location in locations {
                        #expect(location.range(of: #"^\#(name)\.(rules|yaml):\d+:\d+$"#, options: .regularExpression) != nil, "\(name): \(location)")
                    }
                }
            }
        }
    }

    @Test func failedReloadsNameFilesUnderTheirFolder() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Support.server(Support.configuration(rules: folder.appendingPathComponent("rules"), adminToken: Self.token))
        try await server.application(.private).test(.router) { client in
            // A rule file and a policy broken at once.
            let goals = folder.appendingPathComponent("rules/goals.yaml")
            try (try String(contentsOf: goals, encoding: .utf8) + "\nbroken: [unclosed\n").write(to: goals, atomically: true, encoding: .utf8)
            let policy = folder.appendingPathComponent("rules/security/workout-tracker/corrected.rules")
            try (try String(contentsOf: policy, encoding: .utf8) + "\nallow read: if ;\n").write(to: policy, atomically: true, encoding: .utf8)
            try await client.execute(uri: "/v1/admin/reload", method: .post, headers: [.authorization: "Bearer \(Self.token)"]) { response in
                #expect(response.status == .conflict)
                #expect(!Support.text(response).contains(folder.path), "\(Support.text(response))")
            }
            try await client.execute(uri: "/v1/rules", method: .get) { response in
                let text = Support.text(response)
                #expect(!text.contains(folder.path), "\(text)")
                let info = try #require(try Support.value(response) as? [String: Any])
                let failure = try #require(info["last_failed_reload"] as? [String: Any])
                let diagnostics = try #require(failure["diagnostics"] as? [String])
                #expect(diagnostics.contains { $0.hasPrefix("rules/goals.yaml:") }, "\(diagnostics)")
            }
        }
        // The policy alone broken: named by its path under the policies folder.
        let goals = folder.appendingPathComponent("rules/goals.yaml")
        try Data(contentsOf: Support.root.appendingPathComponent("rules/goals.yaml")).write(to: goals)
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/admin/reload", method: .post, headers: [.authorization: "Bearer \(Self.token)"]) { response in
                #expect(response.status == .conflict)
            }
            try await client.execute(uri: "/v1/rules", method: .get) { response in
                let info = try #require(try Support.value(response) as? [String: Any])
                let failure = try #require(info["last_failed_reload"] as? [String: Any])
                let diagnostics = try #require(failure["diagnostics"] as? [String])
                #expect(diagnostics.contains { $0.hasPrefix("workout-tracker/corrected.rules:") }, "\(diagnostics)")
                #expect(!diagnostics.joined().contains(folder.path))
            }
        }
    }
}
