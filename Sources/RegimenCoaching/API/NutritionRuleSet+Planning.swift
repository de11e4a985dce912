extension NutritionRuleSet {
    /// The seed's `recalculateIndexes`: BMR (and its method), TDEE, BMI, WHtR, FFMI, the accuracy
    /// meter and the next best input, with every assumption, warning and tip.
    /// - Throws: ``RuleEvaluationError`` when a rule expression cannot be evaluated.
    package func recalculateIndexes(_ profile: Profile) throws(RuleEvaluationError) -> IndexReport {
        try IndexCalculator(rules: self).recalculate(profile)
    }

    /// Daily kcal and macros for the profile's goal and the meal plan with ingredient options.
    /// - Parameter indexes: the profile's indexes, when already computed.
    /// - Throws: ``RuleEvaluationError`` when a rule expression fails or picks a point outside its range.
    package func planNutrition(_ profile: Profile, indexes: IndexReport? = nil) throws(RuleEvaluationError) -> NutritionPlan {
        let report: IndexReport
        if let indexes {
            report = indexes
        } else {
            report = try recalculateIndexes(profile)
        }
        return try NutritionPlanner(rules: self).plan(profile, indexes: report)
    }

    /// Estimated one-rep max from a set (Epley by default, `rules/indexes.yaml`).
    func estimatedOneRepMax(load: Double, reps: Int) throws(RuleEvaluationError) -> Double {
        try IndexCalculator(rules: self).oneRepMax(load: load, reps: reps)
    }
}
