import Foundation
import Testing
@testable import RegimenCommands
@testable import RegimenRules
import RegimenTestSupport
@testable import RegimenLanguage

/// Input shaped to crash, stall or fool a command ends in a located error and exit 2 (bad
/// input) or 1 (a rule file that does not load), never in a signal.
@Suite struct HostileInputTests {
    static func chain(_ term: String, _ separator: String, _ count: Int) -> String {
        Array(repeating: term, count: count).joined(separator: separator)
    }

    static let policyHeader = "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n"

    @Test("a 13,400-term sum in eval is a located error")
    func evalLongSum() {
        let run = runRegimen(["eval", "--", Self.chain("1", "+", 13_400)], in: URL(fileURLWithPath: "/"))
        #expect(run.status != 0)
        #expect(run.standardError.hasPrefix("<expression>:1:400: error: expression is nested too deeply"))
    }

    @Test("a policy with a 13,400-term || chain is refused with its location by authorize, test and audit")
    func policyLongOrChain() throws {
        let condition = Self.chain("request.auth.uid == 'a'", " || ", 13_400)
        let policy = Self.policyHeader + "    match /users/{id} {\n      allow read: if " + condition + ";\n    }\n  }\n}\n"
        let tests = "kind: security_tests\nversion: 1\nrules: p.rules\ncases:\n  - {name: reads, auth: {uid: a}, get: users/a, expect: allow}\n"
        let scratch = try ScratchDirectory(["p.rules": policy, "p.tests.yaml": tests])
        defer { scratch.cleanUp() }
        let rules = scratch.url.appendingPathComponent("p.rules").path
        let authorize = runRegimen(["authorize", "--rules", rules, "--auth", "{\"uid\": \"a\"}", "--op", "get", "--path", "users/a"], in: scratch.url)
        #expect(authorize.status == 2)
        #expect(authorize.standardError.contains("p.rules:5:"))
        #expect(authorize.standardError.contains("nested too deeply"))
        for command in [["test", scratch.url.appendingPathComponent("p.tests.yaml").path], ["audit", rules]] {
            let run = runRegimen(command, in: scratch.url)
            #expect(run.status != 0, "\(command)")
            #expect(run.standardError.contains("nested too deeply"), "\(command)")
        }
    }

