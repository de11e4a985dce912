import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Testing

/// Issue 34, "contracts drift": tracker errors carried the callable functions' RPC codes in their
/// messages (`not-found: …`, `failed-precondition: …`), statuses 422 and 403 where 404 and 422
/// belong, a CLI flag (`--repair`) in a service message, one-based `foods[1]` for the first food,
/// and `"path": null`. Every answer here is checked for all of them.
@Suite struct TrackerErrorTests {
    typealias Support = ServiceTestSupport

    static let rpcCodes = ["not-found:", "permission-denied", "failed-precondition", "invalid-argument"]

    /// Every problem of an error body: an id, a message in HTTP words without CLI flags, and a
    /// `path` that is a string when present (never null).
    static func problems(_ response: TestResponse) throws -> [[String: Any]] {
        let object = try #require(try Support.value(response) as? [String: Any])
        let problems = try #require(object["problems"] as? [[String: Any]])
        for problem in problems + [try Support.error(response)] {
            let message = try #require(problem["message"] as? String)
            #expect(!rpcCodes.contains { message.contains($0) }, "\(message)")
            #expect(!message.contains("--"), "\(message)")
            if problem.keys.contains("path") { #expect(problem["path"] is String, "\(problem)") }
        }
        return problems
    }

    @Test func duplicateAnswersInHTTPWords() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            let tree = try Support.file("examples/tracker/program.json")
            // No such week: the resource the query names is not found.
            try await client.execute(uri: "/v1/tracker/duplicate?week=nope&user=alex", method: .post, headers: Support.json, body: tree) { response in
                #expect(response.status == .notFound, "\(Support.text(response))")
                let problems = try Self.problems(response)
                #expect(problems.first?["id"] as? String == "duplicate.not-found")
                #expect(problems.first?["path"] as? String == "week")
            }
            // Another user's tree: refused.
            try await client.execute(uri: "/v1/tracker/duplicate?week=week1&user=mallory", method: .post, headers: Support.json, body: tree) { response in
                #expect(response.status == .forbidden, "\(Support.text(response))")
                _ = try Self.problems(response)
            }
            // A source that breaks the rules: the body cannot be processed as asked (422, not 403).
            let invalid = try Support.file("examples/tracker/invalid-program.yaml")
            try await client.execute(uri: "/v1/tracker/duplicate?week=week1&user=alex", method: .post, headers: Support.json, body: invalid) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                let problems = try Self.problems(response)
                #expect(problems.first?["id"] as? String == "duplicate.invalid-tree")
            }
        }
    }

    @Test func dailyLogEntriesAreZeroBasedFieldPaths() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            let log = #"{"foods": [{"name": "Soup", "calories": -5, "timestamp": "2026-02-03T07:00:00Z"}]}"#
            try await client.execute(uri: "/v1/daily-log?now=2026-02-04T12:00:00Z", method: .post, headers: Support.json, body: Support.body(log)) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                let problems = try Self.problems(response)
                #expect(problems.first?["path"] as? String == "foods[0]", "\(problems)")
            }
        }
    }
}
