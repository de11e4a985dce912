import Foundation
import OrderedCollections
public import RegimenLanguage
import RegimenRules

/// Daily calories and macros in whole units, as reported.
public struct DailyMacros: Sendable, Hashable {
    /// Protein in grams per day.
    public var proteinG: Double
    /// Fat in grams per day.
    public var fatG: Double
    /// Carbohydrate in grams per day.
    public var carbG: Double
}

/// One meal slot: its sub-targets and the options the allocator found (or why it found none).
public struct PlannedMeal: Sendable, Hashable {
    /// The slot's name (`breakfast`, `lunch`, …).
    public var slot: String
    package var targets: MealTargets
    /// Grams of vegetables the meal adds beside its options.
    public var vegGrams: Double
    package var allocation: MealAllocation

    /// Whether the meal has no ingredient options.
    var isUnserved: Bool { if case .infeasible = allocation { true } else { false } }
}

/// The nutrition part of a plan: kcal, macros, meals with options, and what was decided on the way.
public struct NutritionPlan: Sendable, Hashable {
    /// The goal the plan was made for (`fat_loss`, `maintenance`, …).
    public var goal: String
    /// How the day's energy was defined, as the goal's rule says.
    public var energyDefinition: String
    /// Total daily energy expenditure the plan starts from, in kcal/day.
    public var tdee: Double
    /// The TDEE multiplier the goal's rule picked.
    public var multiplier: Double
    /// How the calorie precedence (safety floors > pregnancy > goal band) treated TDEE × `multiplier`.
    var calories: CaloriePrecedence.Decision
    /// The day's calorie target.
    public var kcal: Double
    /// The day's macro targets.
    public var macros: DailyMacros
    /// Protein per kg of ``proteinBasis`` the rules chose.
    public var proteinPerKg: Double
    /// The kilograms protein was planned on: lean mass, adjusted or total body weight.
    package var proteinBasis: ProteinBasis
    /// Fat per kg of body weight the rules chose.
    public var fatPerKg: Double
    /// The body weight the targets were computed for, in kg.
    public var weightKgUsed: Double
    /// The budget tier ingredients were chosen for.
    public var budgetTier: Profile.BudgetTier
    /// Dietary patterns and allergens excluded from the options.
    public var exclusions: [String]
    /// How far a meal's kcal and protein may stray from their targets, as a fraction.
    public var tolerance: Double
    /// How far each measure of a meal may stray from its target, as fractions (carbohydrate and
    /// fat may have a wider band than kcal and protein; rules/meals.yaml says why).
    public var tolerances: MealTotals
    /// The narrowest half-width of every meal's band (grams of each macro, kcal).
    public var toleranceFloor: MealTotals
    /// The day's meals, in slot order.
    public var meals: [PlannedMeal]
    /// What the planner changed from the rules' first answer, in order: what gave way when
    /// carbohydrate would have fallen below its floor, and another number of meals a day when the
    /// asked number could not be portioned.
    public var adjustments: [String]
    /// Suggestions for the user.
    public var tips: [String]

    /// Whether every meal has options.
    public var isComplete: Bool {
        meals.allSatisfy { if case .options = $0.allocation { true } else { false } }
    }

