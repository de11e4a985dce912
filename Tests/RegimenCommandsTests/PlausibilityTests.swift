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

    /// A calorie-burn formula whose burn per kg and hour leaves `burn.kcal_per_kg_hour` anywhere
    /// on the file's own limits fails check at the formula; before, `* -1` passed check and every
    /// burn silently became 0 kcal (rounding clamps at 0), `* 1e18` logged 10^20 kcal.
    @Test("a burn formula pushed out of range fails check at its line", arguments: [
        ("kcal: \"minutes * met * 3.5 * weight_kg / 200.0\"", "kcal: \"minutes * met * 3.5 * weight_kg / 200.0 * 1000000000000000000.0\""),
        ("kcal: \"minutes * met * 3.5 * weight_kg / 200.0\"", "kcal: \"-1.0 * minutes * met * 3.5 * weight_kg / 200.0\""),
        ("kcal: \"minutes * met * weight_kg / 200.0\"", "kcal: \"minutes * met * weight_kg / 20000.0\""),
    ])
    func mutatedBurnFormulaFailsCheck(original: String, mutated: String) throws {
        let scratch = try shippedRules(editing: ["rules/calorie-burn.yaml": (original, mutated)])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 1, "\(check.standardError)")
        let text = try String(contentsOf: scratch.url.appendingPathComponent("rules/calorie-burn.yaml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(mutated) }) + 1
        #expect(check.standardError.contains("calorie-burn.yaml:\(line):"), "\(check.standardError)")
        #expect(check.standardError.contains("kcal per kg and hour"), "\(check.standardError)")
        #expect(check.standardError.contains("MET and"), "names the grid point: \(check.standardError)")
    }

    /// A nutrition range whose ends leave their plausible range fails check at the range: a
    /// misplaced decimal point (`8.0-9.0` for `0.80-0.90`) would plan nine times the TDEE, inside
    /// the range the coach wrote and so never refused at plan time.
    @Test("a nutrition range out of bounds fails check at its line", arguments: [
        ("multiplier: 0.80-0.90", "multiplier: 8.0-9.0"),
        ("multiplier: 1.05-1.10", "multiplier: 1.05-11.0"),
        ("range: 1.6-2.2", "range: 16-22"),
        ("range: 0.6-1.0", "range: 0.06-1.0"),
        ("range: 2.0-2.8", "range: 2.0-28"),
    ])
    func mutatedNutritionRangeFailsCheck(original: String, mutated: String) throws {
        let scratch = try shippedRules(editing: ["rules/nutrition.yaml": (original, mutated)])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 1, "\(check.standardError)")
        let text = try String(contentsOf: scratch.url.appendingPathComponent("rules/nutrition.yaml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(mutated) }) + 1
        #expect(check.standardError.contains("nutrition.yaml:\(line):"), "\(check.standardError)")
        #expect(check.standardError.contains("rules/plausibility.yaml"), "\(check.standardError)")
    }

    /// A calorie floor is a target some client gets: one outside the plan's kcal range (a typo of
    /// 400 for 1200, under the 1,000 kcal no guideline plans below) fails check at the floor;
    /// before, check passed and a small woman cutting was planned 1,063 kcal again.
    @Test func aCalorieFloorOutsideThePlansRangeFailsCheckAtTheFloor() throws {
        let scratch = try shippedRules(editing: ["rules/nutrition.yaml": ("absolute_kcal: {female: 1200, male: 1500}", "absolute_kcal: {female: 400, male: 1500}")])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 1, "\(check.standardError)")
        let text = try String(contentsOf: scratch.url.appendingPathComponent("rules/nutrition.yaml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("female: 400,") }) + 1
        #expect(check.standardError.contains("nutrition.yaml:\(line):"), "\(check.standardError)")
        #expect(check.standardError.contains("absolute_kcal.female is 400"), "\(check.standardError)")
    }

    /// Adapt writes loads up to `plan.load_kg` and reads plans up to 1,000 kg: a wider range would
    /// have adapt write a plan it then refuses, so check refuses it at the range.
    @Test func aLoadRangePastWhatAPlanHoldsFailsCheck() throws {
        let scratch = try shippedRules(editing: ["rules/plausibility.yaml": ("  load_kg: [0, 1000]", "  load_kg: [0, 5000]")])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 1, "\(check.standardError)")
        let text = try String(contentsOf: scratch.url.appendingPathComponent("rules/plausibility.yaml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("  load_kg:") }) + 1
        #expect(check.standardError.contains("plausibility.yaml:\(line):"), "\(check.standardError)")
    }

    /// A plan whose day leaves the plan ranges (here carbohydrate narrowed to 0–200 g) is refused
    /// as the rules' error at the calorie rule, exit 1, never printed.
    @Test func aPlanOutsideThePlanRangesIsRefusedAtTheCalorieRule() throws {
        let scratch = try shippedRules(editing: ["rules/plausibility.yaml": ("  carb_g: [0, 1600]", "  carb_g: [0, 200]")])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 0, "the ranges themselves are well formed: \(check.standardError)")
        try Data("sex: male\nschedule_days: 3\nage: 30\nweight_kg: 120\nheight_cm: 190\ngoal: lean_mass\n".utf8).write(to: scratch.url.appendingPathComponent("p.yaml"))
        let plan = runRegimen(["plan", "p.yaml", "--rules", scratch.path("rules"), "--catalogs", scratch.path("catalogs")], in: scratch.url)
        #expect(plan.status == 1, "\(plan.standardError)")
        #expect(plan.standardOutput.isEmpty)
        #expect(plan.standardError.contains("nutrition.yaml:"), "\(plan.standardError)")
        #expect(plan.standardError.contains("carb_g"), "\(plan.standardError)")
    }

    /// The ranges are a rule file of their own kind: a range written backwards or a missing
    /// section is an error at its place in rules/plausibility.yaml.
    @Test func aBrokenPlausibilityFileIsLocated() throws {
        let scratch = try shippedRules(editing: ["rules/plausibility.yaml": ("  tdee: [800, 9000]", "  tdee: [9000, 800]")])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 1, "\(check.standardError)")
        let text = try String(contentsOf: scratch.url.appendingPathComponent("rules/plausibility.yaml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("  tdee:") }) + 1
        #expect(check.standardError.contains("plausibility.yaml:\(line):"), "\(check.standardError)")
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
