@testable import RegimenCoaching
import Testing

/// Two defects the full nutrition grid (scripts/nutrition-grid.sh, 162,000 profiles) found that
/// its sample did not (issue 31): big meals that all offer the same three protein foods, and
/// soy-free vegans in a deficit whose every meal had no options.
@Suite struct DayVarietyAndUnservedDayTests {
    /// The distinct protein foods of a plan's meals.
    static func proteinFoods(_ plan: NutritionPlan) -> Set<String> {
        var foods: Set<String> = []
        for meal in plan.meals {
            if case .options(let options) = meal.allocation { foods.formUnion(options.protein.map(\.ingredientId)) }
        }
        return foods
    }

    static func isServed(_ meal: PlannedMeal) -> Bool {
        if case .options = meal.allocation { true } else { false }
    }

    /// Two meals of 77 g protein on a low budget: only chicken, pollock and tuna keep every
    /// combination within tolerance, and both meals offered those three (3 foods a day, 6 asked).
    @Test func aDayOfTwoBigMealsGetsMoreMealsForVarietyAndSaysSo() throws {
        let rules = try TestRules.rules()
        let profile = try TestRules.profile("""
        sex: male
        schedule_days: 1
        age_range: ">60"
        weight_kg: 70
        height_cm: 198
        goal: recomp
        experience: advanced
        budget_tier: low
        meals_per_day: 2
        exclusions: []
        """)
        let plan = try rules.planNutrition(profile)
        let foods = Self.proteinFoods(plan)
        #expect(foods.count >= rules.meals.dayProteinFoodsMin, "\(foods.sorted())")
        #expect(plan.meals.count > 2)
        #expect(plan.meals.allSatisfy(Self.isServed))
        let note = plan.adjustments.first { $0.hasPrefix("meals per day raised from 2 to \(plan.meals.count) for variety") }
        #expect(note?.contains("only 3 protein foods") == true, "\(plan.adjustments)")
    }

    /// A soy-free vegan man of 100 kg in a deficit at 2.2 g/kg (220 g protein, 40% of 2,229 kcal):
    /// no number of meals and no budget tier fed a single meal.
    @Test func aSoyFreeVeganInADeficitIsFedWithProteinInsideItsRange() throws {
        let rules = try TestRules.rules()
        let profile = try TestRules.profile("""
        sex: male
        schedule_days: 1
        age_range: "55-60"
        weight_kg: 100
        height_cm: 190
        goal: fat_loss
        experience: novice
        budget_tier: medium
        meals_per_day: 5
        exclusions: [vegan, soy]
        """)
        let plan = try rules.planNutrition(profile)
        #expect(plan.meals.allSatisfy(Self.isServed), "\(plan.tips)")
        #expect(plan.proteinPerKg < 2.2)
        #expect(plan.proteinPerKg >= 1.6 - 1e-9)
        #expect(plan.macros.proteinG >= 1.6 * 100 - 0.5)
        let note = plan.adjustments.first { $0.hasPrefix("protein lowered from 2.2 to") }
        #expect(note?.contains("so every meal has ingredient options") == true, "\(plan.adjustments)")
        // Carbohydrate takes the energy protein gave up: the day's kcal is unchanged.
        let macroKcal = 4 * plan.macros.proteinG + 4 * plan.macros.carbG + 9 * plan.macros.fatG
        #expect(abs(macroKcal - plan.kcal) <= 0.03 * plan.kcal)
    }
}