    @Test("a rule file with a 20,000-term expression is a located error in check")
    func ruleFileLongExpression() throws {
        let functions = "kind: functions\nversion: 1\nfunctions:\n  - name: f\n    params: [x]\n    return: \"" + Self.chain("x", " + ", 20_000) + "\"\n"
        let scratch = try ScratchDirectory(["rules/functions.yaml": functions, "catalogs/.keep": ""])
        defer { scratch.cleanUp() }
        let run = runRegimen(["check", "--rules", "rules"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("rules/functions.yaml:6:"))
        #expect(run.standardError.contains("nested too deeply"))
    }

    static let repository: URL = RepositoryRoot.url

    /// The plan `regimen plan examples/minimal.yaml` writes, as JSON, edited by `edit`.
    static func plan(_ edit: (inout [String: Any]) -> Void) throws -> String {
        let run = runRegimen(["plan", "examples/minimal.yaml", "--format", "json"], in: repository)
        var plan = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        edit(&plan)
        return String(decoding: try JSONSerialization.data(withJSONObject: plan), as: UTF8.self)
    }

    @Test("adapt refuses a plan whose macros, kcal or sets are not plausible numbers, naming the plan file; exit 2")
    func adaptBadPlanNumbers() throws {
        let edits: [(String, (inout [String: Any]) -> Void)] = [
            ("plan.macros: must be a mapping with protein_g, fat_g and carb_g, not 'oops'", { $0["macros"] = "oops" }),
            ("plan.kcal: must be a number in 0-20000, not 1e+308", { $0["kcal"] = 1e308 }),
            ("plan.kcal: must be a number in 0-20000, not 1e+19", { $0["kcal"] = 1e19 }),
        ]
        let checkins = "checkins:\n  - {sleep_h: 8, stress: 2, motivation: 4, soreness: {}}\nweight_trend_2w: above\n"
        for (message, edit) in edits {
            let scratch = try ScratchDirectory(["plan.json": try Self.plan(edit), "c.yaml": checkins])
            defer { scratch.cleanUp() }
            let plan = scratch.url.appendingPathComponent("plan.json").path
            let run = runRegimen(["adapt", plan, scratch.url.appendingPathComponent("c.yaml").path], in: Self.repository)
            #expect(run.status == 2, "\(message)")
            #expect(run.standardOutput == "")
            // Placed at the value in the plan's one line of JSON (issue 33: the field as data, its line:column).
            let place = run.standardError.dropFirst(plan.count).prefix { $0 != " " }
            #expect(run.standardError.hasPrefix("\(plan):1:"), "\(run.standardError)")
            #expect(place.dropFirst(3).dropLast().allSatisfy(\.isNumber) && place.hasSuffix(":"), "\(run.standardError)")
            #expect(run.standardError.hasSuffix(" error: \(message)\n"), "\(run.standardError)")
        }
    }

    @Test("adapt names the file of each problem: a plan without workouts, a next_day the plan lacks")
    func adaptProblemsNameTheirFile() throws {
        let scratch = try ScratchDirectory(["empty.json": "{\"kcal\": 2000}", "next.yaml": "next_day: 4\n", "plan.json": try Self.plan { _ in }])
        defer { scratch.cleanUp() }
        let path = { (name: String) in scratch.url.appendingPathComponent(name).path }
        let missing = runRegimen(["adapt", path("empty.json"), path("next.yaml")], in: Self.repository)
        #expect(missing.status == 2)
        #expect(missing.standardError == "\(path("empty.json")):1:1: error: plan: missing 'workouts'\n")
        let next = runRegimen(["adapt", path("plan.json"), path("next.yaml")], in: Self.repository)
        #expect(next.status == 2)
        // Located at the value: the check-ins file was read with locations.
        #expect(next.standardError == "\(path("next.yaml")):1:11: error: next_day: 4 is not a day of the plan\n")
    }

    @Test("a profile with a number past Int64 is a located error, not a trap", arguments: ["weight_kg: 1e19", "height_cm: 1e308", "weight_kg: -9.3e18"])
    func profileHugeNumber(line: String) throws {
        let scratch = try ScratchDirectory(["p.yaml": "sex: female\nschedule_days: 3\n\(line)\n"])
        defer { scratch.cleanUp() }
        let path = scratch.url.appendingPathComponent("p.yaml").path
        let run = runRegimen(["plan", path], in: Self.repository)
        #expect(run.status == 2)
        let value = String(line.split(separator: " ")[1])
        #expect(run.standardError.hasPrefix("\(path):3:"))
        #expect(run.standardError.contains(": \(value) is not allowed"))
    }

    @Test("a policy or check-ins file that is not UTF-8 is an error at its first bad byte, in audit too")
    func notUTF8() throws {
        let scratch = try ScratchDirectory([:])
        defer { scratch.cleanUp() }
        let rules = scratch.url.appendingPathComponent("latin1.rules")
        try Data("rules_version = '2';\n// caf".utf8 + [0xE9] + Data("\nservice cloud.firestore {}\n".utf8)).write(to: rules)
        let audit = runRegimen(["audit", rules.path], in: scratch.url)
        #expect(audit.status == 2)
        #expect(audit.standardError.hasPrefix("\(rules.path):2:7: error: the file is not UTF-8 text"))
        #expect(audit.standardOutput == "")  // a policy that does not load prints its error and no summary
        let authorize = runRegimen(["authorize", "--rules", rules.path, "--op", "get", "--path", "a/b"], in: scratch.url)
        #expect(authorize.status == 2)
        #expect(authorize.standardError.hasPrefix("\(rules.path):2:7: error: the file is not UTF-8 text"))
        let checkins = scratch.url.appendingPathComponent("c.yaml")
        try Data("week: 2\nnote: \"".utf8 + [0xFF, 0xFE] + Data("\"\n".utf8)).write(to: checkins)
        let adapt = runRegimen(["adapt", "examples/minimal.yaml", checkins.path], in: Self.repository)
        #expect(adapt.status == 2)
        #expect(adapt.standardError.contains("\(checkins.path):2:8: error: the file is not UTF-8 text"))
    }

    @Test("a file over the byte limit is refused before it is parsed, with its name")
    func oversizedFile() throws {
        let scratch = try ScratchDirectory([:])
        defer { scratch.cleanUp() }
        let profile = scratch.url.appendingPathComponent("big.yaml")
        var text = "sex: female\nschedule_days: 3\nexclusions:\n"
        let line = "  - " + String(repeating: "x", count: 60) + "\n"
        text += String(repeating: line, count: RegimenRules.InputFile.maximumBytes / line.utf8.count + 1)
        try text.write(to: profile, atomically: true, encoding: .utf8)
        let run = runRegimen(["plan", profile.path], in: Self.repository)
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("\(profile.path):1:1: error: "))
        #expect(run.standardError.contains("larger than 8 MiB"))
    }

