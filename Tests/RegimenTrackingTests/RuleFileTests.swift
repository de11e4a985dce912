import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenTracking

@Suite("Rule files")
struct RuleFileTests {
    @Test("every shipped tracking rule file loads without diagnostics")
    func shippedFilesLoad() throws {
        let rules = try shippedRules()
        #expect(rules.activities.activities.count >= 25)
        #expect(rules.calorieBurn.formula.name == "acsm")
        #expect(rules.duplication.maxOperationsPerBatch == 450)
    }

    /// Loads the shipped files with `path`'s text replaced, returning the diagnostics.
    func diagnostics(replacing path: String, _ edit: (String) -> String) -> [String] {
        var files: [(path: String, text: String)] = []
        for relative in TrackingRules.relativePaths {
            let text = (try? String(contentsOf: projectRoot.appendingPathComponent(relative), encoding: .utf8)) ?? ""
            files.append((relative, relative == path ? edit(text) : text))
        }
        return RuleSetLoader(kinds: TrackingRules.kinds).load(files: files).diagnostics.map(\.description)
    }

    @Test("an unknown key in a rule file is an error at its line")
    func unknownKey() {
        let found = diagnostics(replacing: "rules/calorie-burn.yaml") { $0.replacingOccurrences(of: "default_weight_kg: 70", with: "default_weight: 70") }
        #expect(found.contains { $0.hasPrefix("rules/calorie-burn.yaml:") && $0.contains("error: unknown key 'default_weight'") })
        #expect(found.contains { $0.contains("missing required key 'default_weight_kg'") })
    }

    @Test("a formula with an unknown variable is reported at its column")
    func badFormula() {
        let found = diagnostics(replacing: "rules/calorie-burn.yaml") { $0.replacingOccurrences(of: "\"minutes * met * 3.5 * weight_kg / 200.0\"", with: "\"minutes * mets * 3.5 * weight_kg / 200.0\"") }
        // Line 40 is `    kcal: "minutes * mets …"`; column 22 is the `m` of `mets`.
        #expect(found.contains("rules/calorie-burn.yaml:40:22: error: formula 'acsm': 'formulas.acsm.kcal' has a bad expression: unknown name 'mets'\n  note: did you mean 'met'?"))
    }

    @Test("a Compendium row whose MET lies outside the level it serves is rejected")
    func metOutsideBand() {
        let found = diagnostics(replacing: "catalogs/activity-catalog.yaml") {
            $0.replacingOccurrences(of: "    usual: vigorous\n    rows:\n      vigorous: {code: \"12050\"", with: "    usual: moderate\n    rows:\n      moderate: {code: \"12050\"")
        }
        #expect(found.contains { $0.hasPrefix("catalogs/activity-catalog.yaml:") && $0.hasSuffix("error: activity 'running': Compendium row 12050 (MET 9.8) is not moderate: that level spans MET 3-5.9") })
    }

    @Test("periodization rows must cover every length without gaps")
    func durationGap() {
        let found = diagnostics(replacing: "rules/periodization.yaml") { $0.replacingOccurrences(of: "weeks: 9-23", with: "weeks: 10-23") }
        #expect(found.contains { $0.hasSuffix("error: 'phases_by_duration' rows 4-8 and 10-23 leave a gap") })
    }

    @Test("the selected burn formula must be one the file defines")
    func unknownFormula() {
        let found = diagnostics(replacing: "rules/calorie-burn.yaml") { $0.replacingOccurrences(of: "formula: acsm", with: "formula: harris") }
        #expect(found.contains { $0.hasSuffix("error: 'formula' names 'harris'; the file offers acsm, seed_002") })
    }
}

@Suite("Rule file cross-checks")
struct RuleFileCrossCheckTests {
    @Test("a set field named for an exercise type must exist and required fields must be shown")
    func setFieldsChecked() {
        var files: [(path: String, text: String)] = []
        for relative in TrackingRules.relativePaths {
            var text = (try? String(contentsOf: projectRoot.appendingPathComponent(relative), encoding: .utf8)) ?? ""
            if relative == "rules/tracker/tracker-validation.yaml" {
                text = text.replacingOccurrences(of: "    allowed:  [weight, restTime]\n    shown:    [setNumber, reps, weight, restTime, checked, notes]",
                                                 with: "    allowed:  [weight, tempo]\n    shown:    [setNumber, weight, checked, notes]")
            }
            files.append((relative, text))
        }
        let messages = RuleSetLoader(kinds: TrackingRules.kinds).load(files: files).diagnostics.map(\.message)
        #expect(messages.contains("exercise type 'strength': 'tempo' is not a field of 'levels.set.fields'"))
        #expect(messages.contains("exercise type 'strength': required field 'reps' must also be shown"))
    }
}
