import Foundation
import Testing
@testable import RegimenCommands
import RegimenTestSupport

@Suite struct CheckCommandTests {
    static let functions = """
    kind: functions
    version: 1
    functions:
      - name: clamp
        params: [x, low, high]
        return: "x < low ? low : (x > high ? high : x)"
    """

    @Test func cleanRulesPrintOneSummaryLine() throws {
        let scratch = try ScratchDirectory(["rules/functions.yaml": Self.functions, "catalogs/.keep": "", "Package.swift": ""])
        defer { scratch.cleanUp() }
        let run = runRegimen(["check"], in: scratch.url.appendingPathComponent("rules"))
        #expect(run.status == 0)
        #expect(run.standardOutput == "ok: 1 file, 1 rule, 0 catalog entries\n")
        #expect(run.standardError == "")
    }

    @Test func errorsGoToStandardErrorSortedWithExitOne() throws {
        let scratch = try ScratchDirectory([
            "mine/b.yaml": "kind: functions\nversion: 1\nfunctions:\n  - name: f\n    params: [x]\n    retrun: x\n",
            "mine/a.yaml": "kind: functoins\nversion: 1\n",
            "mine/c.yaml": "kind: functions\nversion: 1\nfunctions:\n  - name: g\n    params: [x]\n    return: x +\n",
        ])
        defer { scratch.cleanUp() }
        let run = runRegimen(["check", "--rules", "mine"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.standardOutput == "")
        var lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The list of known kinds grows with the domain modules; check it names this one.
        #expect(lines.count == 7 && lines[1].hasPrefix("  note: known kinds: ") && lines[1].contains(" functions,"))
        if lines.count > 1 { lines.remove(at: 1) }
        #expect(lines == [
            "mine/a.yaml:1:7: error: unknown kind 'functoins' (did you mean 'functions'?)",
            "mine/b.yaml:4:5: error: function 'f': missing required key 'return'",
            "mine/b.yaml:6:5: error: function 'f': unknown key 'retrun' (did you mean 'return'?)",
            "mine/c.yaml:6:16: error: function 'g': expected an expression, found end of input",
            "check failed: 4 errors in 3 files",
            "",
        ])
    }

    @Test func missingRulesDirectoryIsAUsageError() {
        let run = runRegimen(["check", "--rules", "nowhere-\(UUID().uuidString)"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("error: rules directory 'nowhere-"))
        #expect(run.standardError.hasSuffix("' does not exist\n"))
    }

    @Test func unknownOptionIsAUsageError() {
        let run = runRegimen(["check", "--rulez", "x"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 2)
        #expect(run.standardError.contains("Unknown option '--rulez'"))
    }
}

@Suite struct ShippedRulesCheckTests {
    /// The repository root, found from this file's path.
    static let repository = RepositoryRoot.url

    @Test func theRepositorysOwnRulesAndCatalogsCheckClean() {
        let run = runRegimen(["check"], in: Self.repository)
        #expect(run.standardError == "")
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("ok: "))
    }
}

/// Kinds are spelled with underscores; the hyphenated spelling security files used before
/// still loads, with a deprecation warning naming the new spelling.
@Suite struct DeprecatedKindSpellingTests {
    static let policy = """
    kind: %KIND%
    version: 1
    rules_version: "2"
    service: cloud.firestore
    match:
      - path: /users/{userId}
        allow:
          - read: request.auth.uid == userId
    """

    @Test func theHyphenatedSecurityKindLoadsWithAWarning() throws {
        let scratch = try ScratchDirectory(["mine/policy.yaml": Self.policy.replacingOccurrences(of: "%KIND%", with: "security-rules")])
        defer { scratch.cleanUp() }
        let run = runRegimen(["check", "--rules", "mine"], in: scratch.url)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError == "mine/policy.yaml:1:7: warning: kind 'security-rules' is spelled 'security_rules'; the hyphenated spelling is deprecated\n")
        #expect(run.standardOutput == "ok: 1 file, 1 rule, 0 catalog entries, 1 warning\n")
    }

    @Test func theUnderscoredSecurityKindLoadsCleanly() throws {
        let scratch = try ScratchDirectory(["mine/policy.yaml": Self.policy.replacingOccurrences(of: "%KIND%", with: "security_rules")])
        defer { scratch.cleanUp() }
        let run = runRegimen(["check", "--rules", "mine"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.standardError == "")
    }
}
