import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import Testing

/// The service answers an engine error from its data (code, diagnostic ids, locations and
/// fields), never by parsing its text: each problem keeps the diagnostic's own id and names the
/// place the engine found (`<body>:line:col`, or the document path of a tracker problem).
@Suite struct ErrorMappingTests {
    typealias Support = ServiceTestSupport

    @Test func requestProblemsKeepTheirIdsAndLocations() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/v1/adapt", method: .post, headers: Support.json, body: Support.body(#"{"week": 3, "checkins": []}"#)) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                let error = try Support.error(response)
                #expect(error["id"] as? String == "input.missing")
                #expect(error["path"] as? String == "<body>:1:1")
                #expect((error["message"] as? String)?.hasPrefix("'current_plan' is missing") == true)
            }
            // A tracker tree's structural problem is named by its document path, as the engine
            // reports it in the diagnostic's field.
            try await client.execute(uri: "/v1/tracker/validate", method: .post, headers: Support.json, body: Support.body(#"{"programs": [], "userId": 5}"#)) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                let error = try Support.error(response)
                #expect(error["id"] as? String == "tracker.invalid")
                #expect(error["path"] as? String == "<root>")
                #expect((error["message"] as? String)?.contains("'userId' must be a string") == true)
            }
        }
    }

    /// A problem of a body read from text answers its line and column as numbers and its field
    /// as `path`, with a message that does not repeat the field: a daily log's broken entry, a
    /// profile's refused value. Before, a daily-log problem answered `path: "<body>"`, no line,
    /// and the entry glued to its message (`foods[2]: name is required`).
    @Test func problemsAnswerTheirFieldLineAndColumnAsData() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            let log = """
                {"foods": [
                  {"name": "Toast", "calories": 250, "timestamp": "2026-02-03T07:30:00Z"},
                  {"calories": 100, "timestamp": "2026-02-03T07:30:00Z"}
                ]}
                """
            try await client.execute(uri: "/v1/daily-log?now=2026-03-01T00:00:00Z", method: .post, headers: Support.json, body: Support.body(log)) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                let error = try Support.error(response)
                #expect(error["id"] as? String == "daily-log.input")
                #expect(error["path"] as? String == "foods[1]")
                #expect(error["message"] as? String == "name is required")
                #expect(error["line"] as? Int == 3)
                #expect(error["column"] as? Int == 3)
            }
            try await client.execute(uri: "/v1/plans", method: .post, headers: Support.json, body: Support.body(#"{"sex": "robot", "schedule_days": 3}"#)) { response in
                #expect(response.status == .unprocessableContent)
                let error = try Support.error(response)
                #expect(error["path"] as? String == "sex")
                #expect(error["line"] as? Int == 1)
                #expect((error["message"] as? String)?.hasPrefix("sex") == false, "\(Support.text(response))")
            }
        }
    }

    /// A refused plan in an adapt request answers the plan's field as `path` and the line and
    /// column of its value in the body (issue 33; before: the path in the message, no place).
    @Test func aRefusedPlanAnswersItsFieldLineAndColumn() async throws {
        let server = try Support.server()
        let body = """
            {"week": 3,
             "checkins": [{"date": "2026-03-02", "sleep_h": 7.5, "soreness": {}, "stress": 2, "motivation": 4}],
             "current_plan": {"workouts": [],
               "kcal": "oops"}}
            """
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/v1/adapt", method: .post, headers: Support.json, body: Support.body(body)) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                let error = try Support.error(response)
                #expect(error["path"] as? String == "plan.kcal", "\(Support.text(response))")
                #expect(error["line"] as? Int == 4)
                #expect(error["column"] as? Int == 12)
                #expect((error["message"] as? String)?.hasPrefix("must be a number") == true, "\(Support.text(response))")
            }
        }
    }

    /// A periodization the rules refuse names the parameter at fault as the problem's path, from
    /// the engine's diagnostic (before: `path: null`, and the command found the option by
    /// matching the message's first words).
    @Test func periodizationProblemsNameTheirParameter() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            for (query, parameter) in [("weeks=8&goal=strength&start-intensity=1.5&end-intensity=0.9", "start-intensity"),
                                       ("weeks=8&goal=strength&start-intensity=0.6&end-intensity=0", "end-intensity"),
                                       ("weeks=8&goal=bulk", "goal"), ("weeks=0&goal=strength", "weeks")] {
                try await client.execute(uri: "/v1/periodize?\(query)", method: .get) { response in
                    #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                    let error = try Support.error(response)
                    #expect(error["id"] as? String == "option.unknown")
                    #expect(error["path"] as? String == parameter, "\(query): \(Support.text(response))")
                }
            }
        }
    }

    /// Every problem of a rejected request is a diagnostic of the error, with its location or
    /// field: nothing is left only in the text.
    @Test func engineErrorsAreDataWithTheirPlaces() throws {
        let engine = try Support.server().store.current.engine
        do {
            _ = try engine.trackerTree(from: Data(#"{"programs": [], "userId": 5}"#.utf8), name: "tree.json")
            Issue.record("a tree with a numeric userId was read")
        } catch {
            #expect(error.code == .request)
            #expect(error.input == "tree.json")
            #expect(error.diagnostics.map(\.field) == ["<root>"])
            #expect(error.description == "tree.json: <root>: error: 'userId' must be a string, not int")
        }
        do {
            _ = try engine.trackerTree(fromCSV: "not,a,tracker,export\n", name: "tree.csv")
            Issue.record("a CSV without the export's header was read")
        } catch {
            #expect(error.code == .request)
            #expect(error.diagnostics.allSatisfy { $0.location?.file == "tree.csv" && $0.location?.line ?? 0 >= 1 }, "\(error.diagnostics)")
        }
    }
}
