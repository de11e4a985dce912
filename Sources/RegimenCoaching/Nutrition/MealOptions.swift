import RegimenLanguage
/// A meal's sub-targets: grams of each macro (to 0.1 g) and kcal (whole kcal) by the plan's
/// single energy definition.
package struct MealTargets: Sendable, Hashable {
    package var macros: Macros
    package var kcal: Double

}

/// One suggested amount of one ingredient, with what it brings (0.1 g, whole kcal).
package struct IngredientOption: Sendable, Hashable {
    package var ingredientId: String
    /// The catalog's display name, as a person would write it ("Chicken breast, skinless, roasted").
    package var name: String
    /// The catalog's food group (`poultry`, `legumes`, …).
    var foodGroup: String
    package var grams: Double
    package var macros: Macros
    package var kcal: Double
    package var budgetTier: Profile.BudgetTier

    init(
        ingredientId: String, name: String, foodGroup: String, grams: Double, macros: Macros, kcal: Double, budgetTier: Profile.BudgetTier
    ) {
        self.ingredientId = ingredientId
        self.name = name
        self.foodGroup = foodGroup
        self.grams = grams
        self.macros = macros
        self.kcal = kcal
        self.budgetTier = budgetTier
    }
}

/// What the allocator offers for one meal: options per category, each list at least the rule's
/// minimum long.
package struct MealOptions: Sendable, Hashable {
    package var protein: [IngredientOption]
    package var carb: [IngredientOption]
    package var veg: [IngredientOption]
    package var fat: [IngredientOption]

    subscript(category: IngredientCategory) -> [IngredientOption] {
        switch category {
        case .protein: protein
        case .carb: carb
        case .veg: veg
        case .fat: fat
        }
    }

    /// The lowest and highest total any one-per-category pick can reach, per measure.
    ///
    /// Categories are picked independently, so the extremes of a sum are the sums of each
    /// category's extremes, and every combination lies between them: checking these two totals
    /// checks every combination.
    func totalsRange() -> (low: MealTotals, high: MealTotals) {
        var low = MealTotals.zero
        var high = MealTotals.zero
        for category in IngredientCategory.allCases {
            let options = self[category]
            guard let first = options.first else { continue }
            var lowest = MealTotals(protein: first.macros.protein, carb: first.macros.carb, fat: first.macros.fat, kcal: first.kcal)
            var highest = lowest
            for option in options.dropFirst() {
                for measure in MealMeasure.allCases {
                    let value = option.value(of: measure)
                    if value < lowest[measure] { lowest[measure] = value }
                    if highest[measure] < value { highest[measure] = value }
                }
            }
            for measure in MealMeasure.allCases {
                low[measure] += lowest[measure]
                high[measure] += highest[measure]
            }
        }
        return (low, high)
    }

    /// Whether every combination lies within `tolerance` of every target, or within `floor` of it
    /// where that is wider (the check without the words).
    func keepsGuarantee(targets: MealTargets, tolerance: Double, floor: MealTotals = .zero) -> Bool {
        keepsGuarantee(targets: targets, tolerances: .uniform(tolerance), floor: floor)
    }

    /// Whether every combination lies within each measure's tolerance (fractions per measure) of
    /// its target, or within `floor` of it where that is wider.
    func keepsGuarantee(targets: MealTargets, tolerances: MealTotals, floor: MealTotals = .zero) -> Bool {
        guard IngredientCategory.allCases.allSatisfy({ !self[$0].isEmpty }) else { return false }
        let (low, high) = totalsRange()
        for measure in MealMeasure.allCases {
            let target = targets.value(of: measure)
            let band = max(tolerances[measure] * target, floor[measure])
            let epsilon = 1e-9 * max(1, target)
            if low[measure] < target - band - epsilon || high[measure] > target + band + epsilon { return false }
        }
        return true
    }

    /// Every way the guarantee fails: a measure whose lowest or highest combination falls outside
    /// `targets` ± `tolerance` (a fraction, 0.10 for ±10%), or ± `floor` where that is wider. Empty
    /// when every combination is inside.
    func guaranteeViolations(targets: MealTargets, tolerance: Double, floor bandFloor: MealTotals = .zero) -> [String] {
        guaranteeViolations(targets: targets, tolerances: .uniform(tolerance), floor: bandFloor)
    }

    /// ``guaranteeViolations(targets:tolerance:floor:)`` with a tolerance per measure.
    func guaranteeViolations(targets: MealTargets, tolerances: MealTotals, floor bandFloor: MealTotals = .zero) -> [String] {
        var problems: [String] = []
        for category in IngredientCategory.allCases where self[category].isEmpty {
            problems.append("no \(category.rawValue) options")
        }
        let (low, high) = totalsRange()
        for measure in MealMeasure.allCases {
            let target = targets.value(of: measure)
            let band = max(tolerances[measure] * target, bandFloor[measure])
            let floor = target - band
            let ceiling = target + band
            // Values are shown rounded; a hair of floating-point noise is not a violation.
            let epsilon = 1e-9 * max(1, target)
            if low[measure] < floor - epsilon {
                problems.append("\(measure.label) can be as low as \(formatted(low[measure])) (below \(formatted(floor)))")
            }
            if high[measure] > ceiling + epsilon {
                problems.append("\(measure.label) can be as high as \(formatted(high[measure])) (above \(formatted(ceiling)))")
            }
        }
        return problems
    }
}

