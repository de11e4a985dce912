@testable import RegimenLanguage
import Testing
@testable import RegimenRules
import Foundation
import OrderedCollections

@Suite struct DecisionTableTests {
    /// Decodes the table under `table:` with `then:` as a plain value.
    func decode(_ yaml: String, expectedInputs: [String]? = nil, extra: [String] = []) -> (table: DecisionTable<Value>?, diagnostics: [String]) {
        guard let document = YAMLReader.read(yaml, file: "t.yaml").document, let node = document["table"] else { return (nil, ["unreadable"]) }
        let context = DecodingContext()
        let table = DecisionTable<Value>.decode(from: node, named: "split", in: context, expectedInputs: expectedInputs, extraVariables: extra) { node, path in
            context.decode(node, as: Value.self, at: path)
        }
        return (table, context.diagnostics.sorted(by: Diagnostic.sortKey).map(\.description))
    }

    static let splitTable = """
    table:
      hit_policy: unique
      inputs:
        days: 1-7
      rows:
        - id: full_body
          when: { days: 1 }
          then: FB
        - when: { days: 2 }
          then: UL
        - when: { days: 3 }
          then: PPL
        - when: { days: [4, 5] }
          then: ULUL
        - when: "days >= 6"
          then: PPLx2
    """

    @Test(arguments: [(1, "FB"), (2, "UL"), (3, "PPL"), (4, "ULUL"), (5, "ULUL"), (6, "PPLx2"), (7, "PPLx2")])
    func splitByDays(days: Int64, split: String) throws {
        let result = decode(Self.splitTable, expectedInputs: ["days"])
        #expect(result.diagnostics.isEmpty)
        let table = try #require(result.table)
        #expect(try table.evaluate(["days": .int(days)]).output == .string(split))
    }

    @Test func rowsAreNamedForExplanations() throws {
        let table = try #require(decode(Self.splitTable).table)
        #expect(try table.evaluate(["days": .int(1)]).label == "row 'full_body'")
        #expect(try table.evaluate(["days": .int(4)]).label == "rows[3]")
    }

    @Test func gapInAFiniteDomainIsALoadError() {
        let yaml = Self.splitTable.replacingOccurrences(of: "\"days >= 6\"", with: "\"days == 6\"")
        #expect(decode(yaml).diagnostics == ["t.yaml:6:5: error: table 'split': no row covers days = 7"])
    }

