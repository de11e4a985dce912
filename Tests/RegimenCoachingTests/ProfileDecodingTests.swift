import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing

/// Profiles in YAML and JSON; every bad field named with its value and what is allowed.
@Suite struct ProfileDecodingTests {
    func problems(_ yaml: String) throws -> [ProfileProblem] {
        let decoder = try TestRules.rules().profileDecoder
        do {
            _ = try decoder.decode(text: yaml, file: "bad.yaml")
            Issue.record("expected the profile to be rejected")
            return []
        } catch {
            return error.problems
        }
    }

    @Test func minimalProfile() throws {
        let profile = try TestRules.profile("sex: female\nschedule_days: 2\n")
        #expect(profile.sex == .female && profile.scheduleDays == 2)
        #expect(profile.weightKg == nil && profile.goal == nil && profile.injuries.isEmpty)
    }

    @Test func jsonProfileWithEveryField() throws {
        let json = """
            {"sex": "male", "schedule_days": 5, "age_range": "35–44", "age": 41, "height_cm": 182, "weight_kg": 88.5,
             "bodyfat_pct": 21.5, "waist_cm": 92, "experience": "intermediate", "equipment": "dumbbells_only",
             "injuries": ["knee", "shoulder"], "overrides": {"BMR": 1850, "TDEE": null, "BMI": null},
             "goal": "recomposition", "budget_tier": "low", "meals_per_day": 4, "exclusions": ["dairy"],
             "pregnant": false, "hypertension": true, "medications": ["lisinopril"], "daily_caffeine_mg": 200}
            """
        let profile = try TestRules.profile(json)
        #expect(profile.ageRange == "35-44" && profile.age == 41)
        #expect(profile.weightKg == 88.5 && profile.bodyfatPct == 21.5)
        #expect(profile.injuries == [.knee, .shoulder])
        #expect(profile.overrides == Profile.Overrides(bmr: 1850))
        #expect(profile.goal == "recomp")
        #expect(profile.budgetTier == .low && profile.mealsPerDay == 4 && profile.exclusions == ["dairy"])
        #expect(profile.hypertension == true && profile.medications == ["lisinopril"] && profile.dailyCaffeineMg == 200)
    }

    @Test(arguments: [("hypertrophy", "lean_mass"), ("lean_mass", "lean_mass"), ("recomposition", "recomp"), ("recomp", "recomp"), ("Fat_Loss", "fat_loss")])
    func goalAliases(written: String, canonical: String) throws {
        #expect(try TestRules.profile("sex: male\nschedule_days: 3\ngoal: \(written)\n").goal == canonical)
    }

    @Test(arguments: ["18-24", "18–24", "18 - 24"])
    func ageRangeSpellings(written: String) throws {
        #expect(try TestRules.profile("sex: male\nschedule_days: 3\nage_range: \"\(written)\"\n").ageRange == "18-24")
    }

