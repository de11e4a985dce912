import RegimenLanguage
import RegimenRules

/// The variables the formulas of `rules/calorie-burn.yaml` read, declared once: the file
/// compiles its formulas against them (types checked), the calculator and the daily log bind
/// exactly them, and `regimen explain-kind calorie_burn` and the file's header print them.
enum CalorieBurnVariables {
    typealias V = VariableDeclaration

    static let minutes = V("minutes", .int, "the activity's duration in minutes")
    static let met = V("met", .number, "the MET of the level's Compendium row, or the fallback's adjusted_met")
    static let weightKg = V("weight_kg", .number, "the person's kilograms (default_weight_kg when not given)")
    static let kcal = V("kcal", .number, "the chosen formula's kcal, before rounding")
    static let baseMET = V("base_met", .number, "the MET of the activity's single Compendium row")
    static let factor = V("factor", .number, "factor of the chosen level / factor of the row's level")
    static let minMET = V("min_met", .number, "the chosen level's min_met")
    static let maxMET = V("max_met", .number, "the chosen level's max_met")
    static let consumed = V("consumed", .number, "kcal eaten that day")
    static let burned = V("burned", .number, "kcal burned by that day's logged activities")

    static let kcalScope = ExpressionScope("formulas.*.kcal", "once per logged activity, the chosen formula only", [minutes, met, weightKg])
    static let roundingScope = ExpressionScope("rounding", "once per logged activity, on the formula's kcal", [kcal])
    static let adjustedMETScope = ExpressionScope(
        "adjusted_met", "once per activity logged at a level it has no Compendium row for", [baseMET, factor, minMET, maxMET])
    static let netScope = ExpressionScope("net_kcal", "once per day of the daily log", [consumed, burned])
}
