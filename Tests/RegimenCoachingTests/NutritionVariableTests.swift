import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// The nutrition points and the meal expressions compile against the typed variables
/// `regimen explain-kind nutrition` and `regimen explain-kind meals` list, and the planner binds
/// exactly those: a type error fails the load at its character instead of failing (or silently
/// giving null) for each person at plan time.
@Suite struct NutritionVariableTests {
    let files = RuleFileTests()

    /// The `file:line:col` of `needle` in `path`'s text after `original` became `broken`.
    static func location(of needle: String, in path: String, replacing original: String, with broken: String) throws -> String {
        let text = try #require(RuleFileTests.files.first { $0.path == path }?.text.replacingOccurrences(of: original, with: broken))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lineIndex = try #require(lines.firstIndex { $0.contains(needle) })
        let line = lines[lineIndex]
        let column = try #require(line.range(of: needle)).lowerBound
        return "\(path):\(lineIndex + 1):\(line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: column) + 1)"
    }

    @Test(arguments: [
        ("rules/nutrition.yaml", "point: \"goal == 'fat_loss' ? low : 0.8\"", "point: \"goal == 'fat_loss' ? low : weight_kg * sex\"", "weight_kg * sex",
         "unsupported operation: number * string"),
        ("rules/nutrition.yaml", "bmi != null && bmi >= 30 ? low : mid", "bmi != null && bmi >= 'obese' ? low : mid", "bmi >= 'obese'",
         "cannot compare number >= string"),
        ("rules/meals.yaml", "meals_per_day_default: \"protein_g / 3.0 > 40 ? 4 : 3\"", "meals_per_day_default: \"protein_g * 'x' > 40 ? 4 : 3\"", "protein_g * 'x'",
         "unsupported operation: number * string"),
        ("rules/meals.yaml", "veg_grams: \"meal_kcal < 400 ?", "veg_grams: \"meal_kcal < 'small' ?", "meal_kcal < 'small'",
         "cannot compare number < string"),
    ])
    func aTypeErrorIsALoadErrorAtItsCharacter(path: String, original: String, broken: String, at needle: String, says: String) throws {
        let result = files.load(editing: path) { text in
            #expect(text.contains(original), "\(path) no longer holds \(original)")
            return text.replacingOccurrences(of: original, with: broken)
        }
        let location = try Self.location(of: needle, in: path, replacing: original, with: broken)
        let found = files.errors(result)
        #expect(found.contains { $0.hasPrefix("\(location): error:") && $0.contains(says) }, "\(found)")
    }

    /// Profiles that reach every branch of the bindings: with and without experience, body fat,
    /// measured height and weight (BMI null when assumed), meals per day, an exact age or a minor.
    static let profiles = [
        "sex: male\nschedule_days: 4\nage: 30\nweight_kg: 82\nheight_cm: 180\ngoal: lean_mass\nexperience: novice\n",
        "sex: female\nschedule_days: 3\nage_range: \"<18\"\ngoal: fat_loss\nmeals_per_day: 4\n",
        "sex: female\nschedule_days: 5\nage_range: \"35-44\"\nweight_kg: 110\nheight_cm: 165\nbodyfat_pct: 38\ngoal: fat_loss\nexperience: advanced\n",
        "sex: male\nschedule_days: 2\nage_range: \">60\"\nweight_kg: 64\ngoal: recomp\nexperience: intermediate\nmeals_per_day: 5\n",
        "sex: male\nschedule_days: 6\nage: 24\nweight_kg: 95\nheight_cm: 190\nbodyfat_pct: 14\ngoal: strength\n",
    ]

    @Test func thePlannerBindsExactlyTheDeclaredVariablesWithTheirTypes() throws {
        let rules = try TestRules.rules()
        let recorder = BindingRecorder()
        try BindingRecorder.$current.withValue(recorder) {
            for yaml in Self.profiles {
                let profile = try TestRules.profile(yaml)
                let indexes = try IndexCalculator(rules: rules).recalculate(profile)
                _ = try NutritionPlanner(rules: rules).plan(profile, indexes: indexes)
            }
        }
        func at(_ expressions: [CompiledExpression]) -> Set<RegimenLanguage.SourceLocation> { Set(expressions.compactMap(\.source.lineOrigins.first)) }
        let nutrition = rules.nutrition
        let indexes = rules.indexes
        let mismatches = recorder.mismatches([
            (NutritionVariables.pointScope, at(nutrition.calories.values.map(\.point) + [nutrition.proteinPerKg.point, nutrition.proteinBasis.leanMass.point, nutrition.fatPerKg.point])),
            (MealVariables.mealsPerDayScope, at([rules.meals.mealsPerDayDefault])),
            (MealVariables.vegGramsScope, at([rules.meals.vegGrams])),
            (IndexVariables.formulasScope, at(indexes.bmrMethods.flatMap { [$0.when, $0.formula] } + [indexes.leanBodyMass, indexes.tdee, indexes.bmi, indexes.whtr, indexes.ffmi])),
        ])
        #expect(mismatches == [], "\(mismatches.joined(separator: "\n"))")
    }

    @Test func theKindsDeclareWhatExplainKindAndTheHeadersPrint() {
        #expect(NutritionFile.expressionScopes == [NutritionVariables.pointScope])
        #expect(NutritionFile.pointVariables == NutritionVariables.pointScope.names)
        #expect(MealsFile.expressionScopes == [MealVariables.mealsPerDayScope, MealVariables.vegGramsScope])
    }
}
