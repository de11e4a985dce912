import RegimenLanguage
import RegimenRules

/// The variables the index formulas of `rules/indexes.yaml` read, declared once: the file
/// compiles its formulas against them (types checked), the calculator binds exactly them, and
/// `regimen explain-kind indexes` and the file's header print them.
enum IndexVariables {
    typealias V = VariableDeclaration

    static let sex = V("sex", .oneOf(Profile.Sex.allCases.map(\.rawValue)), "'male' or 'female'")
    static let age = V("age", .int, "years (from age_range when the profile gives no age)")
    static let heightCm = V("height_cm", .number, "centimetres (assumed from rules/profile-defaults.yaml when missing)")
    static let weightKg = V("weight_kg", .number, "kilograms (assumed from rules/profile-defaults.yaml when missing)")
    static let bodyfatPct = V("bodyfat_pct", ExpressionType.number.orNull, "body fat percent (5-60), null when not given")
    static let waistCm = V("waist_cm", ExpressionType.number.orNull, "centimetres, null when not given")
    static let activityMultiplier = V("activity_multiplier", .number, "rules/activity-multipliers.yaml's factor for the training days")
    static let assumed = V("assumed", .listOf(IndexCalculator.assumableFields), "names of the inputs filled from rules/profile-defaults.yaml")
    static let lbmKg = V("lbm_kg", ExpressionType.number.orNull, "lean body mass from lbm_kg; null without body fat (and before lbm_kg)")
    static let bmr = V("bmr", ExpressionType.number.orNull, "the BMR used (an override or the method's); null in lbm_kg and the methods")
    static let tdee = V("tdee", ExpressionType.number.orNull, "the TDEE used; null in the formulas before bmi")
    static let load = V("load", .number, "the set's load in kilograms")
    static let reps = V("reps", .int, "the set's repetitions")

    /// In slot order: the person's inputs, then each result as it is computed.
    static let person = [sex, age, heightCm, weightKg, bodyfatPct, waistCm, activityMultiplier, assumed, lbmKg, bmr, tdee]

    static let formulasScope = ExpressionScope(
        "bmr.methods (when, formula), lbm_kg, tdee, bmi, whtr, ffmi", "once per person, in the order lbm_kg, bmr, tdee, bmi, whtr, ffmi", person)
    static let oneRepMaxScope = ExpressionScope("one_rep_max.formula", "once per logged set", [load, reps])
}

extension ExpressionSlots {
    /// Binds a declared variable, so a name cannot drift from what the formulas were compiled against.
    mutating func set(_ variable: VariableDeclaration, _ value: Value) { set(variable.name, value) }
}
