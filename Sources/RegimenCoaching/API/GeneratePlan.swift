import RegimenLanguage

/// The nutrition half of the `generatePlan` response (docs/requirements.md#generateplan), in its
/// field names, as the nutrition planner produces it: `idx`, `kcal`, `macros`, `ingredients`,
/// `confidence`, `tips`.
struct PlanNutritionSection: Sendable, Hashable {
    var idx: Value
    package var kcal: Value
    package var macros: Value
    var ingredients: Value
    var confidence: Value
    var tips: [String]
    /// How the targets were reached (an addition to the seed's fields): the calorie precedence's
    /// decision, the basis of the macros and what gave way. `null` leaves the field out.
    var accounting: Value

    init(idx: Value, kcal: Value, macros: Value, ingredients: Value, confidence: Value, tips: [String], accounting: Value = .null) {
        self.idx = idx
        self.kcal = kcal
        self.macros = macros
        self.ingredients = ingredients
        self.confidence = confidence
        self.tips = tips
        self.accounting = accounting
    }
}

/// Builds the seed's `generatePlan` response from a planned week and the nutrition section.
enum GeneratePlanResponse {
    /// `{idx, kcal, macros, workouts, ingredients, confidence, tips}` plus `training` (the week's
    /// accounting) and `nutrition` (how the calories and macros were reached). Without a nutrition section only the training fields are present.
    static func make(training: TrainingWeek, nutrition: PlanNutritionSection?, explain: Bool = false) -> Value {
        var fields: [(String, Value)] = [
            ("training", training.contractSummary(explain: explain)),
            ("workouts", training.contractWorkouts(explain: explain)),
        ]
        var tips = nutrition?.tips ?? []
        tips.append(contentsOf: training.tips)
        fields.append(("tips", .list(tips.map(Value.string))))
        if let nutrition {
            fields.append(contentsOf: [
                ("idx", nutrition.idx), ("kcal", nutrition.kcal), ("macros", nutrition.macros),
                ("ingredients", nutrition.ingredients), ("confidence", nutrition.confidence),
            ])
            if !nutrition.accounting.isNull { fields.append(("nutrition", nutrition.accounting)) }
        }
        return sortedMap(fields)
    }
}
