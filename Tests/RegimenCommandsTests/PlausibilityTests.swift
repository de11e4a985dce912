import Foundation
import RegimenTestSupport
import Testing

/// Issue 33, item 3: a coach formula whose result leaves its plausible range fails `check` at the
/// formula's line, naming the first grid profile that shows it; a client whose measurements
/// cannot belong together is warned, naming the fields; and no plan carries an absurd index.
@Suite("Plausible outputs")
struct PlausibilityTests {
    static let repository = RepositoryRoot.url

    @Test("a formula pushed out of range fails check at its line", arguments: [
        ("tdee: \"bmr * activity_multiplier\"", "tdee: \"bmr * 1000000000000000000.0\"", "tdee:"),
        ("tdee: \"bmr * activity_multiplier\"", "tdee: \"bmr * -1\"", "tdee:"),
        ("bmi: \"weight_kg / math.pow(height_cm / 100.0, 2)\"", "bmi: \"-1.0\"", "bmi:"),
        ("ffmi: \"lbm_kg / math.pow(height_cm / 100.0, 2)\"", "ffmi: \"lbm_kg / math.pow(height_cm, 2)\"", "ffmi:"),
        ("formula: \"370 + 21.6 * lbm_kg\"", "formula: \"370 + 216 * lbm_kg\"", "      formula: \"370"),
    ])
    func mutatedFormulaFailsCheck(original: String, mutated: String, linePrefix: String) throws {
        let scratch = try shippedRules(editing: ["rules/indexes.yaml": (original, mutated)])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 1, "\(check.standardError)")
        let text = try String(contentsOf: scratch.url.appendingPathComponent("rules/indexes.yaml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(linePrefix) && $0.contains(mutated.split(separator: "\"")[1]) }) + 1
        #expect(check.standardError.contains("indexes.yaml:\(line):"), "\(check.standardError)")
        #expect(check.standardError.contains("the grid profile"))
        #expect(check.standardError.contains("plausib"))
    }

    @Test func shippedFormulasStayInRangeOverTheGrid() {
        let check = runRegimen(["check"], in: Self.repository)
        #expect(check.status == 0, "\(check.standardError)")
    }

    @Test func impossibleMeasurementsAreWarnedNamingTheFields() throws {
        let scratch = try ScratchDirectory(["p.yaml": "sex: male\nschedule_days: 3\nage: 30\nheight_cm: 120\nweight_kg: 250\nbodyfat_pct: 5\n"])
        defer { scratch.cleanUp() }
        let result = runRegimen(["indexes", scratch.url.appendingPathComponent("p.yaml").path, "--format", "json"], in: Self.repository)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("implausible combination: height_cm 120, weight_kg 250, bodyfat_pct 5"), "\(result.standardOutput)")
    }
}