    /// `kcal`, `macros` and `ingredients` in the seed's field names (generatePlan, 8.2), with each
    /// meal's `targets` so anyone can check the guarantee.
    public var jsonValue: Value {
        var map = OrderedDictionary<String, Value>()
        map["goal"] = .string(goal)
        map["kcal"] = .wholeNumber(kcal)
        map["macros"] = .map([
            "protein_g": .wholeNumber(macros.proteinG), "fat_g": .wholeNumber(macros.fatG), "carb_g": .wholeNumber(macros.carbG),
        ])
        map["ingredients"] = .map([
            "meals": .list(meals.map(\.jsonValue)),
            "budget_tier": .string(budgetTier.rawValue),
            "exclusions": .list(exclusions.map(Value.string)),
            "tolerance_pct": .rounded(tolerance * 100, places: 1),
            "tolerance_pct_by_macro": .map([
                "p": .rounded(tolerances.protein * 100, places: 1), "c": .rounded(tolerances.carb * 100, places: 1),
                "f": .rounded(tolerances.fat * 100, places: 1), "kcal": .rounded(tolerances.kcal * 100, places: 1),
            ]),
            "tolerance_floor": .map([
                "p": .rounded(toleranceFloor.protein, places: 1), "c": .rounded(toleranceFloor.carb, places: 1),
                "f": .rounded(toleranceFloor.fat, places: 1), "kcal": .rounded(toleranceFloor.kcal, places: 1),
            ]),
            "energy": .string(energyDefinition),
        ])
        map["basis"] = .map([
            "TDEE": .wholeNumber(tdee), "multiplier": .rounded(multiplier, places: 3),
            "protein_g_per_kg": .rounded(proteinPerKg, places: 2),
            "protein_basis": .string(proteinBasis.kind.rawValue), "protein_basis_kg": .rounded(proteinBasis.kilograms, places: 1),
            "protein_basis_rule": .string(proteinBasis.reason), "fat_g_per_kg": .rounded(fatPerKg, places: 2),
            "weight_kg": .rounded(weightKgUsed, places: 1), "calorie_precedence": calories.jsonValue,
        ])
        map["adjustments"] = .list(adjustments.map(Value.string))
        map["cautions"] = .list(cautions.map(Value.string))
        map["tips"] = .list(tips.map(Value.string))
        return .map(map)
    }
}

extension PlannedMeal {
    var jsonValue: Value {
        var map = OrderedDictionary<String, Value>()
        map["slot"] = .string(slot)
        map["targets"] = .map([
            "p": .rounded(targets.macros.protein, places: 1), "c": .rounded(targets.macros.carb, places: 1),
            "f": .rounded(targets.macros.fat, places: 1), "kcal": .wholeNumber(targets.kcal),
        ])
        switch allocation {
        case .options(let options):
            for category in IngredientCategory.allCases {
                map["\(category.rawValue)_opts"] = .list(options[category].map(\.jsonValue))
            }
        case .infeasible(let reason):
            for category in IngredientCategory.allCases { map["\(category.rawValue)_opts"] = .list([]) }
            map["unavailable"] = .string(reason)
        }
        return .map(map)
    }
}

extension IngredientOption {
    var jsonValue: Value {
        .map([
            "ingredientId": .string(ingredientId), "name": .string(name), "food_group": .string(foodGroup), "grams": .rounded(grams, places: 1), "p": .rounded(macros.protein, places: 1),
            "c": .rounded(macros.carb, places: 1), "f": .rounded(macros.fat, places: 1), "kcal": .wholeNumber(kcal),
            "budget_tier": .string(budgetTier.rawValue),
        ])
    }
}

/// Calories by goal, the macro split and the meal plan, with the rules' expressions.
struct NutritionPlanner: Sendable {
    package let rules: NutritionRuleSet

    init(rules: NutritionRuleSet) { self.rules = rules }

