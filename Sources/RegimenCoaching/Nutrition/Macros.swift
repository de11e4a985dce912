/// Grams of protein, carbohydrate and fat: a food's content per gram or per 100 g, an amount of
/// food, or a target.
package struct Macros: Sendable, Hashable {
    package var protein: Double
    package var carb: Double
    package var fat: Double

    static let zero = Macros(protein: 0, carb: 0, fat: 0)

    /// The macro by nutrient.
    subscript(nutrient: MacroNutrient) -> Double {
        get {
            switch nutrient {
            case .protein: protein
            case .carb: carb
            case .fat: fat
            }
        }
        set {
            switch nutrient {
            case .protein: protein = newValue
            case .carb: carb = newValue
            case .fat: fat = newValue
            }
        }
    }

    package static func + (lhs: Macros, rhs: Macros) -> Macros {
        Macros(protein: lhs.protein + rhs.protein, carb: lhs.carb + rhs.carb, fat: lhs.fat + rhs.fat)
    }

    package static func * (lhs: Macros, factor: Double) -> Macros {
        Macros(protein: lhs.protein * factor, carb: lhs.carb * factor, fat: lhs.fat * factor)
    }
}

/// The three energy-yielding macronutrients the planner budgets.
enum MacroNutrient: String, Sendable, Hashable, CaseIterable {
    case protein, carb, fat
}

/// The one definition of food energy the planner uses: kcal per gram of each macronutrient.
///
/// Targets, meal sub-targets and ingredient options all go through the same factors
/// (`rules/nutrition.yaml`, `energy`), so "the macros add up to the kcal" and "an option's kcal"
/// are the same arithmetic.
struct EnergyFactors: Sendable, Hashable {
    /// The name the rule file gives the definition, e.g. `atwater_general`.
    var definition: String
    var kcalPerGram: Macros

    /// kcal of an amount of macros.
    package func kcal(_ macros: Macros) -> Double {
        macros.protein * kcalPerGram.protein + macros.carb * kcalPerGram.carb + macros.fat * kcalPerGram.fat
    }
}
