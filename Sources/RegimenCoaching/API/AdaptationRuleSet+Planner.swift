package import RegimenLanguage
import OrderedCollections

extension ExerciseFacts {
    /// The facts adaptation needs about every exercise of the training catalog.
    package static func table(from catalog: ExerciseCatalog) -> [String: ExerciseFacts] {
        Dictionary(catalog.exercises.map { exercise in
            (exercise.id, ExerciseFacts(name: exercise.name, primaryMuscles: exercise.muscles, secondaryMuscles: exercise.secondaryMuscles,
                                        equipment: exercise.equipment, regressions: exercise.regressions,
                                        progressions: exercise.progressions))
        }, uniquingKeysWith: { first, _ in first })
    }
}

extension AdaptationRuleSet {
    /// ``adaptPlan(_:input:exercises:setCredit:)`` with the exercise facts and the set credits of
    /// the training rules, so that weekly sets are counted the way the plan counted them.
    ///
    /// With `nutrition`, a calorie change also re-portions the plan's meals: the ingredient options
    /// are planned again for the new macros, with the plan's budget tier, exclusions and number of
    /// meals, so that any one option per category still lands each meal within tolerance.
    package func adaptPlan(
        _ plan: Value, input: AdaptationInput, training: TrainingPlanner, nutrition: NutritionRuleSet? = nil
    ) throws(AdaptationInputError) -> AdaptationResult {
        var result = try adaptPlan(plan, input: input, exercises: ExerciseFacts.table(from: training.catalog),
                                   setCredit: training.rules.setCredit.value, calories: nutrition.map { CaloriePrecedence(rules: $0.nutrition) },
                                   loadLimit: nutrition?.planPlausibility.loadLimit ?? PlanView.plausible.loadKg)
        if let nutrition, result.patchedPlan["macros"] != plan["macros"] {
            replanMeals(&result, nutrition: nutrition)
        }
        if let nutrition { addOneRepMaxes(&result, input: input, nutrition: nutrition) }
        return result
    }

    /// Goal → its calorie band as multiples of TDEE (`calories.<goal>.multiplier`), as the
    /// calorie precedence reads it; the simulations check adapt's steps against it.
    static func calorieBands(_ nutrition: NutritionRuleSet) -> [String: ClosedRange<Double>] {
        nutrition.nutrition.calories.mapValues(\.range)
    }

    /// Each load change names the lift's estimated one-rep max from the logged sets it was based
    /// on (the best set by rules/indexes.yaml `one_rep_max`, Epley by default).
    private func addOneRepMaxes(_ result: inout AdaptationResult, input: AdaptationInput, nutrition: NutritionRuleSet) {
        let calculator = IndexCalculator(rules: nutrition)
        for index in result.changeLog.indices where result.changeLog[index].field == "load_kg" {
            let id = result.changeLog[index].target
            guard let logged = input.sessions.flatMap(\.exercises).last(where: { $0.exerciseId == id }) else { continue }
            let estimates = logged.sets.compactMap { set -> Double? in
                guard let load = set.loadKg, load > 0, set.reps >= 1 else { return nil }
                return try? calculator.oneRepMax(load: load, reps: set.reps)
            }
            guard let best = estimates.max() else { continue }
            let rounded = (best * 10).rounded() / 10
            var entry = result.changeLog[index]
            if entry.line.hasSuffix(")") {
                entry.line = String(entry.line.dropLast()) + "; est. 1RM \(ValueText.number(rounded, decimals: 1)) kg)"
            }
            entry.details.append(.map(["one_rep_max_kg": ValueNumber.value(rounded)]))
            result.changeLog[index] = entry
        }
    }

    /// Plans the meals again for the patched macros and logs it under the rule that changed calories.
    private func replanMeals(_ result: inout AdaptationResult, nutrition: NutritionRuleSet) {
        guard case .map(var root) = result.patchedPlan, case .map(var ingredients)? = root["ingredients"],
              let macros = root["macros"], let protein = macros["protein_g"]?.numberValue, let fat = macros["fat_g"]?.numberValue,
              let carb = macros["carb_g"]?.numberValue else { return }
        let meals = ingredients["meals"]?.listValue ?? []
        guard !meals.isEmpty else { return }
        let budget = ingredients["budget_tier"]?.stringValue.flatMap(Profile.BudgetTier.init(rawValue:)) ?? nutrition.defaults.budgetTier
        let exclusions = (ingredients["exclusions"]?.listValue ?? []).compactMap(\.stringValue)
        // The meal planner reads only the number of meals and the exclusions from a profile.
        let mealsProfile = Profile(sex: .female, scheduleDays: 1, mealsPerDay: meals.count, exclusions: exclusions)
        var tips: [String] = []
        let planned: [PlannedMeal]
        do {
            planned = try NutritionPlanner(rules: nutrition).planMeals(
                mealsProfile, macros: DailyMacros(proteinG: protein, fatG: fat, carbG: carb), budget: budget, tips: &tips)
        } catch {
            result.warnings.append("meal options could not be planned again for the new macros: \(error.message); the old options no longer add up")
            return
        }
        ingredients["meals"] = .list(planned.map(\.jsonValue))
        root["ingredients"] = .map(ingredients)
        result.patchedPlan = .map(root)
        guard let calories = result.changeLog.last(where: { $0.field == "kcal" }) else { return }
        let before: [Value] = meals.compactMap { $0["targets"]?["kcal"] }
        let after: [Value] = planned.map { .int(Int64($0.targets.kcal)) }
        let kcal = ValueText.display(calories.after)
        result.changeLog.append(ChangeLogEntry(
            rule: calories.rule, target: "meals", field: "ingredients", before: .list(before), after: .list(after),
            reason: calories.reason, line: "Meal options re-portioned for \(kcal) kcal (\(calories.reason))"))
    }

    /// `regimen diff OLD NEW`: the fields that changed, what the auto-adjust matrix says they
    /// affect (docs/requirements.md#adaptation-matrix), and how those outputs changed, each with
    /// the matrix's reason. The new
    /// profile's plan is generated once and only the areas the matrix lists are taken from it
    /// (``ProfileDiff/patchedPlan``); everything else stays as the old plan had it.
    /// - Throws: ``PlanGenerationError`` when either profile's plan cannot be generated.
    package func diffProfiles(old: Profile, new: Profile, planner: PlanGenerator) throws(PlanGenerationError) -> ProfileDiff {
        let differ = ProfileDiffer(matrix: matrix)
        let areas = differ.areas(for: differ.changedFields(old: old, new: new).map(\.field))
        let oldPlan = try planner.generatePlan(old).jsonValue()
        let newPlan = areas.isEmpty ? oldPlan : try planner.generatePlan(new).jsonValue()
        var oldAdvice: SupplementAdvice?
        var newAdvice: SupplementAdvice?
        if areas.contains(.supplements) {
            oldAdvice = try? adviseSupplements(for: old, nutrition: planner.nutrition)
            newAdvice = try? adviseSupplements(for: new, nutrition: planner.nutrition)
        }
        return differ.diff(old: old, new: new, oldPlan: oldPlan, newPlan: newPlan, oldSupplements: oldAdvice, newSupplements: newAdvice)
    }
}