/// The four quantities the guarantee covers.
package enum MealMeasure: String, Sendable, Hashable, CaseIterable {
    case protein, carb, fat, kcal

    init(_ nutrient: MacroNutrient) {
        switch nutrient {
        case .protein: self = .protein
        case .carb: self = .carb
        case .fat: self = .fat
        }
    }

    var label: String {
        switch self {
        case .protein: "protein (g)"
        case .carb: "carbohydrate (g)"
        case .fat: "fat (g)"
        case .kcal: "kcal"
        }
    }
}

/// Totals of the four measures.
public struct MealTotals: Sendable, Hashable {
    /// Protein in grams.
    public var protein: Double
    /// Carbohydrate in grams.
    public var carb: Double
    /// Fat in grams.
    public var fat: Double
    /// Energy in kcal.
    public var kcal: Double

    /// Zero of every measure.
    public static let zero = MealTotals(protein: 0, carb: 0, fat: 0, kcal: 0)

    /// The same value for every measure.
    static func uniform(_ value: Double) -> MealTotals { MealTotals(protein: value, carb: value, fat: value, kcal: value) }

    /// Tolerances (fractions) in words: "±10%", or "±10% protein and kcal, ±25% carbohydrate and fat".
    package var toleranceWords: String {
        var groups: [(value: Double, labels: [String])] = []
        for measure in [MealMeasure.protein, .kcal, .carb, .fat] {
            let label = measure == .carb ? "carbohydrate" : measure.rawValue
            if let index = groups.firstIndex(where: { $0.value == self[measure] }) {
                groups[index].labels.append(label)
            } else {
                groups.append((self[measure], [label]))
            }
        }
        if groups.count == 1, let only = groups.first { return "±\(formatted(only.value * 100))%" }
        return groups.map { "±\(formatted($0.value * 100))% \($0.labels.joined(separator: " and "))" }.joined(separator: ", ")
    }

    package subscript(measure: MealMeasure) -> Double {
        get {
            switch measure {
            case .protein: protein
            case .carb: carb
            case .fat: fat
            case .kcal: kcal
            }
        }
        set {
            switch measure {
            case .protein: protein = newValue
            case .carb: carb = newValue
            case .fat: fat = newValue
            case .kcal: kcal = newValue
            }
        }
    }
}

extension IngredientOption {
    func value(of measure: MealMeasure) -> Double {
        switch measure {
        case .protein: macros.protein
        case .carb: macros.carb
        case .fat: macros.fat
        case .kcal: kcal
        }
    }
}

extension MealTargets {
    func value(of measure: MealMeasure) -> Double {
        switch measure {
        case .protein: macros.protein
        case .carb: macros.carb
        case .fat: macros.fat
        case .kcal: kcal
        }
    }
}

/// Rounds to one decimal place, half away from zero (what the output shows).
func roundedToTenth(_ value: Double) -> Double { (value * 10).rounded(.toNearestOrAwayFromZero) / 10 }

/// A number as the messages show it: at most one decimal place.
func formatted(_ value: Double) -> String { NumberText.tenths(value) }

/// A number with all its digits (for rule values such as 0.95), without a trailing `.0`.
func exactly(_ value: Double) -> String { NumberText.plain(value) }
