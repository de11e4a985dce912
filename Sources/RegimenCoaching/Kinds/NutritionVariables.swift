import RegimenLanguage
import RegimenRules

/// The variables the point expressions of `rules/nutrition.yaml` read, declared once: the file
/// compiles its points against them (types checked), the planner binds exactly them, and
/// `regimen explain-kind nutrition` and the file's header print them.
enum NutritionVariables {
    typealias V = VariableDeclaration

    static let goal = V("goal", .named("goal"), "the goal id (rules/goals.yaml): the profile's, or the default goal")
    static let sex = V("sex", .oneOf(Profile.Sex.allCases.map(\.rawValue)), "'male' or 'female'")
    static let age = V("age", .int, "years, as the indexes used it (from age_range when the profile gives no age)")
    static let isMinor = V("is_minor", .bool, "whether the person is under rules/age-ranges.yaml's minor age")
    static let weightKg = V("weight_kg", .number, "kilograms the indexes used (assumed from rules/profile-defaults.yaml when missing)")
    static let heightCm = V("height_cm", .number, "centimetres the indexes used (assumed from rules/profile-defaults.yaml when missing)")
    static let bodyfatPct = V("bodyfat_pct", ExpressionType.number.orNull, "body fat percent, null when not given")
    static let bmi = V("bmi", ExpressionType.number.orNull, "the BMI used; null when height or weight was assumed")
    static let tdee = V("tdee", .number, "the TDEE used, kcal a day")
    static let experience = V("experience", ExpressionType.oneOf(Profile.Experience.allCases.map(\.rawValue)).orNull, "novice, intermediate or advanced; null when not given")
    static let low = V("low", .number, "the lower end of the expression's own range")
    static let mid = V("mid", .number, "the middle of the expression's own range")
    static let high = V("high", .number, "the upper end of the expression's own range")

    static let pointScope = ExpressionScope(
        "calories.*.point, macros.protein_g_per_kg.point, macros.protein_basis.lean_mass_g_per_kg.point, macros.fat_g_per_kg.point", "once per plan, for each range",
        [goal, sex, age, isMinor, weightKg, heightCm, bodyfatPct, bmi, tdee, experience, low, mid, high])
}
