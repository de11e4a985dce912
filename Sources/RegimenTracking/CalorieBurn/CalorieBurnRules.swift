import RegimenLanguage

/// `rules/calorie-burn.yaml`: formulas, intensity levels and input limits.
package struct CalorieBurnRules: Sendable {
    /// A MET band a chosen intensity maps into (light < 3.0, moderate 3.0–5.9, vigorous ≥ 6.0;
    /// docs/requirements.md#calorie-burn).
    package struct IntensityLevel: Sendable, Hashable {
        package var id: String
        /// Lowest MET of the level, inclusive.
        var minMET: Double
        /// Highest MET the level reports after adjustment.
        var maxMET: Double
        /// How the level scales an activity's base MET.
        var factor: Double

    }

    /// A named kcal formula. Variables: `minutes`, `met`, `weight_kg`.
    package struct BurnFormula: Sendable {
        package var name: String
        package var description: String
        package var kcal: Formula

    }

    /// The formula in use.
    package var formula: BurnFormula
    /// Every formula the file offers, by name.
    package var formulas: [String: BurnFormula]
    /// Rounds and clamps raw kcal. Variable: `kcal`.
    var rounding: Formula
    var defaultWeightKg: Double
    package var weightKg: ClosedRange<Double>
    var durationMinutes: ClosedRange<Int>
    /// Lowest band first.
    var levels: [IntensityLevel]
    /// Variables: `base_met`, `factor`, `min_met`, `max_met`.
    var adjustedMET: Formula
    /// Variables: `consumed`, `burned`.
    var netKcal: Formula

    init(formula: BurnFormula, formulas: [String: BurnFormula], rounding: Formula, defaultWeightKg: Double,
                weightKg: ClosedRange<Double>, durationMinutes: ClosedRange<Int>, levels: [IntensityLevel],
                adjustedMET: Formula, netKcal: Formula) {
        self.formula = formula
        self.formulas = formulas
        self.rounding = rounding
        self.defaultWeightKg = defaultWeightKg
        self.weightKg = weightKg
        self.durationMinutes = durationMinutes
        self.levels = levels.sorted { $0.minMET < $1.minMET }
        self.adjustedMET = adjustedMET
        self.netKcal = netKcal
    }

    /// The same rules computing kcal with another of the file's formulas.
    package func using(formula name: String) -> CalorieBurnRules? {
        guard let chosen = formulas[name] else { return nil }
        var copy = self
        copy.formula = chosen
        return copy
    }

    package func level(_ id: String) -> IntensityLevel? { levels.first { $0.id == id } }

    /// The level a MET value falls in: the highest level whose `minMET` it reaches.
    package func level(forMET met: Double) -> IntensityLevel? { levels.last { met >= $0.minMET } }
}
