@testable import RegimenCoaching
import Testing

/// Ordinary clients the planner once left with nothing to eat, and the levers that feed them:
/// plant proteins in the catalog, another number of meals a day when one meal cannot be
/// portioned, and a fat-loss target that never rises above maintenance.
@Suite struct NutritionEverybodyEatsTests {
    func plan(_ yaml: String) throws -> NutritionPlan {
        try TestRules.rules().planNutrition(try TestRules.profile(yaml))
    }

    func expectEveryMealHasOptions(_ plan: NutritionPlan, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for meal in plan.meals {
            if case .infeasible(let reason) = meal.allocation {
                Issue.record("\(context) \(meal.slot): \(reason)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: [
        "sex: female\nschedule_days: 3\ngoal: fat_loss\nexclusions: [vegan]\n",
        "sex: female\nschedule_days: 3\nweight_kg: 55\nheight_cm: 165\ngoal: recomp\nexclusions: [vegan]\n",
        "sex: female\nschedule_days: 3\nweight_kg: 70\nheight_cm: 165\ngoal: recomp\nexclusions: [vegan]\n",
        "sex: male\nschedule_days: 3\nweight_kg: 55\nheight_cm: 170\ngoal: recomp\nexclusions: [vegan]\n",
        "sex: male\nschedule_days: 4\nweight_kg: 70\nheight_cm: 178\ngoal: recomp\nexclusions: [vegan]\n",
        "sex: female\nschedule_days: 3\ngoal: fat_loss\nbudget_tier: low\nexclusions: [vegetarian]\n",
        "sex: male\nschedule_days: 3\ngoal: recomp\nbudget_tier: low\nexclusions: [vegetarian]\n",
        "sex: male\nschedule_days: 4\nweight_kg: 80\nheight_cm: 180\ngoal: fat_loss\nbudget_tier: low\nexclusions: [vegetarian]\n",
        "sex: male\nschedule_days: 4\nweight_kg: 75\nheight_cm: 180\ngoal: strength\nbudget_tier: low\nexclusions: [vegan, gluten]\n",
    ])
    func plantBasedClientsGetOptionsForEveryMeal(_ yaml: String) throws {
        let plan = try plan(yaml)
        expectEveryMealHasOptions(plan, yaml)
    }

    @Test func aLargeManWithThreeMealsGetsMoreMealsAndSaysWhy() throws {
        // About 1,500 kcal and 232 g of carbohydrate a meal at three meals: more than the
        // catalog's portion caps allow.
        let plan = try plan("sex: male\nschedule_days: 6\nweight_kg: 130\nheight_cm: 195\nage: 25\ngoal: lean_mass\nexperience: novice\nmeals_per_day: 3\n")
        expectEveryMealHasOptions(plan, "130 kg, 3 meals")
        #expect(plan.meals.count > 3)
        let note = try #require(plan.adjustments.first { $0.hasPrefix("meals per day raised from 3 to \(plan.meals.count)") })
        #expect(note.contains("cannot be portioned"))
    }

    @Test func theAskedNumberOfMealsIsKeptWhenItWorks() throws {
        let plan = try plan("sex: female\nschedule_days: 3\nweight_kg: 60\nheight_cm: 165\ngoal: fat_loss\nmeals_per_day: 2\n")
        #expect(plan.meals.map(\.slot) == ["lunch", "dinner"])
        expectEveryMealHasOptions(plan, "2 meals")
        #expect(!plan.adjustments.contains { $0.hasPrefix("meals per day") })
    }

    @Test func noOptionIsLargerThanItsPortionCap() throws {
        let rules = try TestRules.rules()
        let catalog = Dictionary(uniqueKeysWithValues: rules.catalog.ingredients.map { ($0.id, $0) })
        // No one eats 480 g of potato in one sitting.
        #expect(try #require(catalog["potato"]).portionRangeG.upperBound < 480)
        let plan = try plan("sex: male\nschedule_days: 5\nweight_kg: 160\nheight_cm: 190\ngoal: lean_mass\nmeals_per_day: 2\n")
        for meal in plan.meals {
            guard case .options(let options) = meal.allocation else { continue }
            for category in IngredientCategory.allCases {
                for option in options[category] {
                    #expect(try #require(catalog[option.ingredientId]).portionRangeG.contains(option.grams), "\(option.ingredientId) \(option.grams) g")
                }
            }
        }
    }

    @Test func exclusionsThatLeaveACategoryWithoutSourcesSaySoPlainly() throws {
        // Every shipped exclusion leaves each category sources; a catalog whose only fats are
        // dairy or egg does not, once dairy and egg are excluded.
        var rules = try TestRules.rules()
        rules.catalog.ingredients.removeAll { $0.category == .fat && !$0.contains.contains("dairy") && !$0.contains.contains("egg") }
        let plan = try rules.planNutrition(try TestRules.profile("sex: female\nschedule_days: 3\nexclusions: [dairy, egg]\n"))
        #expect(!plan.meals.isEmpty)
        for meal in plan.meals {
            guard case .infeasible(let reason) = meal.allocation else {
                Issue.record("\(meal.slot) has options from a catalog without fats")
                continue
            }
            #expect(reason == "the catalog has no fat source at all once dairy, egg are excluded", "\(reason)")
        }
        #expect(plan.tips.contains { $0.hasPrefix("No meal has ingredient options: the catalog has no fat source at all") })
    }

    @Test func aFatLossMacroFloorNeverLiftsTheTargetAboveMaintenanceOrTheSafetyFloor() throws {
        // TDEE overridden to 1,200 kcal (and BMR to 1,000) for a 150 kg man: the calorie
        // precedence lifts the target to the men's safety floor of 1,500 kcal, which becomes the
        // ceiling (issue 31: before it, 1,200). Protein at the bottom of its range and fat at
        // 0.6 g/kg do not fit under it, so carbohydrate and fat give way instead of the kcal.
        let plan = try plan("sex: male\nschedule_days: 3\nweight_kg: 150\nheight_cm: 185\nage: 40\ngoal: fat_loss\noverrides: {TDEE: 1200, BMR: 1000}\n")
        #expect(plan.tdee == 1200)
        #expect(plan.kcal == 1500)
        let macroKcal = 4 * plan.macros.proteinG + 4 * plan.macros.carbG + 9 * plan.macros.fatG
        #expect(abs(macroKcal - plan.kcal) <= 0.03 * plan.kcal, "\(macroKcal) vs \(plan.kcal)")
        #expect(plan.adjustments.first?.contains("the safety floor for men") == true, "\(plan.adjustments)")
        #expect(plan.adjustments.contains { $0.contains("stops at 1500 kcal, the calorie precedence's absolute floor") }, "\(plan.adjustments)")
        #expect(plan.adjustments.contains { $0.hasPrefix("fat lowered") && $0.contains("below its range") }, "\(plan.adjustments)")
    }

    @Test func aFatLossTargetMayStillRiseToMaintenanceWhenThatIsEnough() throws {
        // LBM 50 kg → BMR 1450; 1 day → TDEE 1993.75. At ×0.85 the floors do not fit; at maintenance they do.
        let plan = try plan("sex: male\nschedule_days: 1\nweight_kg: 100\nheight_cm: 200\nage: 30\nbodyfat_pct: 50\ngoal: fat_loss\noverrides: {TDEE: 1994}\n")
        #expect(plan.kcal <= 1994)
    }
}
