@testable import RegimenCoaching
import Testing
@testable import RegimenLanguage

/// Calories by goal, the macro split and what gives way, computed by hand.
@Suite struct NutritionTargetTests {
    // 80 kg, 180 cm, 29 y, 4 days: BMR 1785, TDEE 2766.75, BMI 24.7.
    static let base = "sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\nage_range: 25-34\n"

    func plan(_ yaml: String) throws -> NutritionPlan {
        try TestRules.rules().planNutrition(try TestRules.profile(yaml))
    }

    @Test func fatLossTakesTheMiddleOfItsRangeAndProteinHigh() throws {
        // kcal 2766.75 × 0.85 = 2351.74; protein 2.2·80 = 176; fat 0.6·80 = 48; carbs (2351.74 − 704 − 432)/4 = 303.9
        let plan = try plan(Self.base + "goal: fat_loss\n")
        #expect(abs(plan.multiplier - 0.85) < 1e-12)
        #expect(plan.kcal == 2352)
        #expect(plan.macros.proteinG == 176 && plan.macros.fatG == 48 && plan.macros.carbG == 304)
        #expect(plan.adjustments.isEmpty)
    }

    @Test func leanMassSurplusDependsOnExperience() throws {
        let novice = try plan(Self.base + "goal: lean_mass\nexperience: novice\n")
        let advanced = try plan(Self.base + "goal: hypertrophy\nexperience: advanced\n")
        #expect(novice.multiplier == 1.10 && advanced.multiplier == 1.05)
        #expect(advanced.goal == "lean_mass")
        // 2766.75 × 1.05 = 2905.09; protein 1.8·80 = 144; fat 0.8·80 = 64; carbs (2905.09 − 576 − 576)/4 = 438.3
        #expect(advanced.kcal == 2905 && advanced.macros.proteinG == 144 && advanced.macros.fatG == 64 && advanced.macros.carbG == 438)
    }

    @Test func recompIsMaintenance() throws {
        let plan = try plan(Self.base + "goal: recomposition\n")
        #expect(plan.goal == "recomp" && plan.multiplier == 1.0 && plan.kcal == 2767)
    }

    @Test func strengthIsMaintenanceToASmallSurplus() throws {
        let plan = try plan(Self.base + "goal: strength\n")
        #expect(plan.multiplier == 1.025)
    }

    @Test func noGoalUsesTheDefault() throws {
        #expect(try plan(Self.base).goal == "lean_mass")
    }

    @Test func minorsNeverGetTheAggressiveCut() throws {
        let plan = try plan("sex: female\nschedule_days: 3\nweight_kg: 70\nheight_cm: 160\nage_range: \"<18\"\ngoal: fat_loss\n")
        #expect(plan.multiplier == 0.90)
    }

    @Test func obesityRangeTakesTheLargerDeficitAndLowProtein() throws {
        let plan = try plan("sex: male\nschedule_days: 3\nweight_kg: 120\nheight_cm: 175\nage_range: 35-44\ngoal: fat_loss\n")
        #expect(plan.multiplier == 0.80)
        #expect(plan.proteinPerKg == 1.6)
    }

    @Test func proteinGivesWayFirstWhenCarbsFallBelowTheirFloor() throws {
        // BMI 25, no body fat: protein on total weight. TDEE 2000 (BMR 1450) × 0.85 = 1700 kcal.
        // Protein 220 g + fat 60 g leave 70 g carbs, below the 100 g floor: protein drops by 30 g to
        // 190 g, carbs sit at 100 g. (Issue 31 moved this case off body fat, which now plans
        // protein on lean mass.)
        let plan = try plan("sex: male\nschedule_days: 1\nweight_kg: 100\nheight_cm: 200\nage: 30\ngoal: fat_loss\noverrides: {TDEE: 2000, BMR: 1450}\n")
        #expect(plan.kcal == 1700)
        #expect(plan.macros.proteinG == 190 && plan.macros.fatG == 60 && plan.macros.carbG == 100)
        #expect(plan.adjustments.count == 1 && plan.adjustments[0].hasPrefix("protein lowered"))
    }

