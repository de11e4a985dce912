import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import RegimenTestSupport

/// The package's own `rules/` and `catalogs/`, loaded once for every test.
enum TestRules {
    static let packageRoot = RepositoryRoot.url

    static let loaded: Result<NutritionRuleSet, DiagnosticsError> = {
        let sources = RuleSources(
            rules: packageRoot.appendingPathComponent("rules"), catalogs: packageRoot.appendingPathComponent("catalogs"),
            displayBase: packageRoot)
        let result = RuleSetLoader(kinds: NutritionRuleSet.kinds, otherModulesKinds: .anyUnregistered).load(from: sources)
        do throws(DiagnosticsError) {
            return .success(try NutritionRuleSet(try result.get()))
        } catch {
            return .failure(error)
        }
    }()

    /// The rule set, or a test failure listing every diagnostic.
    static func rules(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> NutritionRuleSet {
        switch loaded {
        case .success(let rules): return rules
        case .failure(let error):
            Issue.record("rules failed to load:\n\(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// A profile from YAML text, or a test failure with its problems.
    static func profile(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Profile {
        let rules = try rules(sourceLocation: sourceLocation)
        do {
            return try rules.profileDecoder.decode(text: yaml, file: "profile.yaml")
        } catch {
            Issue.record("profile rejected:\n\(error)", sourceLocation: sourceLocation)
            throw error
        }
    }
}
