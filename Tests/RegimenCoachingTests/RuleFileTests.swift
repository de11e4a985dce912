import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// The planner's own rule files load cleanly, and mistakes in them are located errors.
@Suite struct RuleFileTests {
    /// Every file of `rules/` and `catalogs/`, by display path.
    static let files: [(path: String, text: String)] = {
        var result: [(String, String)] = []
        for folder in ["rules", "catalogs"] {
            let url = TestRules.packageRoot.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".yaml") {
                if let text = try? String(contentsOf: url.appendingPathComponent(name), encoding: .utf8) { result.append(("\(folder)/\(name)", text)) }
            }
        }
        return result
    }()

    /// Loads the real files with `path`'s text changed by `edit`.
    func load(editing path: String, _ edit: (String) -> String) -> RuleSetLoadResult {
        let files = Self.files.map { $0.path == path ? ($0.path, edit($0.text)) : $0 }
        return RuleSetLoader(kinds: NutritionRuleSet.kinds, otherModulesKinds: .anyUnregistered).load(files: files)
    }

    func errors(_ result: RuleSetLoadResult) -> [String] {
        result.diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    @Test func theShippedRulesLoadWithoutDiagnostics() throws {
        let result = RuleSetLoader(kinds: NutritionRuleSet.kinds, otherModulesKinds: .anyUnregistered).load(files: Self.files)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let rules = try NutritionRuleSet(try result.get())
        #expect(rules.catalog.ingredients.count >= 40)
        #expect(rules.catalog.ingredients.allSatisfy { $0.usdaNDB.count == 5 })
        for category in IngredientCategory.allCases {
            #expect(rules.catalog.ingredients.filter { $0.category == category }.count >= 3)
        }
    }

    @Test func unknownKeyIsALocatedError() {
        let result = load(editing: "rules/meals.yaml") { $0.replacingOccurrences(of: "tolerance_pct: 10", with: "tolerance_pct: 10\ntolerence: 5") }
        let found = errors(result)
        #expect(found.contains { $0.hasPrefix("rules/meals.yaml:") && $0.contains("unknown key 'tolerence'") }, "\(found)")
    }

    @Test func formulaSyntaxErrorPointsIntoTheFile() {
        let result = load(editing: "rules/indexes.yaml") { $0.replacingOccurrences(of: "tdee: \"bmr * activity_multiplier\"", with: "tdee: \"bmr * \"") }
        #expect(errors(result).contains { $0.hasPrefix("rules/indexes.yaml:") }, "\(errors(result))")
    }

    @Test func formulaWithAnUnknownNameIsAnError() {
        let result = load(editing: "rules/indexes.yaml") { $0.replacingOccurrences(of: "tdee: \"bmr * activity_multiplier\"", with: "tdee: \"bmr * activity\"") }
        #expect(errors(result).contains { $0.hasPrefix("rules/indexes.yaml:") && $0.contains("activity") }, "\(errors(result))")
    }

    @Test func activityTableGapIsALoadError() {
        let result = load(editing: "rules/activity-multipliers.yaml") { $0.replacingOccurrences(of: "  5: 1.725\n", with: "") }
        #expect(errors(result).contains { $0.contains("rules/activity-multipliers.yaml") && $0.contains("missing required key 'by_training_days.5'") }, "\(errors(result))")
    }

    @Test func goalWithoutACalorieRuleIsAnError() {
        let result = load(editing: "rules/goals.yaml") { $0 + "  - id: endurance\n    description: Run longer\n" }
        #expect(errors(result).contains { $0.contains("no calorie rule for goal 'endurance'") }, "\(errors(result))")
    }

    @Test func duplicateAliasIsAnError() {
        let result = load(editing: "rules/goals.yaml") { $0.replacingOccurrences(of: "aliases: []", with: "aliases: [cut]") }
        #expect(errors(result).contains { $0.contains("'cut'") }, "\(errors(result))")
    }

    @Test func ingredientTagOutsideTheVocabularyIsAnError() {
        let result = load(editing: "catalogs/ingredients.yaml") { $0.replacingOccurrences(of: "contains: [meat]", with: "contains: [mear]") }
        #expect(errors(result).contains { $0.contains("tag 'mear'") }, "\(errors(result))")
    }

    @Test func ingredientMacrosAreChecked() {
        let result = load(editing: "catalogs/ingredients.yaml") { $0.replacingOccurrences(of: "{p: 31.02, c: 0, f: 3.57", with: "{p: 81.02, c: 0, f: 33.57") }
        #expect(errors(result).contains { $0.contains("chicken_breast") && $0.contains("more than 100 g") }, "\(errors(result))")
    }

    @Test func aPointOutsideItsRangeFailsAtPlanTimeWithItsLocation() throws {
        let result = load(editing: "rules/nutrition.yaml") { $0.replacingOccurrences(of: "    point: \"mid\"\n  strength:", with: "    point: \"1.2\"\n  strength:") }
        let rules = try NutritionRuleSet(try result.get())
        let profile = try rules.profileDecoder.decode(text: "sex: male\nschedule_days: 3\ngoal: recomp\n", file: "p.yaml")
        #expect {
            try rules.planNutrition(profile)
        } throws: { error in
            guard let error = error as? RuleEvaluationError else { return false }
            return error.description.hasPrefix("rules/nutrition.yaml:") && error.message.contains("outside the range 0.95-1.05")
        }
    }

    @Test func giveWayMustEndWithKcal() {
        let result = load(editing: "rules/nutrition.yaml") { $0.replacingOccurrences(of: "give_way: [protein, fat, kcal]", with: "give_way: [protein, fat]") }
        #expect(errors(result).contains { $0.contains("give_way must end with kcal") }, "\(errors(result))")
    }
}
