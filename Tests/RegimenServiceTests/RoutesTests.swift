import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import Testing

/// Every `/v1` route answers with the engine's own JSON for the seed's examples.
@Suite struct RoutesTests {
    typealias Support = ServiceTestSupport

    @Test func plansAreTheEnginesJSONByteForByte() async throws {
        let server = try Support.server()
        let engine = server.store.current.engine
        for example in ["examples/minimal.yaml", "examples/complete.yaml", "examples/vegetarian-student.json"] {
            let data = try Data(contentsOf: Support.root.appendingPathComponent(example))
            let expected = try engine.generatePlan(data).json()
            let contentType = example.hasSuffix(".json") ? "application/json" : "application/yaml"
            try await server.application(.public).test(.router) { client in
                try await client.execute(uri: "/v1/plans", method: .post, headers: [.contentType: contentType], body: Support.file(example)) { response in
                    #expect(response.status == .ok, "\(example): \(Support.text(response))")
                    #expect(Support.text(response) == expected, "\(example)")
                    #expect(response.headers[HTTPField.Name("Regimen-Revision")!] == server.store.current.revision)
                }
            }
        }
    }

    @Test func indexesNutritionSupplementsAndDiffAnswerTheirContracts() async throws {
        let server = try Support.server()
        let engine = server.store.current.engine
        let minimal = try Data(contentsOf: Support.root.appendingPathComponent("examples/minimal.yaml"))
        let complete = try Data(contentsOf: Support.root.appendingPathComponent("examples/complete.yaml"))
        let profile = try engine.profile(from: minimal)
        let expected: [(String, String)] = [
            ("/v1/indexes", try engine.indexes(profile).json()),
            ("/v1/nutrition", try engine.nutrition(profile).json()),
            ("/v1/supplements", try engine.supplements(for: profile).json()),
        ]
        try await server.application(.public).test(.router) { client in
            for (uri, json) in expected {
                try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/yaml"], body: ByteBuffer(bytes: [UInt8](minimal))) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(Support.text(response) == json, "\(uri)")
                }
            }
            let old = try engine.document(from: minimal).jsonString(), new = try engine.document(from: complete).jsonString()
            let diff = try engine.diff(old: profile, new: try engine.profile(from: complete)).json()
            try await client.execute(uri: "/v1/diff", method: .post, headers: Support.json, body: Support.body(#"{"old": \#(old), "new": \#(new)}"#)) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                #expect(Support.text(response) == diff)
            }
        }
    }

