@testable import RegimenCoaching
import Testing
@testable import RegimenLanguage

/// Reference cases computed by hand from the published formulas (Mifflin–St Jeor, Katch–McArdle,
/// Epley; docs/requirements.md#body-indexes).
@Suite struct IndexFormulaTests {
    func indexes(_ yaml: String) throws -> IndexReport {
        try TestRules.rules().recalculateIndexes(try TestRules.profile(yaml))
    }

    @Test func mifflinStJeorMale() throws {
        // 10·80 + 6.25·180 − 5·29 + 5 = 1785; 4 days → ×1.55 = 2766.75
        let report = try indexes("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\n")
        #expect(report.method == "mifflin")
        #expect(abs(report.bmr - 1785) < 1e-9)
        #expect(abs(report.tdee - 2766.75) < 1e-9)
        #expect(report.ageUsed == 29 && report.ageSource == "age_range")
    }

    @Test func mifflinStJeorFemale() throws {
        // 10·60 + 6.25·165 − 5·39 − 161 = 1275.25; 2 days → ×1.375 = 1753.46875
        let report = try indexes("sex: female\nschedule_days: 2\nweight_kg: 60\nheight_cm: 165\nage_range: \"35–44\"\n")
        #expect(abs(report.bmr - 1275.25) < 1e-9)
        #expect(abs(report.tdee - 1753.46875) < 1e-9)
    }

    @Test func katchMcArdleWhenBodyFatIsGiven() throws {
        // LBM = 80 · (1 − 0.20) = 64; 370 + 21.6·64 = 1752.4; 6 days → ×1.725 = 3022.89
        let report = try indexes("sex: male\nschedule_days: 6\nweight_kg: 80\nheight_cm: 180\nage: 30\nbodyfat_pct: 20\n")
        #expect(report.method == "katch")
        #expect(abs(report.bmr - 1752.4) < 1e-9)
        #expect(abs(report.tdee - 1752.4 * 1.725) < 1e-9)
        #expect(abs((report.leanBodyMassKg ?? 0) - 64) < 1e-9)
    }

    @Test func katchNeedsAMeasuredWeight() throws {
        // Body fat without weight: Katch would multiply an assumed weight, so Mifflin is used.
        let report = try indexes("sex: male\nschedule_days: 3\nbodyfat_pct: 20\n")
        #expect(report.method == "mifflin")
    }

    @Test func bmiWhtrAndFfmi() throws {
        // BMI 80 / 1.8² = 24.691…; WHtR 90 / 180 = 0.5; FFMI 64 / 1.8² = 19.753…
        let report = try indexes("sex: male\nschedule_days: 3\nweight_kg: 80\nheight_cm: 180\nbodyfat_pct: 20\nwaist_cm: 90\n")
        #expect(abs((report.bmi ?? 0) - 80 / 3.24) < 1e-9)
        #expect(abs((report.whtr ?? 0) - 0.5) < 1e-12)
        #expect(abs((report.ffmi ?? 0) - 64 / 3.24) < 1e-9)
        #expect(report.context["BMI"] == "healthy range")
        #expect(report.context["WHtR"] == "0.5–0.6: increased health risk")
        #expect(report.context["FFMI"] == "average")
    }

    @Test func epleyOneRepMax() throws {
        let rules = try TestRules.rules()
        #expect(abs(try rules.estimatedOneRepMax(load: 100, reps: 5) - 100 * (1 + 5.0 / 30)) < 1e-9)
        #expect(abs(try rules.estimatedOneRepMax(load: 60, reps: 10) - 80) < 1e-9)
        #expect(try rules.estimatedOneRepMax(load: 140, reps: 1) == 140)
    }

    @Test func exactAgeWinsOverTheRange() throws {
        // 10·80 + 6.25·180 − 5·40 + 5 = 1730
        let report = try indexes("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\nage: 40\n")
        #expect(report.ageUsed == 40 && report.ageSource == "age")
        #expect(abs(report.bmr - 1730) < 1e-9)
    }

    @Test(arguments: [("<18", 16), ("18-24", 21), ("25-34", 29), ("35-44", 39), ("45-54", 49), ("55-60", 57), (">60", 65)])
    func ageRangeMapping(range: String, age: Int) throws {
        let report = try indexes("sex: female\nschedule_days: 3\nage_range: \"\(range)\"\n")
        #expect(report.ageUsed == age)
        #expect(report.isMinor == (range == "<18"))
        #expect(report.cautions.isEmpty == (range != "<18"))
    }

