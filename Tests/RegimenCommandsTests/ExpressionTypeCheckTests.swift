import Foundation
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// `regimen check` rejects a rule expression whose types cannot work, before any run: a
/// comparison of the readiness score with a string would otherwise make the rule silently never
/// fire.
@Suite struct ExpressionTypeCheckTests {
    /// A copy of the repository's rules and catalogs with `edit` applied to the file of `kind`.
    static func rulesCopy(editing kind: String, _ edit: (String) -> String) throws -> (scratch: ScratchDirectory, file: String, text: String) {
        let repository = ShippedRulesCheckTests.repository
        let scratch = try ScratchDirectory([:])
        let manager = FileManager.default
        for folder in ["rules", "catalogs"] {
            try manager.copyItem(at: repository.appendingPathComponent(folder), to: scratch.url.appendingPathComponent(folder))
        }
        let rules = scratch.url.appendingPathComponent("rules")
        let names = try manager.contentsOfDirectory(atPath: rules.path).filter { $0.hasSuffix(".yaml") }.sorted()
        for name in names {
            let url = rules.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            guard text.split(separator: "\n").contains(where: { $0 == "kind: \(kind)" }) else { continue }
            let edited = edit(text)
            try edited.write(to: url, atomically: true, encoding: .utf8)
            return (scratch, "rules/" + name, edited)
        }
        scratch.cleanUp()
        throw CocoaError(.fileNoSuchFile)
    }

    /// The 1-based line of the first line starting with `prefix`.
    static func line(startingWith prefix: String, in text: String) -> Int? {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(prefix) }.map { $0 + 1 }
    }

    @Test func comparingTheReadinessScoreWithAStringFailsCheckAtTheComparison() throws {
        let copy = try Self.rulesCopy(editing: "readiness_rules") { text in
            text.replacingOccurrences(of: "low_day: \"readiness <= 2\"", with: "low_day: \"readiness <= 'two'\"")
        }
        defer { copy.scratch.cleanUp() }
        let line = try #require(Self.line(startingWith: "low_day: \"readiness <= 'two'\"", in: copy.text))
        let run = runRegimen(["check", "--rules", "rules", "--catalogs", "catalogs"], in: copy.scratch.url)
        #expect(run.status == 1)
        // The comparison starts at column 11, after `low_day: "`.
        #expect(run.standardError.contains("\(copy.file):\(line):11: error: "), "\(run.standardError)")
        #expect(run.standardError.contains("cannot compare"), "\(run.standardError)")
    }

    @Test func theShippedReadinessRulesStillCheckClean() throws {
        let copy = try Self.rulesCopy(editing: "readiness_rules") { $0 }
        defer { copy.scratch.cleanUp() }
        let run = runRegimen(["check", "--rules", "rules", "--catalogs", "catalogs"], in: copy.scratch.url)
        #expect(run.status == 0, "\(run.standardError)")
    }
}
