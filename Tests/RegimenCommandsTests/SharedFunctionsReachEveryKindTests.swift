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

    /// The shipped rules and catalogs in a scratch folder, with `edits` applied (file → (old, new)).
    static func rules(editing edits: [String: (String, String)]) throws -> ScratchFolder {
        let scratch = try ScratchFolder(["rules/helpers.yaml": helpers])
        for folder in ["rules", "catalogs"] {
            let source = RepositoryRoot.appending(folder)
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
                let target = scratch.url.appendingPathComponent(folder).appendingPathComponent(name)
                try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target)
            }
        }
        for (file, edit) in edits {
            let url = scratch.url.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(edit.0), "\(file) no longer holds \(edit.0)")
            try text.replacingOccurrences(of: edit.0, with: edit.1).write(to: url, atomically: true, encoding: .utf8)
        }
        return scratch
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
