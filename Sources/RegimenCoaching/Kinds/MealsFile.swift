import RegimenLanguage
package import RegimenRules

/// `rules/meals.yaml`: meal slots and the allocator's settings.
package struct MealsFile: RuleFileKind, Sendable {
    package static let kind = "meals"
    package static var expressionScopes: [ExpressionScope] { [MealVariables.mealsPerDayScope, MealVariables.vegGramsScope] }

    package struct Slot: Sendable, Hashable {
        package var name: String
        var weight: Double
    }

    var mealsPerDayDefault: CompiledExpression
    var proteinPerMealG: ClosedRange<Double>
    /// Slots by meals per day.
    package var slots: [Int: [Slot]]
    /// The kcal and protein tolerance (the seed's ±10%), as a fraction.
    var tolerance: Double
    /// The tolerance per measure, as fractions: `tolerance` unless `tolerance_pct_by_macro` says otherwise.
    package var tolerances: MealTotals
    /// The narrowest half-width of the band per measure (grams of each macro, kcal).
    var toleranceFloor: MealTotals
    /// Numbers of meals a day the planner may fall back to when the asked number cannot be portioned.
    var mealsPerDayFallback: ClosedRange<Int>
    var optionsPerCategory: ClosedRange<Int>
    var roundingG: [IngredientCategory: Double]
    var vegGrams: CompiledExpression
    var budgetTiers: [Profile.BudgetTier: [Profile.BudgetTier]]
    /// The fewest food groups among a meal's protein options.
    var proteinFoodGroupsMin: Int
    /// Ranking cost per option of these food groups (whole foods first).
    var foodGroupPenalty: [String: Double]
    /// Ranking cost of an option the day's earlier meals already offer.
    var repeatPenalty: Double
    /// The fewest distinct protein foods a day's meals should offer; below it, more meals a day
    /// are tried (`variety.day_protein_foods_min`).
    var dayProteinFoodsMin: Int
    /// How far protein steps down (g/kg of its basis, toward the bottom of its range) when no
    /// number of meals and no budget tier feeds every meal (`unserved_protein_step_g_per_kg`).
    var unservedProteinStepPerKg: Double
    /// Where each `food_group_penalty` key is written, for the check against the catalog.
    var penaltyLocations: [(group: String, location: SourceLocation?)] = []

    package static func decode(_ document: inout MappingDecoder) -> MealsFile? {
        let context = document.context
        let mealsDefault = document.requiredExpression("meals_per_day_default", in: context.environment(declaring: MealVariables.mealsPerDayScope.variables))
        let proteinPerMeal = decodeRange(&document, "protein_per_meal_g")
        let slots = document.mapping("slots") { map -> [Int: [Slot]]? in
            var result: [Int: [Slot]] = [:]
            for key in map.keys {
                guard let count = Int(key), count > 0 else {
                    context.error("rules.value", "meal slots: '\(key)' is not a number of meals", at: map.location(ofKey: key))
                    _ = map.node(key)
                    continue
                }
                let list = map.list(key) { node, path in
                    context.mapping(node, at: path) { slot -> Slot? in
                        let name = slot.required("name", as: String.self)
                        let weight = slot.required("weight", as: Double.self, in: 0.01...100)
                        guard let name, let weight else { return nil }
                        return Slot(name: name, weight: weight)
                    }
                }
                if let list, list.count != count {
                    context.error("rules.value", "meal slots for \(count) meals list \(list.count) slots", at: map.location(ofKey: key))
                }
                result[count] = list
            }
            return result
        }
        let tolerancePct = document.required("tolerance_pct", as: Double.self, in: 0...50)
        let byMacro = document.mapping("tolerance_pct_by_macro", required: false) { map -> [MealMeasure: Double]? in
            var result: [MealMeasure: Double] = [:]
            for measure in MealMeasure.allCases {
                if let value = map.optional(measure.rawValue, as: Double.self, in: 0...100) { result[measure] = value / 100 }
            }
            return result
        }
        let floor = document.mapping("tolerance_floor") { map -> MealTotals? in
            let p = map.required("protein", as: Double.self, in: 0...50)
            let c = map.required("carb", as: Double.self, in: 0...50)
            let f = map.required("fat", as: Double.self, in: 0...50)
            let kcal = map.required("kcal", as: Double.self, in: 0...500)
            guard let p, let c, let f, let kcal else { return nil }
            return MealTotals(protein: p, carb: c, fat: f, kcal: kcal)
        }
        let fallbackRange = decodeRange(&document, "meals_per_day_fallback")
        let fallbackLocation = document.node("meals_per_day_fallback")?.location
        var fallback: ClosedRange<Int>?
        if let fallbackRange {
            // Checked conversions: a bound no `Int` holds (1e300) is the coach's mistake to report.
            if fallbackRange.lowerBound >= 1, let low = Int(exactly: fallbackRange.lowerBound), let high = Int(exactly: fallbackRange.upperBound) {
                fallback = low...high
            } else {
                context.error("rules.value", "meals: 'meals_per_day_fallback' must be a range of whole numbers of at least 1", at: fallbackLocation)
            }
        }
        let options = decodeRange(&document, "options_per_category")
        let optionsLocation = document.node("options_per_category")?.location
        let categories = document.required("categories", as: [String].self)
        if let categories, categories != IngredientCategory.allCases.map(\.rawValue) {
            context.error("rules.value", "meals: 'categories' must be [protein, carb, veg, fat] (the seed's four pickers)", at: document.node("categories")?.location)
        }
        let rounding = document.mapping("rounding_g") { map -> [IngredientCategory: Double]? in
            var result: [IngredientCategory: Double] = [:]
            for category in IngredientCategory.allCases {
                result[category] = map.required(category.rawValue, as: Double.self, in: 0.1...100)
            }
            return result.count == IngredientCategory.allCases.count ? result : nil
        }
        let vegGrams = document.requiredExpression("veg_grams", in: context.environment(declaring: MealVariables.vegGramsScope.variables))
        let tiers = document.mapping("budget_tiers") { map -> [Profile.BudgetTier: [Profile.BudgetTier]]? in
            var result: [Profile.BudgetTier: [Profile.BudgetTier]] = [:]
            for tier in Profile.BudgetTier.allCases {
                guard let names = map.required(tier.rawValue, as: [String].self) else { continue }
                var admitted: [Profile.BudgetTier] = []
                for name in names {
                    if let admittedTier = Profile.BudgetTier(rawValue: name) {
                        admitted.append(admittedTier)
                    } else {
                        context.error("rules.value", "budget tier '\(tier.rawValue)' admits '\(name)', which is not low, medium or high", at: map.location(ofKey: tier.rawValue))
                    }
                }
                result[tier] = admitted
            }
            return result
        }
        var proteinGroupsMin: Int?
        var penalty: [String: Double]?
        var penaltyLocations: [(group: String, location: SourceLocation?)] = []
        var repeatPenalty: Double?
        var dayProteinFoods: Int?
        _ = document.mapping("variety") { variety -> Bool? in
            if let groups = variety.required("protein_food_groups_min", as: Double.self, in: 1...10) {
                if let whole = Int(exactly: groups) {
                    proteinGroupsMin = whole
                } else {
                    context.error("rules.value", "meals: 'variety.protein_food_groups_min' must be a whole number", at: variety.location(ofKey: "protein_food_groups_min"))
                }
            }
            penalty = variety.mapping("food_group_penalty") { map -> [String: Double]? in
                var result: [String: Double] = [:]
                for key in map.keys {
                    penaltyLocations.append((key, map.location(ofKey: key)))
                    result[key] = map.required(key, as: Double.self, in: 0...10)
                }
                return result
            }
            repeatPenalty = variety.required("repeat_penalty", as: Double.self, in: 0...10)
            if let foods = variety.required("day_protein_foods_min", as: Double.self, in: 1...50) {
                if let whole = Int(exactly: foods) {
                    dayProteinFoods = whole
                } else {
                    context.error("rules.value", "meals: 'variety.day_protein_foods_min' must be a whole number", at: variety.location(ofKey: "day_protein_foods_min"))
                }
            }
            return true
        }
        let proteinStep = document.required("unserved_protein_step_g_per_kg", as: Double.self, in: 0.01...1)
        var optionRange: ClosedRange<Int>?
        if let options {
            if options.lowerBound >= 1, let low = Int(exactly: options.lowerBound), let high = Int(exactly: options.upperBound), low <= high {
                optionRange = low...high
            } else {
                context.error("rules.value", "meals: 'options_per_category' must be a range of whole numbers of at least 1", at: optionsLocation)
            }
        }
        guard let mealsDefault, let proteinPerMeal, let slots, let tolerancePct, let floor, let fallback, let optionRange, let rounding, let vegGrams,
              let tiers, let proteinGroupsMin, let penalty, let repeatPenalty, let dayProteinFoods, let proteinStep
        else { return nil }
        return MealsFile(
            mealsPerDayDefault: mealsDefault, proteinPerMealG: proteinPerMeal, slots: slots, tolerance: tolerancePct / 100,
            tolerances: MealTotals(
                protein: byMacro?[.protein] ?? tolerancePct / 100, carb: byMacro?[.carb] ?? tolerancePct / 100, fat: byMacro?[.fat] ?? tolerancePct / 100,
                kcal: byMacro?[.kcal] ?? tolerancePct / 100),
            toleranceFloor: floor, mealsPerDayFallback: fallback, optionsPerCategory: optionRange, roundingG: rounding, vegGrams: vegGrams, budgetTiers: tiers,
            proteinFoodGroupsMin: proteinGroupsMin, foodGroupPenalty: penalty, repeatPenalty: repeatPenalty,
            dayProteinFoodsMin: dayProteinFoods, unservedProteinStepPerKg: proteinStep, penaltyLocations: penaltyLocations)
    }

    /// Slots exist for every meal count a profile may ask for and every count the planner may fall back to.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        for (path, meals) in ruleSet.files(of: MealsFile.self) {
            if let fields = ruleSet.first(ProfileFieldsFile.self), let range = fields.range("meals_per_day"),
               let low = Int(exactly: range.lowerBound), let high = Int(exactly: range.upperBound), low <= high, high - low < 1_000 {
                for count in low...high where meals.slots[count] == nil {
                    context.error("rules.gap", "meals: no slots for \(count) meals per day, which profiles may ask for", at: SourceLocation(file: path, line: 1, column: 1))
                }
            }
            // Every food group named by the variety rules is one the catalog knows.
            let groups = ruleSet.all(IngredientsFile.self).flatMap(\.foodGroups)
            if !groups.isEmpty {
                for use in meals.penaltyLocations where !groups.contains(use.group) {
                    context.error(
                        "rules.unknown-reference",
                        "meals: food_group_penalty names '\(use.group)', which is not in catalogs/ingredients.yaml 'food_groups'\(Suggestion.clause(for: use.group, among: groups))",
                        at: use.location ?? SourceLocation(file: path, line: 1, column: 1))
                }
            }
            for count in meals.mealsPerDayFallback where meals.slots[count] == nil {
                context.error("rules.gap", "meals: no slots for \(count) meals per day, which meals_per_day_fallback may choose", at: SourceLocation(file: path, line: 1, column: 1))
            }
        }
    }
}