    /// One bad value per field: the field, the value and what is allowed are all in the message.
    @Test(arguments: [
        ("sex: robot\nschedule_days: 3\n", "sex", "'robot'", "male, female"),
        ("schedule_days: 3\n", "sex", nil, "male, female"),
        ("sex: male\nschedule_days: 0\n", "schedule_days", "0", "1-7"),
        ("sex: male\nschedule_days: 8\n", "schedule_days", "8", "1-7"),
        ("sex: male\nschedule_days: 3.5\n", "schedule_days", "3.5", "whole number"),
        ("sex: male\nschedule_days: three\n", "schedule_days", "'three'", "whole number"),
        ("sex: male\nschedule_days: 3\nage_range: 18-25\n", "age_range", "'18-25'", "25-34"),
        ("sex: male\nschedule_days: 3\nage: 10\n", "age", "10", "13-100"),
        ("sex: male\nschedule_days: 3\nheight_cm: 100\n", "height_cm", "100", "120-220"),
        ("sex: male\nschedule_days: 3\nweight_kg: 250.5\n", "weight_kg", "250.5", "30-250"),
        ("sex: male\nschedule_days: 3\nweight_kg: \"80\"\n", "weight_kg", "'80'", "a number"),
        ("sex: male\nschedule_days: 3\nbodyfat_pct: 70\n", "bodyfat_pct", "70", "5-60"),
        ("sex: male\nschedule_days: 3\nwaist_cm: 30\n", "waist_cm", "30", "40-180"),
        ("sex: male\nschedule_days: 3\nexperience: pro\n", "experience", "'pro'", "novice, intermediate, advanced"),
        ("sex: male\nschedule_days: 3\nequipment: barbell\n", "equipment", "'barbell'", "bodyweight_only"),
        ("sex: male\nschedule_days: 3\ninjuries: [knee, neck]\n", "injuries[1]", "'neck'", "low_back"),
        ("sex: male\nschedule_days: 3\ninjuries: [knee, knee]\n", "injuries[1]", "'knee'", "once"),
        ("sex: male\nschedule_days: 3\ninjuries: knee\n", "injuries", "'knee'", "a list"),
        ("sex: male\nschedule_days: 3\noverrides: {BMR: 500}\n", "overrides.BMR", "500", "800-3000"),
        ("sex: male\nschedule_days: 3\noverrides: {TDEE: 6000}\n", "overrides.TDEE", "6000", "1200-5000"),
        ("sex: male\nschedule_days: 3\noverrides: {BMI: 5}\n", "overrides.BMI", "5", "10-60"),
        ("sex: male\nschedule_days: 3\noverrides: {bmr: 1500}\n", "overrides.bmr", "an unknown override", "BMR"),
        ("sex: male\nschedule_days: 3\ngoal: shred\n", "goal", "'shred'", "fat_loss"),
        ("sex: male\nschedule_days: 3\nbudget_tier: cheap\n", "budget_tier", "'cheap'", "low, medium, high"),
        ("sex: male\nschedule_days: 3\nmeals_per_day: 7\n", "meals_per_day", "7", "2-6"),
        ("sex: male\nschedule_days: 3\nexclusions: [keto]\n", "exclusions[0]", "'keto'", "vegetarian"),
        ("sex: male\nschedule_days: 3\npregnant: yes\n", "pregnant", "'yes'", "true or false"),
        ("sex: male\nschedule_days: 3\ndaily_caffeine_mg: -5\n", "daily_caffeine_mg", "-5", "0-2000"),
        ("sex: male\nschedule_days: 3\nwieght_kg: 80\n", "wieght_kg", "an unknown field", "weight_kg"),
    ] as [(String, String, String?, String)])
    func badField(yaml: String, field: String, value: String?, allowed: String) throws {
        let found = try problems(yaml)
        let problem = found.first { $0.field == field }
        #expect(problem != nil, "no problem for \(field) in \(found)")
        if let problem {
            #expect(problem.value == value)
            #expect(problem.allowed.contains(allowed), "\(problem.allowed)")
            #expect(problem.location?.file == "bad.yaml")
        }
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        let found = try problems("sex: robot\nschedule_days: 9\nweight_kg: 20\nheight_cm: 300\ngoal: shred\ncolour: blue\n")
        #expect(Set(found.map(\.field)) == ["sex", "schedule_days", "weight_kg", "height_cm", "goal", "colour"])
        // In file order, each with its line.
        #expect(found.map { $0.location?.line ?? 0 } == [1, 2, 3, 4, 5, 6])
        #expect(found[2].description == "bad.yaml:3:12: error: weight_kg: 20 is not allowed; expected a number in 30-250")
    }

    @Test func malformedFilesAreProblemsToo() throws {
        #expect(try problems("sex: [male\n").first?.field == "(file)")
        #expect(try problems("- male\n- 3\n").first?.field == "(profile)")
        #expect(try problems("").first?.field == "(file)")
    }

    @Test func nullOptionalFieldsAreAbsent() throws {
        let profile = try TestRules.profile("sex: male\nschedule_days: 3\nbodyfat_pct: null\nwaist_cm: ~\n")
        #expect(profile.bodyfatPct == nil && profile.waistCm == nil)
    }

    @Test func everyExampleProfileIsValid() throws {
        let decoder = try TestRules.rules().profileDecoder
        let folder = TestRules.packageRoot.appendingPathComponent("examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }
        #expect(files.count >= 5)
        for file in files.sorted() {
            do {
                _ = try decoder.decode(contentsOf: folder.appendingPathComponent(file), displayPath: "examples/\(file)")
            } catch {
                Issue.record("examples/\(file): \(error)")
            }
        }
    }
}