    @Test func twoMatchingRowsUnderUniqueIsAnError() {
        let yaml = Self.splitTable.replacingOccurrences(of: "days: [4, 5]", with: "days: 3-5")
        #expect(decode(yaml).diagnostics == [
            "t.yaml:13:7: error: table 'split': rows[2] and rows[3] both match days = 3 (hit policy 'unique')\n  note: rows[2] is at t.yaml:11:7",
        ])
    }

    @Test func firstPolicyTakesTheFirstAndWarnsAboutUnreachableRows() throws {
        let yaml = """
        table:
          hit_policy: first
          inputs:
            goal: [fat_loss, hypertrophy, strength]
            days: 1-3
          rows:
            - when: { goal: strength, days: ">= 2" }
              then: heavy
            - when: { goal: strength, days: 3 }
              then: never
            - when: {}
              then: default
        """
        let result = decode(yaml)
        #expect(result.diagnostics == [
            "t.yaml:9:7: warning: table 'split': rows[1] is never used: earlier rows match every input it matches",
        ])
        let table = try #require(result.table)
        #expect(try table.evaluate(["goal": .string("strength"), "days": .int(3)]).output == .string("heavy"))
        #expect(try table.evaluate(["goal": .string("strength"), "days": .int(1)]).output == .string("default"))
    }

    @Test func columnMistakesAreReportedWithSuggestions() {
        let yaml = """
        table:
          hit_policy: unique
          inputs:
            goal: [fat_loss, hypertrophy, strength]
            days: 1-7
          rows:
            - when: { goal: fatloss, dayz: 3 }
              then: a
            - when: { days: 9 }
              then: b
            - when: { goal: "> 2" }
              then: c
            - when: "days > 3 && gaol == 'x'"
              then: d
            - when: { days: 5-3 }
              then: e
        """
        #expect(decode(yaml).diagnostics == [
            "t.yaml:7:21: error: table 'split' rows[0]: 'when.goal' is 'fatloss', which input 'goal' never takes ('fat_loss', 'hypertrophy', 'strength') (did you mean 'fat_loss'?)",
            "t.yaml:7:30: error: table 'split' rows[0]: 'when' names unknown input 'dayz' (did you mean 'days'?)",
            "t.yaml:9:21: error: table 'split' rows[1]: 'when.days' is 9, which input 'days' never takes (1-7)",
            "t.yaml:11:21: error: table 'split' rows[2]: 'when.goal' compares with '>' but input 'goal' is not numeric",
            "t.yaml:13:26: error: table 'split' rows[3]: unknown name 'gaol'",
            "t.yaml:15:23: error: table 'split' rows[4]: 'when.days': range runs backwards: 5 is above 3",
        ])
    }

    @Test func hitPolicyIsRequiredAndInputsMustMatchTheCode() {
        let yaml = """
        table:
          inputs:
            days: 1-7
            goal: string
          rows:
            - then: x
        """
        #expect(decode(yaml, expectedInputs: ["days", "experience"]).diagnostics == [
            "t.yaml:2:3: error: table 'split': missing required key 'hit_policy'",
            "t.yaml:3:5: error: table 'split': 'inputs' must declare 'experience'",
            "t.yaml:4:5: error: table 'split': unknown input 'goal'",
        ])
    }

    @Test func unboundedInputsAreCheckedAtEvaluation() throws {
        let yaml = """
        table:
          hit_policy: unique
          inputs:
            readiness: number
          rows:
            - when: { readiness: "<= 2" }
              then: deload
            - when: { readiness: 2-4 }
              then: hold
        """
        let result = decode(yaml)
        #expect(result.diagnostics.isEmpty, "no coverage check over an unbounded input")
        let table = try #require(result.table)
        #expect(try table.evaluate(["readiness": .float(3.5)]).output == .string("hold"))
        #expect(throws: DecisionTable<Value>.Failure(message: "table 'split': rows[0] and rows[1] both match readiness = 2")) {
            try table.evaluate(["readiness": .int(2)])
        }
        #expect(throws: DecisionTable<Value>.Failure(message: "table 'split': no row matches readiness = 4.5")) {
            try table.evaluate(["readiness": .float(4.5)])
        }
        #expect(throws: DecisionTable<Value>.Failure(message: "table 'split': no value for input 'readiness'")) {
            try table.evaluate([:])
        }
    }

    @Test func expressionRowsMayReadExtraVariables() throws {
        let yaml = """
        table:
          hit_policy: first
          inputs:
            days: 1-7
          rows:
            - when: "days >= 6 && profile.experience == 'advanced'"
              then: PPLx2
            - then: FB
        """
        let table = try #require(decode(yaml, extra: ["profile"]).table)
        #expect(try table.evaluate(["days": .int(6), "profile": .map(["experience": .string("advanced")])]).output == .string("PPLx2"))
        #expect(try table.evaluate(["days": .int(6), "profile": .map(["experience": .string("novice")])]).output == .string("FB"))
    }

    @Test func aConditionThatFailsAtEvaluationIsAFailureNotTheNextRow() throws {
        let yaml = """
        table:
          hit_policy: first
          inputs:
            days: 1-7
          rows:
            - when: "days >= 6 && profile.experience == 'advanced'"
              then: PPLx2
            - then: FB
        """
        let table = try #require(decode(yaml, extra: ["profile"]).table)
        // `profile` without `experience`: the first row cannot say; the second must not answer for it.
        #expect(throws: DecisionTable<Value>.Failure.self) { try table.evaluate(["days": .int(6), "profile": .map([:])]) }
        #expect(try table.evaluate(["days": .int(2), "profile": .map([:])]).output == .string("FB"), "a false && stops before the failing operand")
    }

    @Test func aConditionOfAKnownNonBooleanTypeIsALoadErrorEvenOverAnUnboundedInput() {
        let yaml = """
        table:
          hit_policy: first
          inputs:
            readiness: number
          rows:
            - when: "readiness * 2"
              then: deload
            - then: hold
        """
        #expect(decode(yaml).diagnostics == ["t.yaml:6:13: error: table 'split' rows[0]: 'when' gives number, not true or false"])
    }

    @Test func inputsAreTypedByTheirDomains() {
        let yaml = """
        table:
          hit_policy: first
          inputs:
            days: 1-7
          rows:
            - when: "days <= 'three'"
              then: short
            - then: long
        """
        #expect(decode(yaml).diagnostics.first?.hasPrefix("t.yaml:6:14: error: ") == true, "\(decode(yaml).diagnostics)")
        #expect(decode(yaml).diagnostics.first?.contains("cannot compare int <= string") == true)
    }

    @Test func resolvingAtLoadReportsUnboundAndUndeclaredInputs() throws {
        guard let document = YAMLReader.read("table:\n  rows:\n    - when: days > 3\n      out: x\n    - when: 'true'\n      out: y\n", file: "w.yaml").document,
              var map = MappingDecoder(document, path: DecodingPath(subject: "w"), context: DecodingContext()) else {
            Issue.record("unreadable")
            return
        }
        let context = map.context
        let table = try #require(DecisionTable<String>.decode(
            "table", in: &map, named: "w.table", inputs: [VariableDeclaration("days", .int, "days")], defaultPolicy: .first
        ) { row in row.required("out", as: String.self) })
        #expect(context.diagnostics.isEmpty)
        let rows = table.rows(resolvedOver: [["days": .int(5)], ["days": .int(1)], [:], ["days": .int(1), "weeks": .int(2)]], describe: { "\($0)" }, context: context)
        #expect(rows.map { $0?.output } == ["x", "y", nil, nil])
        #expect(context.diagnostics.map(\.message) == ["w.table: no value for input 'days'", "w.table: 'weeks' is bound but no declared input"])
    }
}