    @Test("the node limit names the node count, and speaks of aliases only as counting once per use")
    func nodeLimitMessage() {
        let items = String(repeating: "1,", count: RegimenRules.YAMLReader.maximumNodeCount) + "1"
        let read = RegimenRules.YAMLReader.read("[" + items + "]", file: "list.yaml")
        #expect(read.diagnostics.map(\.message) == ["document has more than 1000000 nodes (an alias counts once per use)"])
    }

    @Test("an empty path segment is refused with the path named, not decided as if it were absent",
          arguments: ["users//alice", "users/alice/", "//users/alice", ""])
    func emptyPathSegment(path: String) throws {
        let rules = Self.repository.appendingPathComponent("rules/security/workout-tracker/appendix-a.rules").path
        let run = runRegimen(["authorize", "--rules", rules, "--auth", "{\"uid\": \"alice\"}", "--op", "get", "--path", path], in: Self.repository)
        #expect(run.status == 2)
        #expect(run.standardOutput == "")
        #expect(run.standardError.hasPrefix("error: --path: '\(path)' "))
        let tests = "kind: security_tests\nversion: 1\nrules: \(rules)\ncases:\n  - {name: reads, auth: {uid: alice}, get: '\(path)', expect: allow}\n"
        let scratch = try ScratchDirectory(["t.tests.yaml": tests])
        defer { scratch.cleanUp() }
        let test = runRegimen(["test", scratch.url.appendingPathComponent("t.tests.yaml").path], in: Self.repository)
        #expect(test.status == 2)
        #expect(test.standardError.contains("t.tests.yaml:5:") && test.standardError.contains("'\(path)'"), "\(test.standardError)")
    }

    @Test("eval --timestamps refuses date-like strings that are not dates, naming each with its place")
    func invalidTimestamps() throws {
        let scratch = try ScratchDirectory(["v.yaml": "a: 2025-02-30T00:00:00Z\nb: [\"2025-01-01T24:00:00Z\", 2025-03-01]\nc: 2025-01-01T12:00:00Z\n"])
        defer { scratch.cleanUp() }
        let vars = scratch.url.appendingPathComponent("v.yaml").path
        let run = runRegimen(["eval", "--timestamps", "--vars", vars, "--", "c"], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.standardError == """
            \(vars):1:4: error: '2025-02-30T00:00:00Z' is not a valid date or date-time (--timestamps reads ISO-8601 strings as timestamps)
            \(vars):2:5: error: '2025-01-01T24:00:00Z' is not a valid date or date-time (--timestamps reads ISO-8601 strings as timestamps)

            """)
        let plain = runRegimen(["eval", "--vars", vars, "--", "a"], in: scratch.url)
        #expect(plain.status == 0 && plain.standardOutput == "\"2025-02-30T00:00:00Z\"\n")
    }
}