    /// Plans a profile's nutrition from its indexes.
    /// - Throws: ``RuleEvaluationError`` when a rule expression fails or picks a point outside its range.
    package func plan(_ profile: Profile, indexes: IndexReport) throws(RuleEvaluationError) -> NutritionPlan {
        let nutrition = rules.nutrition
        let energy = nutrition.energy
        let goal = profile.goal ?? rules.profile.goals.defaultGoal
        guard let calorieRule = nutrition.calories[goal] else {
            throw RuleEvaluationError("nutrition: no calorie rule for goal '\(goal)'", at: nil)
        }
        let weight = indexes.weightKgUsed
        var bindings = ExpressionSlots(names: nutrition.pointSlotNames)
        bindings.set(NutritionVariables.goal, .string(goal))
        bindings.set(NutritionVariables.sex, .string(profile.sex.rawValue))
        bindings.set(NutritionVariables.age, .int(Int64(indexes.ageUsed)))
        bindings.set(NutritionVariables.isMinor, .bool(indexes.isMinor))
        bindings.set(NutritionVariables.weightKg, .float(weight))
        bindings.set(NutritionVariables.heightCm, .float(indexes.heightCmUsed))
        bindings.set(NutritionVariables.bodyfatPct, profile.bodyfatPct.map(Value.float) ?? .null)
        bindings.set(NutritionVariables.bmi, indexes.bmi.map(Value.float) ?? .null)
        bindings.set(NutritionVariables.tdee, .float(indexes.tdee))
        bindings.set(NutritionVariables.experience, profile.experience.map { .string($0.rawValue) } ?? .null)
        func point(_ rule: NutritionFile.RangedPoint, name: String) throws(RuleEvaluationError) -> Double {
            let range = rule.range
            bindings.set(NutritionVariables.low, .float(range.lowerBound))
            bindings.set(NutritionVariables.mid, .float((range.lowerBound + range.upperBound) / 2))
            bindings.set(NutritionVariables.high, .float(range.upperBound))
            guard let value = try rule.point.number(bindings, rule: name) else {
                throw RuleEvaluationError("\(name): the point expression gave null", at: rule.point.source.lineOrigins.first)
            }
            // A point outside its range is a rule mistake, reported rather than clamped.
            guard range.contains(value) || abs(value - range.lowerBound) < 1e-9 || abs(value - range.upperBound) < 1e-9 else {
                throw RuleEvaluationError("\(name): the point \(exactly(value)) lies outside the range \(exactly(range.lowerBound))-\(exactly(range.upperBound))", at: rule.point.source.lineOrigins.first)
            }
            return value
        }
        let multiplier = try point(calorieRule, name: "calories for '\(goal)'")
        // The one calorie precedence: safety floors > pregnancy > the goal's band > the point.
        let calories = CaloriePrecedence(rules: nutrition).resolve(
            proposed: indexes.tdee * multiplier, CaloriePrecedence.Facts(profile: profile, indexes: indexes, goal: goal))
        var kcal = calories.kcal
        let basis = ProteinBasis(rules: nutrition.proteinBasis, indexes: indexes)
        let proteinRule = basis.kind == .leanMass ? nutrition.proteinBasis.leanMass : nutrition.proteinPerKg
        var proteinPerKg = try point(proteinRule, name: basis.kind == .leanMass ? "protein_basis.lean_mass_g_per_kg" : "protein_g_per_kg")
        let proteinKg = basis.kilograms
        var fatPerKg = try point(nutrition.fatPerKg, name: "fat_g_per_kg")
        let factors = energy.kcalPerGram
        func carbs() -> Double { (kcal - factors.protein * proteinPerKg * proteinKg - factors.fat * fatPerKg * weight) / factors.carb }
        let floor = nutrition.carbFloorPerKg * weight
        var adjustments: [String] = calories.reason.map { [$0] } ?? []
        // The goal's ceiling (fat loss: maintenance) never lies below what the precedence set: a
        // safety floor or pregnancy above maintenance becomes the ceiling.
        let goalCeiling = nutrition.kcalCeilingMultiplier[goal].map { indexes.tdee * $0 }
        let ceiling = goalCeiling.map { max($0, calories.kcal) }
        let ceilingText: String? = goalCeiling.map { goalLimit in
            if calories.kcal > goalLimit, let bound = calories.bound {
                return "\(formatted(calories.kcal.rounded())) kcal, the calorie precedence's \(bound.rawValue.replacingOccurrences(of: "_", with: " "))"
            }
            let multiplier = goalLimit / indexes.tdee
            return multiplier == 1 ? "maintenance (TDEE \(formatted(indexes.tdee.rounded())) kcal)" : "TDEE × \(exactly(multiplier)) (\(formatted(goalLimit.rounded())) kcal)"
        }
        for step in nutrition.giveWay where carbs() < floor {
            let shortKcal = (floor - carbs()) * factors.carb
            switch step {
            case .protein:
                let lowest = proteinRule.range.lowerBound
                let before = proteinPerKg
                proteinPerKg = max(lowest, proteinPerKg - shortKcal / factors.protein / proteinKg)
                if proteinPerKg < before {
                    adjustments.append("protein lowered from \(exactly(before)) to \(String(format: "%.2f", proteinPerKg)) g/kg\(basis.kind.perKgSuffix) to keep carbohydrate at its floor of \(formatted(floor)) g")
                }
            case .fat:
                let lowest = nutrition.fatPerKg.range.lowerBound
                let before = fatPerKg
                fatPerKg = max(lowest, fatPerKg - shortKcal / factors.fat / weight)
                if fatPerKg < before {
                    adjustments.append("fat lowered from \(exactly(before)) to \(String(format: "%.2f", fatPerKg)) g/kg to keep carbohydrate at its floor of \(formatted(floor)) g")
                }
            case .kcal:
                let before = kcal
                kcal = min(kcal + shortKcal, max(before, ceiling ?? .infinity))
                if ceiling != nil, let ceilingText, carbs() < floor {
                    if kcal > before {
                        adjustments.append("kcal raised from \(formatted(before.rounded())) to \(formatted(kcal.rounded())) (\(formatted(kcal / indexes.tdee * 100))% of TDEE) and no further")
                    }
                    adjustments.append(contentsOf: fitUnderCeiling(
                        kcal: kcal, limit: ceilingText, goal: goal, weight: weight, proteinKg: proteinKg, floor: floor, proteinPerKg: &proteinPerKg, fatPerKg: &fatPerKg))
                } else if kcal > before {
                    adjustments.append("kcal raised from \(formatted(before.rounded())) to \(formatted(kcal.rounded())) (\(formatted(kcal / indexes.tdee * 100))% of TDEE, outside the goal's ×\(exactly(calorieRule.range.lowerBound))-\(exactly(calorieRule.range.upperBound)) if it must) so protein and fat stay at their minimums and carbohydrate at its floor of \(formatted(floor)) g")
                }
            }
        }
        func dailyMacros() throws(RuleEvaluationError) -> DailyMacros {
            let macros = DailyMacros(
                proteinG: (proteinPerKg * proteinKg).rounded(.toNearestOrAwayFromZero),
                fatG: (fatPerKg * weight).rounded(.toNearestOrAwayFromZero),
                carbG: max(0, carbs()).rounded(.toNearestOrAwayFromZero))
            // The last guard on the rules' combination: a day no person eats is the rules' error.
            let implausible = rules.planPlausibility.outside(kcal: kcal.rounded(.toNearestOrAwayFromZero), macros: macros)
            if !implausible.isEmpty {
                let numbers = implausible.map { "\($0.name) \(NumberText.rounded($0.value, decimals: 1)) (plausible \($0.range.text))" }
                throw RuleEvaluationError(
                    "nutrition: the day planned for goal '\(goal)' gives \(numbers.joined(separator: ", ")) for this profile (rules/plausibility.yaml plan): a calorie floor, the goal's multiplier or a macro rule is wrong",
                    at: calorieRule.location)
            }
            return macros
        }
        var macros = try dailyMacros()
        let askedBudget = profile.budgetTier ?? rules.defaults.budgetTier
        var budget = askedBudget
        var tips: [String] = []
        let beforeMeals = adjustments
        var meals = try planMeals(profile, macros: macros, budget: &budget, tips: &tips, adjustments: &adjustments)
        // No number of meals and no budget tier feeds every meal: protein steps down toward the
        // bottom of its range until one does (rules/meals.yaml unserved_protein_step_g_per_kg),
        // and the plan says so; the range's bottom is never crossed.
        let step = rules.meals.unservedProteinStepPerKg
        let lowest = proteinRule.range.lowerBound
        if meals.contains(where: \.isUnserved), proteinPerKg - step >= lowest - 1e-9 {
            let asked = proteinPerKg
            let askedProtein = macros.proteinG
            var level = asked
            while level - step >= lowest - 1e-9 {
                level = max(lowest, level - step)
                proteinPerKg = level
                let lowered = try dailyMacros()
                var triedBudget = askedBudget, triedTips: [String] = [], triedAdjustments = beforeMeals
                let tried = try planMeals(profile, macros: lowered, budget: &triedBudget, tips: &triedTips, adjustments: &triedAdjustments)
                guard !tried.contains(where: \.isUnserved) else { continue }
                triedAdjustments.insert(
                    "protein lowered from \(exactly(asked)) to \(String(format: "%.2f", level)) g/kg\(basis.kind.perKgSuffix) (\(formatted(askedProtein)) to \(formatted(lowered.proteinG)) g, inside the rules' \(exactly(proteinRule.range.lowerBound))-\(exactly(proteinRule.range.upperBound))) so every meal has ingredient options: at \(exactly(asked)) g/kg no number of meals from \(rules.meals.mealsPerDayFallback.lowerBound) to \(rules.meals.mealsPerDayFallback.upperBound) and no budget tier keeps every combination within \(rules.meals.tolerances.toleranceWords) with these exclusions",
                    at: beforeMeals.count)
                (macros, meals, budget, tips, adjustments) = (lowered, tried, triedBudget, triedTips, triedAdjustments)
                break
            }
            if meals.contains(where: \.isUnserved) { proteinPerKg = asked }
        }
        return NutritionPlan(
            goal: goal, energyDefinition: energy.definition, tdee: indexes.tdee, multiplier: multiplier, calories: calories,
            kcal: kcal.rounded(.toNearestOrAwayFromZero), macros: macros, proteinPerKg: proteinPerKg, proteinBasis: basis, fatPerKg: fatPerKg,
            weightKgUsed: weight, budgetTier: budget, exclusions: profile.exclusions, tolerance: rules.meals.tolerance,
            tolerances: rules.meals.tolerances, toleranceFloor: rules.meals.toleranceFloor, meals: meals,
            adjustments: adjustments, tips: tips)
    }

