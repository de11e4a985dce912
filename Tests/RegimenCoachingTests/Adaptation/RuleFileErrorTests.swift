@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import Foundation
import FoundationEssentials

/// Mistakes in the adaptation and supplement rule files are reported at their place, naming the
/// rule, all in one pass.
@Suite struct RuleFileErrorTests {
    /// Loads the repository's files with one text replaced, and returns the error lines.
    private func errors(in path: String, replacing original: String, with replacement: String) -> [String] {
        let text = AdaptationTestRules.text(path)
        #expect(text.contains(original), "fixture text not found in \(path)")
        let result = AdaptationTestRules.load(replacing: [path: text.replacingOccurrences(of: original, with: replacement)])
        return result.diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    private func line(of needle: String, in path: String) -> Int {
        let lines = AdaptationTestRules.text(path).components(separatedBy: "\n")
        return (lines.firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    @Test func misspeltNameInACautionConditionIsLocated() {
        let found = errors(in: "rules/supplement-rules.yaml", replacing: "when: \"profile.hypertension == true && item.stimulant\"",
                           with: "when: \"profile.hypertension == true && item.stimulant && pofile.age > 1\"")
        let row = line(of: "id: hypertension_stimulant", in: "rules/supplement-rules.yaml") + 1
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("rules/supplement-rules.yaml:\(row):") == true)
        #expect(found.first?.contains("caution 'hypertension_stimulant'") == true)
        #expect(found.first?.contains("pofile") == true)
    }

    @Test func doseAboveItsUpperLimitIsRejected() {
        let found = errors(in: "catalogs/supplement-catalog.yaml", replacing: "      range: 200-250\n", with: "      range: 200-400\n")
        #expect(found.count == 1)
        #expect(found.first?.contains("supplement 'magnesium'") == true)
        #expect(found.first?.contains("above the upper limit of 250") == true)
    }

    @Test func unknownKeyInACatalogEntrySuggestsTheRightOne() {
        let found = errors(in: "catalogs/supplement-catalog.yaml", replacing: "    side_effects: [\"Insomnia\"", with: "    side_efects: [\"Insomnia\"")
        #expect(found.contains { $0.contains("unknown key 'side_efects'") && $0.contains("side_effects") })
        #expect(found.contains { $0.contains("missing required key 'side_effects'") })
    }

    @Test func interactionWithAnUnknownMedicationClassIsAnError() {
        let found = errors(in: "catalogs/supplement-catalog.yaml", replacing: "      thiazide: \"Thiazide", with: "      thiazid: \"Thiazide")
        #expect(found.count == 1)
        #expect(found.first?.contains("unknown medication class 'thiazid'") == true)
    }

    @Test func actionOutsideItsScopeIsAnError() {
        let found = errors(in: "rules/readiness-rules.yaml", replacing: "      weekly_sets_pct: \"-10\"", with: "      load_pct: \"-10\"")
        #expect(found.count == 1)
        #expect(found.first?.contains("rule 'low_readiness_week'") == true)
        #expect(found.first?.contains("needs for_each: logged_exercise") == true)
    }

    @Test func supersedingAnUnknownRuleIsAnError() {
        let found = errors(in: "rules/readiness-rules.yaml", replacing: "    supersedes: [easy_session]", with: "    supersedes: [easy_sesion]")
        #expect(found.count == 1)
        #expect(found.first?.contains("unknown rule 'easy_sesion'") == true)
    }

    @Test func reasonTemplateWithAnUnknownNameIsLocatedInsideTheMessage() {
        let found = errors(in: "rules/readiness-rules.yaml", replacing: "reason: \"soreness {soreness}\"", with: "reason: \"soreness {sorenes}\"")
        let row = line(of: "reason: \"soreness {soreness}\"", in: "rules/readiness-rules.yaml")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("rules/readiness-rules.yaml:\(row):") == true)
        #expect(found.first?.contains("sorenes") == true)
    }

    @Test func profileFieldWithoutAMatrixRowIsAnError() {
        let found = errors(in: "rules/auto-adjust-matrix.yaml", replacing: "  - field: waist_cm\n", with: "  - field: waist\n")
        #expect(found.contains { $0.contains("unknown profile field 'waist'") })
        #expect(found.contains { $0.contains("profile field 'waist_cm' has no row") })
    }

    @Test func noneImpactThatRecomputesSomethingIsAConflict() {
        let found = errors(in: "rules/auto-adjust-matrix.yaml",
                           replacing: "    nutrition: {impact: \"none (risk screen only)\", recompute: []}",
                           with: "    nutrition: {impact: \"none\", recompute: [calories]}")
        #expect(found.count == 1)
        #expect(found.first?.contains("row 'waist_cm'") == true)
    }

    @Test func factReadingTheItemIsAnError() {
        let found = errors(in: "rules/supplement-rules.yaml", replacing: "  age_known: \"profile.age != null || profile.age_range != null\"",
                           with: "  age_known: \"item.stimulant\"")
        #expect(found.count == 1)
        #expect(found.first?.contains("fact 'age_known'") == true)
    }
}
