import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Testing

/// The decision log, the metrics, the documents folder and the request id header.
@Suite struct ObservabilityTests {
    typealias Support = ServiceTestSupport

    @Test func theDecisionLogHasOneLinePerDecisionWithTheRequestsDigest() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-decisions-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try Support.server(Support.configuration(decisionLog: log))
        let body = #"[{"get": "users/alice", "auth": {"uid": "alice"}}, {"delete": "users/alice", "auth": {"uid": "bob"}}]"#
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post,
                                     headers: [.contentType: "application/json", HTTPField.Name("Regimen-Request-Id")!: "audit-1"], body: Support.body(body)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("Regimen-Request-Id")!] == "audit-1")
            }
        }
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let digest = "sha256:" + SHA256.hash(data: Data(body.utf8)).map { String(format: "%02x", $0) }.joined()
        let entries = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(entries.map { $0["decision"] as? String } == ["allow", "deny"])
        #expect(entries.map { $0["index"] as? Int } == [0, 1])
        for entry in entries {
            #expect(entry["policy"] as? String == "workout-tracker/corrected")
            #expect(entry["revision"] as? String == server.store.current.revision)
            #expect(entry["request_digest"] as? String == digest)
            #expect(entry["request_id"] as? String == "audit-1")
            #expect((entry["time"] as? String)?.hasSuffix("Z") == true)
        }
    }

    @Test func metricsCountRequestsPerRouteAndDecisionsByOutcome() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            let batch = #"[{"get": "users/alice", "auth": {"uid": "alice"}}, {"get": "users/alice", "auth": {"uid": "bob"}}, {"get": "users/alice"}]"#
            try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: Support.json, body: Support.body(batch))
            try await client.execute(uri: "/v1/plans", method: .post, headers: Support.json, body: Support.body(#"{"sex": "robot"}"#))
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = Support.text(response)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                #expect(text.contains(#"regimen_decisions_total{outcome="allow"} 1"#), "\(text)")
                #expect(text.contains(#"regimen_decisions_total{outcome="deny"} 2"#))
                #expect(text.contains(#"regimen_http_requests_total{route="/v1/plans",method="POST",status="422"} 1"#))
                #expect(text.contains(#"regimen_http_request_duration_seconds_count{route="/v1/policies/**",method="POST"} 1"#))
                #expect(text.contains(#"regimen_rules_info{revision="\#(server.store.current.revision)"} 1"#))
            }
        }
    }

    @Test func documentsFromTheDocumentsFolderExistForEveryRequest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-documents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"users/alice/programs/p1": {"name": "Push", "userId": "alice", "createdAt": {"$timestamp": "2025-01-01T00:00:00Z"}}}"#
            .write(to: folder.appendingPathComponent("programs.json"), atomically: true, encoding: .utf8)
        let request = #"{"update": "users/alice/programs/p1", "auth": {"uid": "alice"}, "data": {"name": "Pull"}}"#
        let with = try Support.server(Support.configuration(documents: folder))
        let without = try Support.server()
        #expect(with.store.current.revision != without.store.current.revision)
        var decisions: [String] = []
        for server in [with, without] {
            let decision = try await server.application(.public).test(.router) { client in
                try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: Support.json, body: Support.body(request)) { response in
                    #expect(response.status == .ok)
                    let decision = try #require(try Support.value(response) as? [String: Any])
                    return decision["decision"] as? String ?? "?"
                }
            }
            decisions.append(decision)
        }
        // An update needs the document to exist: only the server with the folder has it.
        #expect(decisions == ["allow", "deny"])
    }

    @Test func aCompactJSONBodyFullOfDashesIsRead() async throws {
        // Dates and ids on one line used to count as nesting and the body was refused as too deep.
        let server = try Support.server()
        let note = String(repeating: "2026-01-01 ", count: 300)
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/v1/plans", method: .post, headers: Support.json, body: Support.body(#"{"sex": "female", "schedule_days": 3, "nickname": "\#(note)"}"#)) { response in
                #expect(response.status != .badRequest, "\(Support.text(response))")
                let errorBody = try Support.error(response)
                #expect(errorBody["path"] as? String == "nickname")
            }
        }
    }
}
