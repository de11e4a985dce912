import RegimenLanguage

extension ExerciseFacts {
    /// The facts adaptation needs about every exercise of the training catalog.
    public static func table(from catalog: ExerciseCatalog) -> [String: ExerciseFacts] {
        Dictionary(catalog.exercises.map { exercise in
            (exercise.id, ExerciseFacts(name: exercise.name, primaryMuscles: exercise.muscles, secondaryMuscles: exercise.secondaryMuscles,
                                        equipment: exercise.equipment, regressions: exercise.regressions))
        }, uniquingKeysWith: { first, _ in first })
    }
}

extension AdaptationRuleSet {
    /// ``adaptPlan(_:input:exercises:secondaryFraction:)`` with the exercise facts and the
    /// secondary-set fraction of the training rules, so that weekly sets are counted the way the
    /// plan counted them.
    public func adaptPlan(_ plan: Value, input: AdaptationInput, training: TrainingPlanner) throws(AdaptationInputError) -> AdaptationResult {
        try adaptPlan(plan, input: input, exercises: ExerciseFacts.table(from: training.catalog),
                      secondaryFraction: training.rules.secondarySetFraction.value)
    }

    /// `regimen diff OLD NEW` (seed §11): the fields that changed, what the auto-adjust matrix
    /// says they affect, and how those outputs changed, each with the matrix's reason. The new
    /// profile's plan is generated once and only the areas the matrix lists are taken from it
    /// (``ProfileDiff/patchedPlan``); everything else stays as the old plan had it.
    /// - Throws: ``PlanGenerationError`` when either profile's plan cannot be generated.
    public func diffProfiles(old: Profile, new: Profile, planner: PlanGenerator) throws(PlanGenerationError) -> ProfileDiff {
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