    /// When a goal's kcal ceiling stops the kcal step, the floors give way instead so the macros
    /// add up to the target: carbohydrate takes what is left (down to 0 g), then fat and then
    /// protein fall below their ranges. Returns what was done, in words.
    private func fitUnderCeiling(
        kcal: Double, limit: String, goal: String, weight: Double, proteinKg: Double, floor: Double, proteinPerKg: inout Double, fatPerKg: inout Double
    ) -> [String] {
        let factors = rules.nutrition.energy.kcalPerGram
        var notes: [String] = []
        var remainder = kcal - factors.protein * proteinPerKg * proteinKg - factors.fat * fatPerKg * weight
        let carbGrams = max(0, remainder) / factors.carb
        notes.append("the kcal target stops at \(limit), the most a \(goal) target may be: carbohydrate gets the \(formatted(carbGrams.rounded())) g left, below its floor of \(formatted(floor)) g")
        if remainder < 0 {
            let before = fatPerKg
            fatPerKg = max(0, fatPerKg + remainder / factors.fat / weight)
            remainder -= (fatPerKg - before) * factors.fat * weight
            notes.append("fat lowered from \(String(format: "%.2f", before)) to \(String(format: "%.2f", fatPerKg)) g/kg, below its range, so the macros fit under \(formatted(kcal.rounded())) kcal")
        }
        if remainder < 0 {
            let before = proteinPerKg
            proteinPerKg = max(0, proteinPerKg + remainder / factors.protein / proteinKg)
            notes.append("protein lowered from \(String(format: "%.2f", before)) to \(String(format: "%.2f", proteinPerKg)) g/kg, below its range, so the macros fit under \(formatted(kcal.rounded())) kcal")
        }
        return notes
    }

