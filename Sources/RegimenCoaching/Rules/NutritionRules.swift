import RegimenLanguage
import RegimenRules

/// `rules/nutrition.yaml`: the energy definition, calories by goal and the macro split.
public struct NutritionRules: RuleFileKind, Sendable {
    public static let kind = "nutrition"
    /// Variables point expressions may read, in slot order.
    public static let pointVariables = [
        "goal", "sex", "age", "is_minor", "weight_kg", "height_cm", "bodyfat_pct", "bmi", "tdee", "experience",
        "low", "mid", "high",
    ]

    /// A range a coach wrote and the expression that picks the point inside it.
    public struct RangedPoint: Sendable {
        public var range: ClosedRange<Double>
        public var point: CompiledExpression
    }

    /// What may give way, in order, when carbohydrate would fall below its floor.
    public enum GiveWay: String, Sendable, Hashable, CaseIterable {
        case protein, fat, kcal
    }

    /// Slot order of the point expressions' environment.
    public var pointSlotNames: [String]
    public var energy: EnergyFactors
    /// TDEE multiplier per canonical goal id.
    public var calories: [String: RangedPoint]
    public var proteinPerKg: RangedPoint
    public var fatPerKg: RangedPoint
    public var carbFloorPerKg: Double
    public var giveWay: [GiveWay]
    /// Per goal, the highest multiple of TDEE the give-way may lift the kcal target to.
    public var kcalCeilingMultiplier: [String: Double]

    public static func decode(_ document: inout MappingDecoder) -> NutritionRules? {
        let context = document.context
        let environment = context.environment(variables: pointVariables)
        func rangedPoint(_ map: inout MappingDecoder, rangeKey: String) -> RangedPoint? {
            let range = decodeRange(&map, rangeKey)
            let point = map.requiredExpression("point", in: environment)
            guard let range, let point else { return nil }
            return RangedPoint(range: range, point: point)
        }
        let energy = document.mapping("energy") { map -> EnergyFactors? in
            let definition = map.required("definition", as: String.self)
            let factors = map.mapping("kcal_per_g") { factors -> Macros? in
                let p = factors.required("protein", as: Double.self, in: 0...20)
                let c = factors.required("carb", as: Double.self, in: 0...20)
                let f = factors.required("fat", as: Double.self, in: 0...20)
                guard let p, let c, let f else { return nil }
                return Macros(protein: p, carb: c, fat: f)
            }
            guard let definition, let factors else { return nil }
            return EnergyFactors(definition: definition, kcalPerGram: factors)
        }
        let calories = document.mapping("calories") { map -> [String: RangedPoint]? in
            var result: [String: RangedPoint] = [:]
            for goal in map.keys {
                map.path = map.path.about("calories for '\(goal)'")
                result[goal] = map.mapping(goal) { entry in rangedPoint(&entry, rangeKey: "multiplier") }
            }
            return result
        }
        let macros = document.mapping("macros") { map -> (RangedPoint, RangedPoint, Double, [GiveWay], [String: Double])? in
            let protein = map.mapping("protein_g_per_kg") { rangedPoint(&$0, rangeKey: "range") }
            let fat = map.mapping("fat_g_per_kg") { rangedPoint(&$0, rangeKey: "range") }
            let floor = map.required("carb_floor_g_per_kg", as: Double.self, in: 0...10)
            let giveWayNames = map.required("give_way", as: [String].self)
            var giveWay: [GiveWay] = []
            for name in giveWayNames ?? [] {
                if let step = GiveWay(rawValue: name) {
                    giveWay.append(step)
                } else {
                    context.error("rules.value", "nutrition: give_way step '\(name)' must be one of protein, fat, kcal", at: map.location(ofKey: "give_way"))
                }
            }
            if giveWayNames != nil, !giveWay.contains(.kcal) {
                context.error("rules.value", "nutrition: give_way must end with kcal, or carbohydrate could stay below its floor", at: map.location(ofKey: "give_way"))
            }
            let ceilings = map.mapping("kcal_ceiling_multiplier") { entries -> [String: Double]? in
                var result: [String: Double] = [:]
                for goal in entries.keys {
                    if let value = entries.required(goal, as: Double.self, in: 0.5...2) { result[goal] = value }
                }
                return result
            }
            guard let protein, let fat, let floor, giveWayNames != nil, let ceilings else { return nil }
            return (protein, fat, floor, giveWay, ceilings)
        }
        guard let energy, let calories, let macros else { return nil }
        return NutritionRules(
            pointSlotNames: environment.variables, energy: energy, calories: calories, proteinPerKg: macros.0, fatPerKg: macros.1, carbFloorPerKg: macros.2,
            giveWay: macros.3, kcalCeilingMultiplier: macros.4)
    }

