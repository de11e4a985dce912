import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import Testing

/// The security simulator's endpoints: a decision with its reason located in the policy text,
/// pasted policies and their located problems, tests with coverage, the limits, and the gate.
@Suite(.serialized) struct SimulatorTests {
    typealias Support = ServiceTestSupport

    static func configuration(host: String = "127.0.0.1", maximumBodyBytes: Int = 1 << 20) -> ServiceConfiguration {
        var configuration = Support.configuration(maximumBodyBytes: maximumBodyBytes)
        configuration.privateHost = host
        return configuration
    }

    static func json(_ object: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
    }

    static let appendixA = "workout-tracker/appendix-a"

    /// The text a range's offsets select in `text`.
    static func selected(_ range: [String: Any], in text: String) throws -> String {
        let start = try #require((range["start"] as? [String: Any])?["offset"] as? Int)
        let end = try #require((range["end"] as? [String: Any])?["offset"] as? Int)
        let scalars = Array(text.unicodeScalars)
        try #require(0 <= start && start <= end && end <= scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }

    @Test func anAllowedRequestNamesTheGrantingStatementAndItsCondition() async throws {
        let server = try Support.server(Self.configuration())
        try await server.application(.private).test(.router) { client in
            let body = try Self.json(["policy": Self.appendixA, "method": "get", "path": "users/alice", "auth": ["uid": "alice"],
                                      "documents": ["users/alice": ["displayName": "Alice"]]])
            try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json, body: body) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let answer = try #require(try Support.value(response) as? [String: Any])
                #expect(answer["decision"] as? String == "allow")
                let text = try #require((answer["policy"] as? [String: Any])?["text"] as? String)
                let deciding = try #require(answer["deciding"] as? [[String: Any]])
                #expect(deciding.count == 1)
                #expect(try Self.selected(deciding[0], in: text) == "isOwner(userId) || isAdmin()")
                #expect((deciding[0]["start"] as? [String: Any])?["line"] as? Int == 18)
                #expect((deciding[0]["start"] as? [String: Any])?["column"] as? Int == 22)
                let evaluations = try #require(answer["evaluations"] as? [[String: Any]])
                #expect(evaluations.map { $0["statement"] as? String } == ["allow read"])
                #expect(evaluations.first?["outcome"] as? String == "true")
                #expect((evaluations.first?["location"] as? [String: Any])?["line"] as? Int == 18)
            }
        }
    }

    @Test func aDeniedRequestPointsAtTheSubExpressionThatDecidedWithItsOperands() async throws {
        let server = try Support.server(Self.configuration())
        try await server.application(.private).test(.router) { client in
            // Corrected policy: a name that is not text fails `data.get('name', null) is string`.
            let body = try Self.json(["policy": "workout-tracker/corrected", "method": "create", "path": "users/alice/programs/p2",
                                      "auth": ["uid": "alice"], "data": ["name": 5, "userId": "alice"]])
            try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json, body: body) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let answer = try #require(try Support.value(response) as? [String: Any])
                #expect(answer["decision"] as? String == "deny")
                let text = try #require((answer["policy"] as? [String: Any])?["text"] as? String)
                let deciding = try #require(answer["deciding"] as? [[String: Any]])
                let range = try #require(deciding.first { $0["text"] as? String == "data.get('name', null) is string" })
                #expect(try Self.selected(range, in: text) == "data.get('name', null) is string")
                #expect((range["start"] as? [String: Any])?["line"] as? Int == 46)
                #expect((range["start"] as? [String: Any])?["column"] as? Int == 14)
                #expect(range["outcome"] as? String == "false")
                let operands = try #require(range["operands"] as? [[String: Any]])
                #expect(operands.first?["text"] as? String == "data.get('name', null)")
                #expect(operands.first?["value"] as? String == "5")
                #expect((range["via"] as? [String])?.last == "requiredName(data)")
                // Every evaluated statement is listed with its outcome and a range into the text.
                let evaluations = try #require(answer["evaluations"] as? [[String: Any]])
                #expect(!evaluations.isEmpty && evaluations.allSatisfy { $0["outcome"] as? String != "true" })
                for evaluation in evaluations {
                    let range = try #require(evaluation["range"] as? [String: Any])
                    let selected = try Self.selected(range, in: text)
                    #expect(selected.split(whereSeparator: \.isWhitespace).joined(separator: " ") == range["text"] as? String)
                }
            }
            // Signed out (auth null) on Appendix A: the statement's condition is false.
            let signedOut = try Self.json(["policy": Self.appendixA, "method": "get", "path": "users/alice", "auth": NSNull()])
            try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json, body: signedOut) { response in
                let answer = try #require(try Support.value(response) as? [String: Any])
                #expect(answer["decision"] as? String == "deny")
                #expect((answer["deciding"] as? [[String: Any]])?.isEmpty == false)
            }
        }
    }

    @Test func aPastedPolicyIsDecidedAndItsProblemsAreLocated() async throws {
        let server = try Support.server(Self.configuration())
        let policy = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /notes/{id} {
              allow read: if request.auth != null && request.auth.uid == resource.data.owner;
            }
          }
        }

        """
        try await server.application(.private).test(.router) { client in
            let good = try Self.json(["policyText": policy, "method": "get", "path": "notes/n1", "auth": ["uid": "bob"],
                                      "documents": ["notes/n1": ["owner": "alice"]]])
            try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json, body: good) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let answer = try #require(try Support.value(response) as? [String: Any])
                #expect(answer["decision"] as? String == "deny")
                let range = try #require((answer["deciding"] as? [[String: Any]])?.first)
                #expect(try Self.selected(range, in: policy) == "request.auth.uid == resource.data.owner")
                #expect((answer["policy"] as? [String: Any])?["file"] as? String == "pasted.rules")
            }
            let broken = policy.replacingOccurrences(of: "== resource.data.owner", with: "== ")
            try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json,
                                     body: try Self.json(["policyText": broken, "method": "get", "path": "notes/n1"])) { response in
                #expect(response.status == .unprocessableContent)
                let error = try Support.error(response)
                #expect(error["id"] as? String == "expr.syntax")
                #expect((error["path"] as? String)?.hasPrefix("pasted.rules:5:") == true, "\(error)")
            }
            let yamlBroken = "kind: security_rules\nversion: 1\nservice: [unclosed\n"
            try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json,
                                     body: try Self.json(["policyText": yamlBroken, "syntax": "yaml", "method": "get", "path": "notes/n1"])) { response in
                #expect(response.status == .unprocessableContent)
                let error = try Support.error(response)
                #expect((error["path"] as? String)?.hasPrefix("pasted.yaml:") == true)
            }
            for (body, id) in [
                (["policy": Self.appendixA, "method": "fetch", "path": "users/alice"], "simulator.method"),
                (["policy": Self.appendixA, "method": "get"], "simulator.path"),
                (["method": "get", "path": "users/alice"], "simulator.policy"),
                (["policy": Self.appendixA, "policyText": policy, "method": "get", "path": "users/alice"], "simulator.policy"),
                (["policy": Self.appendixA, "method": "get", "path": "users/alice", "colour": "red"], "simulator.unknown-key"),
            ] as [([String: Any], String)] {
                try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json, body: try Self.json(body)) { response in
                    #expect(response.status == .unprocessableContent, "\(body)")
                    let error = try Support.error(response)
                    #expect(error["id"] as? String == id, "\(Support.text(response))")
                }
            }
            try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json,
                                     body: try Self.json(["policy": "no/such", "method": "get", "path": "users/alice"])) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func anOversizeBodyIs413AndTheGateOffIs404() async throws {
        let small = try Support.server(Self.configuration(maximumBodyBytes: 4096))
        try await small.application(.private).test(.router) { client in
            let huge = try Self.json(["policyText": String(repeating: "// padding\n", count: 1000), "method": "get", "path": "a/b"])
            try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json, body: huge) { response in
                #expect(response.status == .contentTooLarge)
            }
            try await client.execute(uri: "/v1/playground/simulator/test", method: .post, headers: Support.json, body: huge) { response in
                #expect(response.status == .contentTooLarge)
            }
        }
        let off = try Support.server(Self.configuration(host: "0.0.0.0"))
        try await off.application(.private).test(.router) { client in
            for path in ["/v1/playground/simulator/decide", "/v1/playground/simulator/test"] {
                let body = try Self.json(["policy": Self.appendixA, "method": "get", "path": "users/alice"])
                try await client.execute(uri: path, method: .post, headers: Support.json, body: body) { response in
                    #expect(response.status == .notFound, "\(path)")
                }
            }
        }
    }

    @Test func aTestsTextRunsWithResultsAndSubExpressionCoverage() async throws {
        let server = try Support.server(Self.configuration())
        let tests = try String(contentsOf: Support.root.appendingPathComponent("rules/security/workout-tracker/appendix-a.tests.yaml"), encoding: .utf8)
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/playground/simulator/test", method: .post, headers: Support.json,
                                     body: try Self.json(["policy": Self.appendixA, "tests": tests])) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let answer = try #require(try Support.value(response) as? [String: Any])
                let results = try #require(answer["results"] as? [String: Any])
                #expect(results["failed"] as? Int == 0)
                #expect((results["passed"] as? Int ?? 0) > 50)
                let coverage = try #require(answer["coverage"] as? [String: Any])
                let statements = try #require(coverage["statements"] as? [String: Any])
                #expect(statements["covered"] as? Int == statements["total"] as? Int)
                let entries = try #require(coverage["subExpressions"] as? [[String: Any]])
                #expect(entries.count > 100)
                let signedIn = try #require(entries.first { $0["text"] as? String == "request.auth != null" })
                let evaluated = signedIn["evaluated"] as? Int ?? 0
                #expect(evaluated > 0 && evaluated == (signedIn["true"] as? Int ?? 0) + (signedIn["false"] as? Int ?? 0) + (signedIn["error"] as? Int ?? 0))
            }
            // A tests text that does not load is 422 with its location in the text.
            try await client.execute(uri: "/v1/playground/simulator/test", method: .post, headers: Support.json,
                                     body: try Self.json(["policy": Self.appendixA, "tests": "kind: security_tests\nversion: 1\ncases:\n  - {name: x, get: users/a, expect: maybe}\n"])) { response in
                #expect(response.status == .unprocessableContent)
                let error = try Support.error(response)
                #expect((error["path"] as? String)?.hasPrefix("tests:4:") == true, "\(Support.text(response))")
            }
        }
    }

    /// For every case of every served policy's test file, the simulator decides as `regimen test`
    /// expects: the request and documents are the ones the test runner reports (`--with-requests`).
    @Test func everyShippedCaseIsDecidedAsItsTestExpects() async throws {
        let server = try Support.server(Self.configuration())
        let policies = server.store.current.policies
        let checked = try await server.application(.private).test(.router) { client in
            var checked = 0
            for name in policies.keys.sorted() {
                guard let policy = policies[name], policy.testsFile != nil else { continue }
                let report = SecurityTestReport.json([try policy.test()], requests: true)
                let files = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [[String: Any]])
                for file in files {
                    let shared = file["documents"] as? [String: Any] ?? [:]
                    for testCase in file["cases"] as? [[String: Any]] ?? [] {
                        let request = try #require(testCase["request"] as? [String: Any])
                        var documents = shared
                        for (path, fields) in testCase["documents"] as? [String: Any] ?? [:] { documents[path] = fields }
                        for path in testCase["removedDocuments"] as? [String] ?? [] { documents[path] = nil }
                        var body: [String: Any] = ["policy": name, "method": request["op"] ?? "", "path": request["path"] ?? "", "documents": documents]
                        for key in ["auth", "data", "query", "time", "size", "contentType", "metadata"] { if let value = request[key] { body[key] = value } }
                        // The runner reports an order as [field, direction]; a request writes 'field desc'.
                        if var query = request["query"] as? [String: Any], let order = query["orderBy"] as? [[String]] {
                            query["orderBy"] = order.map { $0.count == 2 && $0[1] == "desc" ? "\($0[0]) desc" : $0.first ?? "" }
                            body["query"] = query
                        }
                        try await client.execute(uri: "/v1/playground/simulator/decide", method: .post, headers: Support.json, body: try Self.json(body)) { response in
                            #expect(response.status == .ok, "\(name): \(testCase["name"] ?? "") \(Support.text(response))")
                            let answer = try Support.value(response) as? [String: Any]
                            #expect(answer?["decision"] as? String == testCase["expected"] as? String, "\(name): \(testCase["name"] ?? "")")
                        }
                        checked += 1
                    }
                }
            }
            return checked
        }
        #expect(checked > 300)
    }
}
