import Foundation
import RegimenCoaching
import RegimenLanguage
import RegimenRules
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
        let declared = IndexRules.expressionScopes[0].names
        #expect(Array(rules.indexes.slotNames.suffix(declared.count)) == declared)
        #expect(IndexRules.variables == declared)
    }
}
