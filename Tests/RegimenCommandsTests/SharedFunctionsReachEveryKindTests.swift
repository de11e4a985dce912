import Foundation
import RegimenTestSupport
import Testing

/// A helper declared once in a `kind: functions` file is callable from every rule expression:
/// the coaching rules, the tracking formulas and the training when-tables alike.
struct SharedFunctionsReachEveryKindTests {
    static let helpers = """
    kind: functions
    version: 1
    functions:
      - name: acsm_kcal
        params: [minutes, met, kg]
        return: "minutes * met * 3.5 * kg / 200.0"
      - name: builds_muscle
        params: [g]
        return: "g == 'lean_mass' || g == 'recomp'"
    """

    static func rules(editing edits: [String: (String, String)]) throws -> ScratchFolder {
        try shippedRules(adding: ["rules/helpers.yaml": helpers], editing: edits)
    }

    @Test("a tracking formula calls a shared helper and gives the same burn")
    func trackingFormulaCallsHelper() throws {
        let scratch = try Self.rules(editing: [
            "rules/calorie-burn.yaml": (#"kcal: "minutes * met * 3.5 * weight_kg / 200.0""#, #"kcal: "acsm_kcal(minutes, met, weight_kg)""#),
        ])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 0, "\(check.standardError)")
        let arguments = ["burn", "running", "--minutes", "30", "--intensity", "moderate"]
        let edited = runRegimen(arguments + ["--rules", scratch.path("rules")], in: scratch.url)
        let shipped = runRegimen(arguments, in: RepositoryRoot.url)
        #expect(edited.status == 0, "\(edited.standardError)")
        #expect(edited.standardOutput == shipped.standardOutput)
    }

    @Test("a training when-table calls a shared helper and gives the same plan")
    func whenTableCallsHelper() throws {
        let scratch = try Self.rules(editing: [
            "rules/training-goals.yaml": ("- when: goal == 'lean_mass' || goal == 'recomp'", "- when: builds_muscle(goal)"),
        ])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 0, "\(check.standardError)")
        let edited = runRegimen(["plan", "examples/complete.yaml", "--format", "json", "--rules", scratch.path("rules")], in: RepositoryRoot.url)
        let shipped = runRegimen(["plan", "examples/complete.yaml", "--format", "json"], in: RepositoryRoot.url)
        #expect(edited.status == 0, "\(edited.standardError)")
        #expect(edited.standardOutput == shipped.standardOutput)
    }
}
