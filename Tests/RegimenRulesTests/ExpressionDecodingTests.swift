@testable import RegimenLanguage
import Testing
@testable import RegimenRules
import OrderedCollections

@Suite struct ExpressionDecodingTests {
    let loader = RuleSetLoader(kinds: [ConditionRules.self])

    @Test func compilesAndEvaluatesWithSharedFunctions() throws {
        let ruleSet = try loader.load(files: [
            ("rules/functions.yaml", """
            kind: functions
            version: 1
            functions:
              - name: bmi
                params: [weight_kg, height_cm]
                let:
                  metres: height_cm / 100.0
                return: weight_kg / (metres * metres)
            """),
            ("rules/conditions.yaml", """
            kind: condition_rules
            version: 1
            rules:
              - id: heavy
                when: bmi(profile.weight_kg, profile.height_cm) >= 30
            """),
        ]).get()
        let rule = try #require(ruleSet.first(ConditionRules.self)?.entries.first)
        let heavy = Value.map(["weight_kg": .int(100), "height_cm": .int(170)])
        let light = Value.map(["weight_kg": .int(60), "height_cm": .int(170)])
        #expect(try rule.when.evaluate(["profile": heavy]) == .bool(true))
        #expect(try rule.when.evaluate(["profile": light]) == .bool(false))
        #expect(ruleSet.functions.names == ["bmi"])
    }

    @Test func expressionErrorsPointInsideTheScalar() {
        let result = loader.load(files: [("rules/c.yaml", """
            kind: condition_rules
            version: 1
            rules:
              - id: plain
                when: profile.age > 30 && proflie.sleep < 6
              - id: quoted
                when: "profile.goal == \\"cut\\" && bogus(1)"
              - id: folded
                when: >
                  profile.age > 30 &&
                  profile.sleep <
              - id: literal
                when: |
                  profile.age > 30
                    && (profile.sleep < 6 ||)
            """)])
        #expect(result.diagnostics.map(\.description) == [
            "rules/c.yaml:5:31: error: rule 'plain': unknown name 'proflie'\n  note: did you mean 'profile'?",
            "rules/c.yaml:7:39: error: rule 'quoted': unknown function 'bogus'",
            "rules/c.yaml:11:22: error: rule 'folded': expected an expression, found end of input",
            "rules/c.yaml:15:33: error: rule 'literal': expected an expression, found ')'",
        ])
    }

    @Test func functionErrorsAreLocatedAndDoNotCascade() {
        let result = loader.load(files: [
            ("rules/f.yaml", """
            kind: functions
            version: 1
            functions:
              - name: good
                params: [x]
                return: x * 2
              - name: bad
                params: [x]
                return: x +* 2
              - name: 9lives
                return: "1"
            """),
            ("rules/c.yaml", "kind: condition_rules\nversion: 1\nrules:\n  - id: a\n    when: good(profile.n) > 2\n"),
        ])
        #expect(result.diagnostics.map(\.description) == [
            "rules/f.yaml:9:16: error: function 'bad': expected an expression, found '*'",
            "rules/f.yaml:10:11: error: function '9lives': 'name' must be a name of letters, digits and '_' not starting with a digit, not '9lives'",
        ])
    }
}
