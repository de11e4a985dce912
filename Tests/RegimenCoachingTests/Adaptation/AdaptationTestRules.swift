import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import RegimenTestSupport

/// The repository's own adaptation and supplement rule files, loaded once for the tests.
enum AdaptationTestRules {
    static let repository: URL = RepositoryRoot.url

    static let files = [
        "rules/readiness-rules.yaml", "rules/progression-rules.yaml", "rules/auto-adjust-matrix.yaml", "rules/supplement-rules.yaml",
        "catalogs/supplement-catalog.yaml",
    ]

    static let kinds: [any RuleFileKind.Type] = [
        ReadinessRulesFile.self, ProgressionRulesFile.self, AutoAdjustMatrixFile.self, SupplementRulesFile.self,
        SupplementCatalogFile.self,
    ]

    /// Loads `files`, with any replaced by the given texts (for rule-file error tests).
    static func load(replacing overrides: [String: String] = [:]) -> RuleSetLoadResult {
        let texts = files.map { path in
            (path, overrides[path] ?? ((try? String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)) ?? ""))
        }
        return RuleSetLoader(kinds: kinds).load(files: texts)
    }

    static let ruleSet: RuleSet? = {
        let result = load()
        return result.hasErrors ? nil : result.ruleSet
    }()

    static func text(_ path: String) -> String {
        (try? String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }
}

@Suite struct AdaptationRuleFilesTests {
    @Test func repositoryRuleFilesLoadWithoutDiagnostics() {
        let result = AdaptationTestRules.load()
        #expect(result.diagnostics.map(\.description) == [])
        #expect(result.ruleSet.first(ReadinessRulesFile.self) != nil)
        #expect(result.ruleSet.first(SupplementCatalogFile.self)?.catalog.supplements.count == 19)
    }
}