    /// Splits the day over the meal slots and allocates each distinct meal once. What the
    /// planner changed on the way (another number of meals) is added to `tips`.
    func planMeals(_ profile: Profile, macros: DailyMacros, budget: Profile.BudgetTier, tips: inout [String]) throws(RuleEvaluationError) -> [PlannedMeal] {
        var notes: [String] = []
        var budget = budget
        let planned = try planMeals(profile, macros: macros, budget: &budget, tips: &tips, adjustments: &notes)
        tips.insert(contentsOf: notes, at: 0)
        return planned
    }

    /// Splits the day over the meal slots and allocates each distinct meal once. When some meal of
    /// the asked number cannot be portioned, other numbers within the rules' fallback range are
    /// tried (more meals first, then fewer) and the first that serves every meal is kept, with a
    /// note in `adjustments`. When no number of meals serves every meal at `budget`, the next
    /// budget tiers are tried the same way, and `budget` becomes the one that serves, with a note.
    func planMeals(
        _ profile: Profile, macros: DailyMacros, budget: inout Profile.BudgetTier, tips: inout [String], adjustments: inout [String]
    ) throws(RuleEvaluationError) -> [PlannedMeal] {
        let mealRules = rules.meals
        let count: Int
        if let asked = profile.mealsPerDay {
            count = asked
        } else {
            guard let value = try mealRules.mealsPerDayDefault.number([MealVariables.proteinG.name: .float(macros.proteinG)], rule: "meals_per_day_default"),
                  value == value.rounded(), let whole = Int(exactly: value)
            else {
                throw RuleEvaluationError("meals_per_day_default: expected a whole number of meals", at: mealRules.mealsPerDayDefault.source.lineOrigins.first)
            }
            count = whole
        }
        guard let slots = mealRules.slots[count], !slots.isEmpty else {
            throw RuleEvaluationError("meals: no slots for \(count) meals per day", at: nil)
        }
        let diets = rules.profile.diets
        let allowed = rules.catalog.ingredients.filter { diets.allows($0, under: profile.exclusions) }
        // A category the exclusions leave (nearly) empty is a gap no budget, meal count or
        // portioning can fill: every meal says so plainly.
        let minimum = mealRules.optionsPerCategory.lowerBound
        let gaps = IngredientCategory.allCases.compactMap { category -> (IngredientCategory, Int)? in
            let available = allowed.filter { $0.category == category }.count
            return available < minimum ? (category, available) : nil
        }
        if !gaps.isEmpty {
            let excluded = profile.exclusions.joined(separator: ", ")
            let what = gaps.map { $0.1 == 0 ? "no \($0.0.rawValue) source at all" : "only \($0.1) \($0.0.rawValue) source(s) (\(minimum) are needed)" }
            let reason = "the catalog has \(what.joined(separator: " and ")) once \(excluded) \(profile.exclusions.count == 1 ? "is" : "are") excluded"
            tips.append("No meal has ingredient options: \(reason). Plan these meals with a dietitian, or add suitable foods to catalogs/ingredients.yaml.")
            return try split(macros, over: slots).map { slot, targets throws(RuleEvaluationError) in
                PlannedMeal(slot: slot.name, targets: targets, vegGrams: try vegGrams(targets), allocation: .infeasible(reason))
            }
        }
        var allocator = IngredientAllocator(settings: AllocatorSettings(
            tolerance: mealRules.tolerance, toleranceFloor: mealRules.toleranceFloor, optionsPerCategory: mealRules.optionsPerCategory,
            roundingG: mealRules.roundingG, energy: rules.nutrition.energy, proteinFoodGroupsMin: mealRules.proteinFoodGroupsMin,
            foodGroupPenalty: mealRules.foodGroupPenalty, repeatPenalty: mealRules.repeatPenalty, tolerances: mealRules.tolerances))
        // Meals with equal targets share one search; each still shows its own choice from it, so
        // the day's later meals offer what the earlier ones did not (rules/meals.yaml, variety).
        var memo = IngredientAllocator.Memo()
        var eligible: [Ingredient] = []
        func admit(_ tier: Profile.BudgetTier) {
            let admitted = Set(mealRules.budgetTiers[tier] ?? [])
            eligible = allowed.filter { admitted.contains($0.budgetTier) }
            memo = IngredientAllocator.Memo()  // a memo holds searches over one list of candidates
        }
        admit(budget)
        func day(_ slots: [MealsFile.Slot]) throws(RuleEvaluationError) -> [PlannedMeal] {
            var planned: [PlannedMeal] = []
            var offered: Set<String> = []
            for (slot, targets) in split(macros, over: slots) {
                let veg = try vegGrams(targets)
                let allocation = allocator.allocate(targets: targets, vegGrams: veg, candidates: eligible, offered: offered, memo: &memo)
                if case .options(let options) = allocation {
                    for category in IngredientCategory.allCases { offered.formUnion(options[category].map(\.ingredientId)) }
                }
                planned.append(PlannedMeal(slot: slot.name, targets: targets, vegGrams: veg, allocation: allocation))
            }
            return planned
        }
        func firstUnserved(_ meals: [PlannedMeal]) -> (PlannedMeal, String)? {
            for meal in meals { if case .infeasible(let reason) = meal.allocation { return (meal, reason) } }
            return nil
        }
        /// The asked number of meals, or the first other number that serves every meal.
        func serveEveryMeal() throws(RuleEvaluationError) -> (planned: [PlannedMeal], chosen: Int, note: String?) {
            let planned = try day(slots)
            guard let (meal, reason) = firstUnserved(planned) else { return (planned, count, nil) }
            let fallback = mealRules.mealsPerDayFallback
            let others = Array((count + 1)...max(count + 1, fallback.upperBound)).filter { fallback.contains($0) }
                + Array(stride(from: count - 1, through: fallback.lowerBound, by: -1))
            for other in others {
                guard let otherSlots = mealRules.slots[other], !otherSlots.isEmpty else { continue }
                let attempt = try day(otherSlots)
                if firstUnserved(attempt) == nil {
                    let t = meal.targets
                    return (attempt, other, "meals per day \(other > count ? "raised" : "lowered") from \(count) to \(other): at \(count) meals a day a meal's targets (P \(formatted(t.macros.protein)) g, C \(formatted(t.macros.carb)) g, F \(formatted(t.macros.fat)) g, \(formatted(t.kcal)) kcal) cannot be portioned (\(reason))")
                }
            }
            return (planned, count, nil)
        }
        var (planned, chosen, note) = try serveEveryMeal()
        /// Options from one food group beat none (a soy-free vegan's beans, lentils and peas when
        /// seitan cannot stand beside them): tried once no number of meals serves the day, and
        /// said in the tips below.
        func relaxFoodGroups() throws(RuleEvaluationError) {
            guard firstUnserved(planned) != nil, allocator.settings.proteinFoodGroupsMin > 1 else { return }
            var relaxed = allocator.settings
            relaxed.proteinFoodGroupsMin = 1
            let strict = allocator
            allocator = IngredientAllocator(settings: relaxed)
            let attempt = try serveEveryMeal()
            if firstUnserved(attempt.planned) == nil {
                (planned, chosen, note) = attempt
            } else {
                allocator = strict
            }
        }
        try relaxFoodGroups()
        if firstUnserved(planned) != nil, let asked = Profile.BudgetTier.allCases.firstIndex(of: budget) {
            // The diet's foods at this budget cannot serve the day (a low-budget soy-free vegan's
            // only proteins are beans): the next tier's foods, named as such in every option.
            for wider in Profile.BudgetTier.allCases.suffix(from: asked + 1) {
                admit(wider)
                var attempt = try serveEveryMeal()
                if firstUnserved(attempt.planned) != nil, allocator.settings.proteinFoodGroupsMin > 1 {
                    let strict = allocator
                    var relaxed = allocator.settings
                    relaxed.proteinFoodGroupsMin = 1
                    allocator = IngredientAllocator(settings: relaxed)
                    attempt = try serveEveryMeal()
                    allocator = strict
                }
                guard firstUnserved(attempt.planned) == nil else { continue }
                adjustments.append("budget tier raised from \(budget.rawValue) to \(wider.rawValue) for the meal options: with \(budget.rawValue)-budget foods and these exclusions no number of meals from \(mealRules.mealsPerDayFallback.lowerBound) to \(mealRules.mealsPerDayFallback.upperBound) can be portioned; each option shows its tier")
                (planned, chosen, note) = attempt
                budget = wider
                break
            }
        }
        if let note { adjustments.append(note) }
        // Variety over the day (rules/meals.yaml variety.day_protein_foods_min): big meals leave
        // only the few leanest foods able to keep the guarantee, and every meal then offers the
        // same ones; more, smaller meals offer more foods. Only where the budget's foods could.
        let wanted = mealRules.dayProteinFoodsMin
        let shown = Self.proteinFoods(planned)
        if firstUnserved(planned) == nil, shown.count < wanted, Set(eligible.filter { $0.category == .protein }.map(\.id)).count >= wanted {
            for other in stride(from: chosen + 1, through: mealRules.mealsPerDayFallback.upperBound, by: 1) {
                guard let otherSlots = mealRules.slots[other], !otherSlots.isEmpty else { continue }
                let attempt = try day(otherSlots)
                let offered = Self.proteinFoods(attempt)
                guard firstUnserved(attempt) == nil, offered.count >= wanted else { continue }
                adjustments.append("meals per day raised from \(chosen) to \(other) for variety: at \(chosen) meals a day only \(shown.count) protein foods (\(Self.proteinFoodNames(planned).joined(separator: "; "))) keep every combination within \(mealRules.tolerances.toleranceWords), fewer than the \(wanted) a day should offer; \(other) meals offer \(offered.count)")
                planned = attempt
                chosen = other
                break
            }
        }
        let band = mealRules.proteinPerMealG
        if let perMeal = planned.first?.targets.macros.protein, !band.contains(perMeal) {
            tips.append("Protein per meal is \(formatted(perMeal)) g; the guide is \(formatted(band.lowerBound))-\(formatted(band.upperBound)) g where the day allows\(perMeal > band.upperBound && mealRules.slots[chosen + 1] != nil ? " (one more meal a day would bring it closer)" : "")")
        }
        let oneGroup = planned.compactMap { meal -> String? in
            guard case .options(let options) = meal.allocation, Set(options.protein.map(\.foodGroup)).count < mealRules.proteinFoodGroupsMin,
                  Set(eligible.filter { $0.category == .protein }.map(\.foodGroup)).count >= mealRules.proteinFoodGroupsMin
            else { return nil }
            return meal.slot
        }
        if !oneGroup.isEmpty {
            tips.append("Protein options of \(oneGroup.joined(separator: ", ")) come from fewer than \(mealRules.proteinFoodGroupsMin) food groups: no set spanning more keeps every combination within \(mealRules.tolerances.toleranceWords) with these exclusions and budget")
        }
        if firstUnserved(planned) != nil {
            tips.append("Some meals have no ingredient options: the catalog cannot keep every combination within \(mealRules.tolerances.toleranceWords) for them at any number of meals from \(mealRules.mealsPerDayFallback.lowerBound) to \(mealRules.mealsPerDayFallback.upperBound) or any budget tier. Fewer exclusions, or suitable foods added to catalogs/ingredients.yaml, widen the choice.")
        }
        return planned
    }