    @Test func minimalProfileAssumesDefaultsAndSaysSo() throws {
        // ICRP reference male 176 cm / 73 kg, age 29: 730 + 1100 − 145 + 5 = 1690
        let report = try indexes("sex: male\nschedule_days: 3\n")
        #expect(abs(report.bmr - 1690) < 1e-9)
        #expect(report.assumed.map(\.field) == ["age", "height_cm", "weight_kg"])
        #expect(report.bmi == nil && report.whtr == nil && report.ffmi == nil)
        #expect(report.accuracy == "low" && report.nextBestInput == "weight_kg")
        #expect(report.tips == ["Add your weight to improve BMR accuracy"])
    }

    @Test(arguments: [
        ("sex: male\nschedule_days: 3\n", "low", "weight_kg"),
        ("sex: male\nschedule_days: 3\nweight_kg: 80\n", "low", "height_cm"),
        ("sex: male\nschedule_days: 3\nweight_kg: 80\nheight_cm: 180\n", "low", "age_range"),
        ("sex: male\nschedule_days: 3\nweight_kg: 80\nheight_cm: 180\nage_range: 18-24\n", "med", "bodyfat_pct"),
        ("sex: male\nschedule_days: 3\nweight_kg: 80\nheight_cm: 180\nage: 33\nbodyfat_pct: 18\n", "high", "waist_cm"),
        ("sex: male\nschedule_days: 3\nweight_kg: 80\nheight_cm: 180\nage_range: 18-24\nbodyfat_pct: 18\nwaist_cm: 85\n", "highest", nil),
    ] as [(String, String, String?)])
    func accuracyLadder(yaml: String, accuracy: String, next: String?) throws {
        let report = try indexes(yaml)
        #expect(report.accuracy == accuracy)
        #expect(report.nextBestInput == next)
    }

    @Test func bodyFatTipMatchesTheSeed() throws {
        let report = try indexes("sex: female\nschedule_days: 3\nweight_kg: 60\nheight_cm: 165\nage_range: 25-34\n")
        #expect(report.tips == ["Add body fat % to improve BMR accuracy"])
    }

    @Test func overrideFarFromComputedWarnsWithBothValues() throws {
        // computed 1785; 1400 is −21.6%: used, with a warning; TDEE follows the override BMR.
        let report = try indexes("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\noverrides: {BMR: 1400}\n")
        #expect(report.method == "override" && report.bmr == 1400)
        #expect(abs(report.tdee - 1400 * 1.55) < 1e-9)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.contains("1400") == true && report.warnings.first?.contains("1785") == true)
    }

    /// `computed` is what the inputs give, whatever the overrides say: a BMR override does not
    /// move the computed TDEE that a TDEE override is compared with.
    @Test func computedTDEEIgnoresTheBMROverride() throws {
        // Mifflin 1785 × 1.55 = 2766.75; the override BMR 1400 would give 2170.
        let both = try indexes("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\noverrides: {BMR: 1400, TDEE: 2800}\n")
        #expect(abs(both.computedTDEE - 1785 * 1.55) < 1e-9)
        #expect(both.tdee == 2800)
        #expect(both.warnings.count == 1, "\(both.warnings)")  // BMR −21.6%; TDEE +1.2% of the computed 2766.75
        let bmrOnly = try indexes("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\noverrides: {BMR: 1400}\n")
        #expect(abs(bmrOnly.computedTDEE - 1785 * 1.55) < 1e-9)
        #expect(abs(bmrOnly.tdee - 1400 * 1.55) < 1e-9)
    }

    @Test func overrideWithinFifteenPercentIsQuiet() throws {
        let report = try indexes("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\noverrides: {BMR: 1700, TDEE: 2800, BMI: 25}\n")
        #expect(report.warnings.isEmpty)
        #expect(report.tdee == 2800 && report.bmi == 25)
    }

    @Test func tdeeAndBmiOverridesWarnToo() throws {
        let report = try indexes("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\noverrides: {TDEE: 3500, BMI: 30}\n")
        #expect(report.warnings.count == 2)
        #expect(report.tdee == 3500)
    }

    @Test func sevenDaysTrainSixWithARecoveryNote() throws {
        let report = try indexes("sex: male\nschedule_days: 7\n")
        #expect(report.trainingDays == 6 && report.activityMultiplier == 1.725)
        #expect(report.notes.contains { $0.contains("active-recovery") })
    }

    @Test func jsonUsesTheSeedsFieldNames() throws {
        let report = try indexes("sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\n")
        let json = report.jsonValue
        for key in ["BMR", "method", "TDEE", "BMI", "WHtR", "FFMI", "accuracy", "next_best_input"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["BMR"] == .int(1785))
        #expect(json["TDEE"] == .int(2767))
        #expect(json["BMI"] == .float(24.7))
        #expect(json["WHtR"] == .null)
    }
}
