import Foundation
import Testing
@testable import RegimenKit
@testable import RegimenLanguage
@testable import RegimenRules
@testable import RegimenCommands

@Suite struct RuleKindRegistryTests {
    /// Each kind belongs to one module and is spelled with underscores.
    @Test func everyKindIsOwnedOnceAndSpelledWithUnderscores() {
        let names = RegimenRuleKinds.all.map { $0.kind }
        #expect(Set(names).count == names.count, "\(names.sorted())")
        #expect(names.allSatisfy { !$0.contains("-") && $0 == $0.lowercased() })
        #expect(!names.contains("functions"), "functions is the loader's own kind")
    }

    /// The planner's load skips the other modules' files but still reports a misspelt kind.
    @Test func aModulesLoadSkipsOtherModulesFilesAndReportsAMisspelling() {
        let loader = RegimenRuleKinds.loader(for: RegimenRuleKinds.planner)
        let result = loader.load(files: [
            ("policy.yaml", "kind: security_rules\nversion: 1\nmatch: [\n"),
            ("old.yaml", "kind: security-tests\nversion: 1\ncases: [\n"),
            ("typo.yaml", "kind: readines_rules\nversion: 1\n"),
        ])
        #expect(result.diagnostics.map(\.id) == ["rules.unknown-kind"])
        #expect(result.diagnostics.first?.location?.file == "typo.yaml")
    }

    @Test func everyBundledFileLoadsWithoutErrors() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let sources = try #require(try? RuleSources.locate(rules: nil, catalogs: nil, currentDirectory: here, executable: nil).get())
        let result = RuleSetLoader(kinds: RegimenRuleKinds.all).load(from: sources)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        #expect(result.fileCount > 10)
    }

    /// An aggregate registers exactly the kinds it takes: the list is derived from its taking,
    /// every one of them even though the rule set it is derived against holds none.
    @Test func anAggregatesKindsAreTheOnesItTakes() {
        let taken = RequiredRuleFiles.kinds { (required: inout RequiredRuleFiles) throws(DiagnosticsError) in
            let plausibility = required.take(PlausibilityFile.self)
            let functions = required.take(FunctionsFile.self)
            guard plausibility != nil, functions != nil else { throw required.error(neededBy: "a test") }
        }
        #expect(taken.map { $0.kind } == ["plausibility", "functions"])
        #expect(RegimenRuleKinds.planner.map { $0.kind }.contains("supplement_catalog"))
        #expect(Set(RegimenRuleKinds.planner.map { $0.kind }).count == RegimenRuleKinds.planner.count)
    }
}
