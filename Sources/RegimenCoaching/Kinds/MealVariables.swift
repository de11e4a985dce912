import RegimenLanguage
import RegimenRules

/// The variables the expressions of `rules/meals.yaml` read, declared once: the file compiles
/// them against these (types checked), the planner binds exactly them, and
/// `regimen explain-kind meals` and the file's header print them.
enum MealVariables {
    typealias V = VariableDeclaration

    static let proteinG = V("protein_g", .number, "the day's protein target in grams")
    static let mealKcal = V("meal_kcal", .number, "the meal's kcal sub-target")

    static let mealsPerDayScope = ExpressionScope("meals_per_day_default", "once per plan, when the profile gives no meals_per_day", [proteinG])
    static let vegGramsScope = ExpressionScope("veg_grams", "once per meal", [mealKcal])
}
