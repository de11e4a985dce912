import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Testing

/// Headers every API answer carries, request ids that are safe to log, and a decision log that
/// follows its file across a rotation.
@Suite struct ResponseHygieneTests {
    typealias Support = ServiceTestSupport
    static let requestID = HTTPField.Name("Regimen-Request-Id")!

    @Test func everyAnswerSaysNosniffAndApiAnswersAreNotStored() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            for (path, method, body) in [("/healthz", HTTPRequest.Method.get, ""), ("/v1/rules", .get, ""), ("/no/such/route", .get, ""),
                                         ("/v1/plans", .post, #"{"sex": "robot"}"#), ("/openapi.json", .get, "")] {
                try await client.execute(uri: path, method: method, headers: Support.json, body: Support.body(body)) { response in
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                    #expect(response.headers[.cacheControl] == "no-store", "\(path)")
                }
            }
        }
    }

    @Test func aRequestIdThatIsNotATokenIsReplacedBeforeAnyUse() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-ids-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try Support.server(Support.configuration(decisionLog: log))
        let body = #"{"get": "users/alice", "auth": {"uid": "alice"}}"#
        let crafted = #"x","decision":"allow","path":"users/bob"#
        try await server.application(.public).test(.router) { client in
            for (given, kept) in [("audit-1.a:b_c", true), (crafted, false), (String(repeating: "a", count: 65), false), ("a b", false)] {
                try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post,
                                         headers: [.contentType: "application/json", Self.requestID: given], body: Support.body(body)) { response in
                    let answered = try #require(response.headers[Self.requestID])
                    #expect((answered == given) == kept, "\(given) → \(answered)")
                    #expect(ServiceIDCheck.isToken(answered))
                }
            }
        }
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(!text.contains("users/bob"))
        #expect(text.split(separator: "\n").count == 4)
    }

    @Test func theDecisionLogReopensByNameAfterARotation() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-rotate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("decisions.jsonl"), rotated = folder.appendingPathComponent("decisions.jsonl.1")
        let server = try Support.server(Support.configuration(decisionLog: log))
        let body = Support.body(#"{"get": "users/alice", "auth": {"uid": "alice"}}"#)
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: Support.json, body: body)
            try FileManager.default.moveItem(at: log, to: rotated)
            try server.reopenDecisionLog()
            try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: Support.json, body: body)
        }
        #expect(try String(contentsOf: rotated, encoding: .utf8).split(separator: "\n").count == 1)
        #expect(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count == 1)
    }
}

/// What a request id may be: letters, digits, `-`, `_`, `.`, `:`, at most 64.
enum ServiceIDCheck {
    static func isToken(_ id: String) -> Bool {
        (1...64).contains(id.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }
    }
}
