import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// The index formulas compile against the typed variables `regimen explain-kind indexes` lists,
/// so a formula with a type error fails the load at its character instead of failing (or
/// silently giving null) for each person at run time.
@Suite struct IndexVariableTests {
    let files = RuleFileTests()

    @Test(arguments: [
        ("tdee: \"bmr * activity_multiplier\"", "tdee: \"bmr * sex\"", "bmr * sex", "unsupported operation: number * string"),
        ("when: \"bodyfat_pct != null && !('weight_kg' in assumed)\"", "when: \"bodyfat_pct != null && age > 'adult'\"", "age > 'adult'", "cannot compare int > string"),
    ])
    func aTypeErrorInAFormulaIsALoadErrorAtItsCharacter(original: String, broken: String, at needle: String, says: String) throws {
        let result = files.load(editing: "rules/indexes.yaml") { $0.replacingOccurrences(of: original, with: broken) }
        let text = try #require(RuleFileTests.files.first { $0.path == "rules/indexes.yaml" }?.text.replacingOccurrences(of: original, with: broken))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lineIndex = try #require(lines.firstIndex { $0.contains(needle) })
        let line = lines[lineIndex]
        let column = try #require(line.range(of: needle)).lowerBound
        let location = "rules/indexes.yaml:\(lineIndex + 1):\(line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: column) + 1)"
        let found = files.errors(result)
        #expect(found.contains { $0.hasPrefix("\(location): error:") && $0.contains(says) }, "\(found)")
    }

    @Test func theFormulasAreCompiledAgainstExactlyTheDeclaredVariables() throws {
        let result = RuleSetLoader(kinds: NutritionRuleSet.kinds, otherModulesKinds: .anyUnregistered).load(files: RuleFileTests.files)
        let rules = try NutritionRuleSet(try result.get())
        let declared = IndexesFile.expressionScopes[0].names
        #expect(Array(rules.indexes.slotNames.suffix(declared.count)) == declared)
        #expect(IndexesFile.variables == declared)
    }

    /// Profiles over every branch of the calculator: exact age, age range or neither; measured
    /// or assumed height and weight; with and without body fat, waist and overrides.
    static let profiles = [
        "sex: male\nschedule_days: 4\nage: 30\nweight_kg: 82\nheight_cm: 180\nbodyfat_pct: 15\nwaist_cm: 84\n",
        "sex: female\nschedule_days: 3\nage_range: \"<18\"\n",
        "sex: female\nschedule_days: 7\nage_range: \"35-44\"\nweight_kg: 110\nheight_cm: 165\nbodyfat_pct: 38\n",
        "sex: male\nschedule_days: 2\nweight_kg: 64\noverrides: {BMR: 1500}\n",
        "sex: male\nschedule_days: 6\nage: 24\nweight_kg: 95\nheight_cm: 190\noverrides: {TDEE: 3100, BMI: 26}\n",
    ]

    @Test func theCalculatorBindsExactlyTheDeclaredVariablesWithTheirTypes() throws {
        let rules = try TestRules.rules()
        let calculator = IndexCalculator(rules: rules)
        let recorder = BindingRecorder()
        try BindingRecorder.$current.withValue(recorder) {
            for yaml in Self.profiles { _ = try calculator.recalculate(try TestRules.profile(yaml)) }
            for reps in [1, 5, 12] { _ = try calculator.oneRepMax(load: 100, reps: reps) }
        }
        let indexes = rules.indexes
        func at(_ expressions: [CompiledExpression]) -> Set<RegimenLanguage.SourceLocation> { Set(expressions.compactMap(\.source.lineOrigins.first)) }
        let mismatches = recorder.mismatches([
            (IndexVariables.formulasScope, at(indexes.bmrMethods.flatMap { [$0.when, $0.formula] } + [indexes.leanBodyMass, indexes.tdee, indexes.bmi, indexes.whtr, indexes.ffmi])),
            (IndexVariables.oneRepMaxScope, at([indexes.oneRepMax])),
        ])
        #expect(mismatches == [], "\(mismatches.joined(separator: "\n"))")
    }
}
