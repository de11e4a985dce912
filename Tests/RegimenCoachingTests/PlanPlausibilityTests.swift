import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

/// Issue 33, item 3: every number a plan gives a client has a plausible range in
/// rules/plausibility.yaml (`plan`); a day outside it is the rules' error, located at the goal's
/// calorie rule, never a number the client sees.
@Suite struct PlanPlausibilityTests {
    /// Property: for every profile of a grid wider than the nutrition grid (both sexes, 40–200 kg,
    /// 140–210 cm, every age range and goal, body fat unknown or 8–50 %, pregnancy in each
    /// trimester), the day's kcal and macros lie inside the plan's ranges.
    @Test func everyDayOfTheGridIsPlausible() throws {
        let rules = try TestRules.rules()
        let ranges = rules.planPlausibility
        var planned = 0
        var index = 0
        for sex in ["male", "female"] {
            for weight in stride(from: 40, through: 200, by: 10) {
                for height in [140, 158, 175, 192, 210] {
                    for bodyfat in [nil, 8, 25, 50] as [Int?] {
                        for goal in ["fat_loss", "lean_mass", "recomp", "strength"] {
                            for trimester in sex == "female" ? [nil, 0, 1, 2, 3] : [nil] as [Int?] {
                                index += 1
                                // Every 53rd point (every point with REGIMEN_NUTRITION_GRID=full): 53 is prime
                                // to every dimension's size, so each value of each is taken.
                                guard NutritionGrid.isFull || index % 53 == 0 else { continue }
                                let age = ["18-24", "25-34", "35-44", "45-54", "55-60", ">60"][index % 6]
                                var yaml = "sex: \(sex)\nschedule_days: 3\nage_range: \"\(age)\"\nweight_kg: \(weight)\nheight_cm: \(height)\ngoal: \(goal)\n"
                                if let bodyfat { yaml += "bodyfat_pct: \(bodyfat)\n" }
                                if let trimester { yaml += trimester == 0 ? "pregnant: true\n" : "pregnant: true\ntrimester: \(trimester)\n" }
                                let profile = try TestRules.profile(yaml)
                                let plan = try rules.planNutrition(profile)
                                planned += 1
                                let point = yaml.replacingOccurrences(of: "\n", with: "; ")
                                #expect(ranges.kcal.contains(plan.kcal), "\(point): \(plan.kcal) kcal")
                                #expect(ranges.proteinG.contains(plan.macros.proteinG), "\(point): protein \(plan.macros.proteinG) g")
                                #expect(ranges.fatG.contains(plan.macros.fatG), "\(point): fat \(plan.macros.fatG) g")
                                #expect(ranges.carbG.contains(plan.macros.carbG), "\(point): carbohydrate \(plan.macros.carbG) g")
                            }
                        }
                    }
                }
            }
        }
        #expect(planned > 130)
    }

    /// The run-time guard: with rules whose carbohydrate range a 120 kg client on lean-mass gain
    /// exceeds, plan refuses with the rules' error at the goal's calorie rule, naming the number.
    @Test func aDayOutsideItsRangeIsTheRulesErrorAtTheCalorieRule() throws {
        var rules = try TestRules.rules()
        rules.planPlausibility.carbG = .init(low: 0, high: 200)
        let profile = try TestRules.profile("sex: male\nschedule_days: 3\nage: 30\nweight_kg: 120\nheight_cm: 190\ngoal: lean_mass\n")
        #expect(throws: RuleEvaluationError.self) { try rules.planNutrition(profile) }
        do {
            _ = try rules.planNutrition(profile)
        } catch {
            #expect(error.message.contains("carb_g"), "\(error.message)")
            #expect(error.message.contains("plausible 0–200"), "\(error.message)")
            let location = try #require(error.location)
            #expect(location.file.hasSuffix("rules/nutrition.yaml"), "\(location)")
            #expect(location == rules.nutrition.calories["lean_mass"]?.location)
        }
    }

    /// Adapt's loads stop at the rules' `plan.load_kg` (narrowed here to 0–200 kg), which always
    /// lies within what a plan document may hold.
    @Test func adaptsLoadLimitComesFromTheRules() throws {
        var rules = try TestRules.rules()
        #expect(rules.planPlausibility.loadLimit == 0...1000)
        rules.planPlausibility.loadKg = .init(low: 0, high: 200)
        #expect(rules.planPlausibility.loadLimit == 0...200)
        rules.planPlausibility.loadKg = .init(low: -5, high: 5000)
        #expect(rules.planPlausibility.loadLimit == 0...1000)
    }
}
