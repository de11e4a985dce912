import Foundation
import Testing
@testable import RegimenCommands

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
        let tests = "kind: security-tests\nrules: p.rules\ncases:\n  - {name: reads, auth: {uid: a}, get: users/a, expect: allow}\n"
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
}