    /// Every goal has a calorie rule and every calorie rule names a goal.
    public static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        guard let goals = ruleSet.first(GoalRules.self) else { return }
        for (path, nutrition) in ruleSet.files(of: NutritionRules.self) {
            let ids = Set(goals.goals.map(\.id))
            for goal in ids.subtracting(nutrition.calories.keys).sorted() {
                context.error("rules.gap", "nutrition: no calorie rule for goal '\(goal)'", at: SourceLocation(file: path, line: 1, column: 1))
            }
            for name in Set(nutrition.calories.keys).subtracting(ids).sorted() {
                context.error("rules.reference", "nutrition: calorie rule for '\(name)', which is not a goal id in rules/goals.yaml", at: SourceLocation(file: path, line: 1, column: 1))
            }
            for name in Set(nutrition.kcalCeilingMultiplier.keys).subtracting(ids).sorted() {
                context.error("rules.reference", "nutrition: kcal_ceiling_multiplier for '\(name)', which is not a goal id in rules/goals.yaml", at: SourceLocation(file: path, line: 1, column: 1))
            }
        }
    }

    public var ruleCount: Int { calories.count + 2 }
}

/// `rules/meals.yaml`: meal slots and the allocator's settings.
public struct MealRules: RuleFileKind, Sendable {
    public static let kind = "meals"

    public struct Slot: Sendable, Hashable {
        public var name: String
        public var weight: Double
    }

    public var mealsPerDayDefault: CompiledExpression
    public var proteinPerMealG: ClosedRange<Double>
    /// Slots by meals per day.
    public var slots: [Int: [Slot]]
    public var tolerance: Double
    /// The narrowest half-width of the band per measure (grams of each macro, kcal).
    public var toleranceFloor: MealTotals
    /// Numbers of meals a day the planner may fall back to when the asked number cannot be portioned.
    public var mealsPerDayFallback: ClosedRange<Int>
    public var optionsPerCategory: ClosedRange<Int>
    public var roundingG: [IngredientCategory: Double]
    public var vegGrams: CompiledExpression
    public var budgetTiers: [Profile.BudgetTier: [Profile.BudgetTier]]

    public static func decode(_ document: inout MappingDecoder) -> MealRules? {
        let context = document.context
        let mealsDefault = document.requiredExpression("meals_per_day_default", in: context.environment(variables: ["protein_g"]))
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
        let vegGrams = document.requiredExpression("veg_grams", in: context.environment(variables: ["meal_kcal"]))
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
        var optionRange: ClosedRange<Int>?
        if let options {
            if options.lowerBound >= 1, let low = Int(exactly: options.lowerBound), let high = Int(exactly: options.upperBound), low <= high {
                optionRange = low...high
            } else {
                context.error("rules.value", "meals: 'options_per_category' must be a range of whole numbers of at least 1", at: optionsLocation)
            }
        }
        guard let mealsDefault, let proteinPerMeal, let slots, let tolerancePct, let floor, let fallback, let optionRange, let rounding, let vegGrams,
              let tiers
        else { return nil }
        return MealRules(
            mealsPerDayDefault: mealsDefault, proteinPerMealG: proteinPerMeal, slots: slots, tolerance: tolerancePct / 100,
            toleranceFloor: floor, mealsPerDayFallback: fallback, optionsPerCategory: optionRange, roundingG: rounding, vegGrams: vegGrams, budgetTiers: tiers)
    }

    /// Slots exist for every meal count a profile may ask for and every count the planner may fall back to.
    public static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        for (path, meals) in ruleSet.files(of: MealRules.self) {
            if let fields = ruleSet.first(ProfileFieldRules.self), let range = fields.range("meals_per_day"),
               let low = Int(exactly: range.lowerBound), let high = Int(exactly: range.upperBound), low <= high, high - low < 1_000 {
                for count in low...high where meals.slots[count] == nil {
                    context.error("rules.gap", "meals: no slots for \(count) meals per day, which profiles may ask for", at: SourceLocation(file: path, line: 1, column: 1))
                }
            }
            for count in meals.mealsPerDayFallback where meals.slots[count] == nil {
                context.error("rules.gap", "meals: no slots for \(count) meals per day, which meals_per_day_fallback may choose", at: SourceLocation(file: path, line: 1, column: 1))
            }
        }
    }
}