    @Test func adaptTakesTheSeedsSingleRequestShape() async throws {
        let server = try Support.server()
        let engine = server.store.current.engine
        let plan = try engine.generatePlan(Data(contentsOf: Support.root.appendingPathComponent("examples/minimal.yaml")))
        let body = #"{"current_plan": \#(plan.contractValue.jsonString()), "readiness": {"sleep_h": 5, "soreness": {"legs": 5}, "stress": 4, "motivation": 2}, "weight_trend_2w": "above"}"#
        let expected = try engine.adaptPlan(try AdaptPlanRequest(json: Data(body.utf8), name: "<body>")).json()
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/v1/adapt", method: .post, headers: Support.json, body: Support.body(body)) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                #expect(Support.text(response) == expected)
                #expect(Support.text(response).contains("change_log"))
            }
        }
    }

    /// adapt's own response is a plan it accepts, in the engine and over HTTP, as `regimen adapt`
    /// accepts its own output: the patched plan is adapted again, and the same check-ins change
    /// nothing the second time.
    @Test func adaptAcceptsItsOwnResponseAsThePlan() async throws {
        let server = try Support.server()
        let engine = server.store.current.engine
        let plan = try engine.generatePlan(Data(contentsOf: Support.root.appendingPathComponent("examples/minimal.yaml")))
        let checkIns = #""readiness": {"sleep_h": 5, "soreness": {"legs": 5}, "stress": 4, "motivation": 2}, "weight_trend_2w": "above""#
        let first = try engine.adaptPlan(try AdaptPlanRequest(json: Data(#"{"current_plan": \#(plan.contractValue.jsonString()), \#(checkIns)}"#.utf8), name: "<body>"))
        #expect(!first.changeLog.isEmpty, "the check-ins should change the plan the first time")
        let again = #"{"current_plan": \#(first.json()), \#(checkIns)}"#
        let second = try engine.adaptPlan(try AdaptPlanRequest(json: Data(again.utf8), name: "<body>"))
        #expect(second.changeLog.isEmpty, "\(second.json())")
        #expect(second.patchedPlan == first.patchedPlan)
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/v1/adapt", method: .post, headers: Support.json, body: Support.body(again)) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                #expect(Support.text(response) == second.json())
            }
        }
    }

    @Test func trackerRoutesAnswerAsTheEngine() async throws {
        let server = try Support.server()
        let engine = server.store.current.engine
        let program = try Data(contentsOf: Support.root.appendingPathComponent("examples/tracker/program.json"))
        let tree = try engine.trackerTree(from: program)
        try await server.application(.public).test(.router) { client in
            let body = ByteBuffer(bytes: [UInt8](program))
            try await client.execute(uri: "/v1/tracker/validate", method: .post, headers: Support.json, body: body) { response in
                #expect(response.status == .ok)
                let expected = try engine.validate(tree).json()
                #expect(Support.text(response) == expected)
            }
            try await client.execute(uri: "/v1/tracker/analytics", method: .post, headers: Support.json, body: body) { response in
                #expect(response.status == .ok)
                let expected = try engine.analytics(tree).json()
                #expect(Support.text(response) == expected)
            }
            try await client.execute(uri: "/v1/tracker/export?to=csv", method: .post, headers: Support.json, body: body) { response in
                #expect(response.status == .ok)
                #expect(Support.text(response) == tree.csv())
                #expect(response.headers[.contentType]?.hasPrefix("text/csv") == true)
            }
            try await client.execute(uri: "/v1/burn?activity=running&minutes=30&intensity=moderate&weight=70", method: .get) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let expected = try engine.burn(activity: "running", minutes: 30, intensity: "moderate", weightKg: 70).json()
                #expect(Support.text(response) == expected)
            }
            try await client.execute(uri: "/v1/periodize?weeks=8&goal=strength", method: .get) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let expected = try engine.periodize(weeks: 8, goal: "strength").json()
                #expect(Support.text(response) == expected)
            }
            let log = try Support.file("examples/tracker/completion-log.json")
            try await client.execute(uri: "/v1/progress?now=2026-02-04T12:00:00Z", method: .post, headers: Support.json, body: log) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let expected = try engine.progress(Data(log.readableBytesView), name: "<body>", present: #require(Timestamp(iso8601: "2026-02-04T12:00:00Z")))
                #expect(Support.text(response) == expected.json())
            }
        }
    }

    @Test func authorizeDecidesOneRequestOrABatchInOrder() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            let one = #"{"get": "users/alice", "auth": {"uid": "alice"}, "documents": {"users/alice": {"displayName": "Alice"}}}"#
            try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: Support.json, body: Support.body(one)) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let decision = try #require(try Support.value(response) as? [String: Any])
                #expect(decision["decision"] as? String == "allow")
                #expect(decision["evaluations"] == nil)
            }
            let batch = #"[{"get": "users/alice", "auth": {"uid": "alice"}}, {"get": "users/alice", "auth": {"uid": "bob"}}, {"get": "users/alice"}]"#
            try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize?explain=true", method: .post, headers: Support.json, body: Support.body(batch)) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let decisions = try #require(try Support.value(response) as? [[String: Any]])
                #expect(decisions.map { $0["decision"] as? String } == ["allow", "deny", "deny"])
                #expect(decisions.allSatisfy { $0["evaluations"] is [Any] })
            }
            // The same requests, written as an auditor's test cases, get the same decisions.
            let shared = #"{"documents": {"users/alice": {"displayName": "Alice"}}, "requests": [{"update": "users/alice", "auth": {"uid": "alice"}, "data": {"displayName": "A"}}, {"delete": "users/alice", "auth": {"uid": "bob"}}]}"#
            try await client.execute(uri: "/v1/policies/workout-tracker%2Fcorrected:authorize", method: .post, headers: Support.json, body: Support.body(shared)) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let decisions = try #require(try Support.value(response) as? [[String: Any]])
                #expect(decisions.count == 2)
                #expect(decisions.last?["decision"] as? String == "deny")
            }
        }
    }

    @Test func authorizeAgreesWithEveryAuditorCaseOfEveryPolicy() async throws {
        // Each policy's own test file, posted to :test, passes as `regimen test` passes it.
        let server = try Support.server()
        let engine = server.store.current.engine
        try await server.application(.public).test(.router) { client in
            for name in engine.policyNames {
                let policy = try engine.policy(named: name)
                guard let tests = policy.testsFile else { continue }
                let expected = try policy.test()
                try await client.execute(uri: "/v1/policies/\(name):test", method: .post, headers: [.contentType: "application/yaml"],
                                         body: ByteBuffer(bytes: [UInt8](Data(contentsOf: tests)))) { response in
                    #expect(response.status == .ok, "\(name): \(Support.text(response))")
                    let report = try #require(try Support.value(response) as? [String: Any])
                    #expect(report["passed"] as? Int == expected.passed, "\(name)")
                    #expect(report["failed"] as? Int == 0, "\(name)")
                }
                try await client.execute(uri: "/v1/policies/\(name):test?format=junit", method: .post, headers: [.contentType: "application/yaml"],
                                         body: ByteBuffer(bytes: [UInt8](Data(contentsOf: tests)))) { response in
                    #expect(response.status == .ok)
                    #expect(Support.text(response).hasPrefix("<?xml"))
                }
            }
        }
    }

    @Test func unknownPoliciesAndRoutesAre404WithTheErrorBody() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            for uri in ["/v1/policies/nope:authorize", "/v1/policies/../../etc/passwd:authorize", "/v1/policies/workout-tracker/corrected:frobnicate", "/v1/nothing"] {
                try await client.execute(uri: uri, method: .post, headers: Support.json, body: Support.body(#"{"get": "users/a"}"#)) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    let error = try Support.error(response)
                    #expect(error["id"] is String, "\(uri)")
                    #expect(response.headers[HTTPField.Name("Regimen-Revision")!] != nil)
                }
            }
        }
    }
}