    /// The names of the protein foods a day's meals offer, in order of first appearance.
    static func proteinFoodNames(_ meals: [PlannedMeal]) -> [String] {
        var seen: Set<String> = []
        var names: [String] = []
        for meal in meals {
            guard case .options(let options) = meal.allocation else { continue }
            for option in options.protein where seen.insert(option.ingredientId).inserted { names.append(option.name) }
        }
        return names
    }

    /// The distinct protein foods a day's meals offer.
    static func proteinFoods(_ meals: [PlannedMeal]) -> Set<String> {
        var foods: Set<String> = []
        for meal in meals {
            if case .options(let options) = meal.allocation { foods.formUnion(options.protein.map(\.ingredientId)) }
        }
        return foods
    }

    /// Each slot's share of the day's macros, to 0.1 g, and its kcal by the plan's energy factors.
    private func split(_ macros: DailyMacros, over slots: [MealsFile.Slot]) -> [(MealsFile.Slot, MealTargets)] {
        let totalWeight = slots.reduce(0) { $0 + $1.weight }
        let energy = rules.nutrition.energy
        return slots.map { slot in
            let share = slot.weight / totalWeight
            let mealMacros = Macros(
                protein: roundedToTenth(macros.proteinG * share), carb: roundedToTenth(macros.carbG * share),
                fat: roundedToTenth(macros.fatG * share))
            return (slot, MealTargets(macros: mealMacros, kcal: energy.kcal(mealMacros).rounded(.toNearestOrAwayFromZero)))
        }
    }

    /// The weight every vegetable option of a meal gets (rules/meals.yaml `veg_grams`).
    private func vegGrams(_ targets: MealTargets) throws(RuleEvaluationError) -> Double {
        let mealRules = rules.meals
        guard let veg = try mealRules.vegGrams.number([MealVariables.mealKcal.name: .float(targets.kcal)], rule: "veg_grams"), veg > 0 else {
            throw RuleEvaluationError("veg_grams: expected a positive number of grams", at: mealRules.vegGrams.source.lineOrigins.first)
        }
        return veg
    }
}