    @Test func kcalGivesWayLastAndSaysSo() throws {
        // BMI 58.6 without body fat: protein on the adjusted weight 64 + 0.4 × 86 = 98.4 kg at
        // 1.6 g/kg = 157.4 g. TDEE 2400 × 0.80 = 1920 kcal. Protein and fat (90 g) are already at
        // their minimums, so kcal rises to 629.8 + 810 + 600 = 2040.
        let plan = try plan("sex: female\nschedule_days: 1\nweight_kg: 150\nheight_cm: 160\nage: 40\ngoal: fat_loss\noverrides: {TDEE: 2400, BMR: 1500}\n")
        #expect(plan.proteinBasis.kind == .adjustedWeight)
        #expect(plan.macros.proteinG == 157 && plan.macros.fatG == 90 && plan.macros.carbG == 150)
        #expect(plan.kcal == 2040)
        #expect(plan.adjustments.last?.hasPrefix("kcal raised") == true)
    }

    @Test func mealsSplitTheDayAndCarryTheirTargets() throws {
        let plan = try plan(Self.base + "goal: fat_loss\nmeals_per_day: 4\n")
        #expect(plan.meals.map(\.slot) == ["breakfast", "lunch", "afternoon", "dinner"])
        for meal in plan.meals {
            #expect(meal.targets.macros.protein == 44 && meal.targets.macros.fat == 12 && meal.targets.macros.carb == 76)
            let kcal: Double = 4 * 44 + 4 * 76 + 9 * 12
            #expect(meal.targets.kcal == kcal)
        }
    }

    @Test func defaultMealCountFollowsTheProteinGuide() throws {
        // 176 g / 3 = 58.7 g > 40 → four meals; 54 kg woman: 1.6–2.2 g/kg gives < 120 g → three.
        #expect(try plan(Self.base + "goal: fat_loss\n").meals.count == 4)
        #expect(try plan("sex: female\nschedule_days: 3\nweight_kg: 54\nheight_cm: 160\nage_range: 25-34\n").meals.count == 3)
    }

    @Test func everyOptionKcalUsesTheAtwaterFactors() throws {
        let plan = try plan(Self.base + "goal: lean_mass\nbudget_tier: high\n")
        #expect(plan.energyDefinition == "atwater_general")
        for meal in plan.meals {
            guard case .options(let options) = meal.allocation else {
                Issue.record("\(meal.slot) has no options")
                continue
            }
            for category in IngredientCategory.allCases {
                for option in options[category] {
                    let atwater = 4 * option.macros.protein + 4 * option.macros.carb + 9 * option.macros.fat
                    #expect(abs(option.kcal - atwater) <= 0.5, "\(option.ingredientId)")
                }
            }
        }
    }

    @Test func jsonHasTheSeedsShape() throws {
        let json = try plan(Self.base + "goal: fat_loss\n").jsonValue
        #expect(json["kcal"] == .int(2352))
        #expect(json["macros"]?["protein_g"] == .int(176))
        let meal = json["ingredients"]?["meals"]?.listValue?.first
        for key in ["protein_opts", "carb_opts", "veg_opts", "fat_opts", "targets"] {
            #expect(meal?[key] != nil, "missing \(key)")
        }
        let option = meal?["protein_opts"]?.listValue?.first
        for key in ["ingredientId", "grams", "p", "c", "f", "kcal", "budget_tier"] {
            #expect(option?[key] != nil, "missing \(key)")
        }
    }

    @Test func anUnsatisfiableMealSaysSoInsteadOfBreakingTheGuarantee() throws {
        // Vegan without soy, gluten, nuts and sesame: beans, lentils, peas, lupini and sunflower
        // flour are left, too few lean enough for a small meal in a deficit at any number of
        // meals or budget. (Vegan and soy-free alone is served since the seed flours joined the
        // catalog: issue 31.)
        let plan = try plan("sex: female\nschedule_days: 2\nweight_kg: 50\nheight_cm: 158\nage_range: 25-34\ngoal: fat_loss\nbudget_tier: low\nexclusions: [vegan, soy, gluten, nuts, sesame]\nmeals_per_day: 4\n")
        for meal in plan.meals {
            guard case .infeasible(let reason) = meal.allocation else {
                Issue.record("expected no options for \(meal.slot)")
                continue
            }
            #expect(!reason.isEmpty)
        }
        #expect(plan.tips.contains { $0.contains("no ingredient options") })
        // Every budget tier was tried before the plan gave up: the tip must not send the client to one.
        #expect(!plan.tips.contains { $0.contains("higher budget") })
        #expect(plan.jsonValue["ingredients"]?["meals"]?.listValue?.first?["unavailable"] != nil)
    }
}
