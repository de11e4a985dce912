import RegimenLanguage

/// `rules/calorie-burn.yaml`: formulas, intensity levels and input limits.
public struct CalorieBurnRules: Sendable {
    /// A MET band a chosen intensity maps into (light < 3.0, moderate 3.0–5.9, vigorous ≥ 6.0;
    /// docs/requirements.md#calorie-burn).
    public struct IntensityLevel: Sendable, Hashable {
        public var id: String
        /// Lowest MET of the level, inclusive.
        public var minMET: Double
        /// Highest MET the level reports after adjustment.
        public var maxMET: Double
        /// How the level scales an activity's base MET.
        public var factor: Double

        public init(id: String, minMET: Double, maxMET: Double, factor: Double) {
            self.id = id
            self.minMET = minMET
            self.maxMET = maxMET
            self.factor = factor
        }
    }

    /// A named kcal formula. Variables: `minutes`, `met`, `weight_kg`.
    public struct BurnFormula: Sendable {
        public var name: String
        public var description: String
        public var kcal: Formula

        public init(name: String, description: String, kcal: Formula) {
            self.name = name
            self.description = description
            self.kcal = kcal
        }
    }

    /// The formula in use.
    public var formula: BurnFormula
    /// Every formula the file offers, by name.
    public var formulas: [String: BurnFormula]
    /// Rounds and clamps raw kcal. Variable: `kcal`.
    public var rounding: Formula
    public var defaultWeightKg: Double
    public var weightKg: ClosedRange<Double>
    public var durationMinutes: ClosedRange<Int>
    /// Lowest band first.
    public var levels: [IntensityLevel]
    /// Variables: `base_met`, `factor`, `min_met`, `max_met`.
    public var adjustedMET: Formula
    /// Variables: `consumed`, `burned`.
    public var netKcal: Formula

    public init(formula: BurnFormula, formulas: [String: BurnFormula], rounding: Formula, defaultWeightKg: Double,
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
    public func using(formula name: String) -> CalorieBurnRules? {
        guard let chosen = formulas[name] else { return nil }
        var copy = self
        copy.formula = chosen
        return copy
    }

    public func level(_ id: String) -> IntensityLevel? { levels.first { $0.id == id } }

    /// The level a MET value falls in: the highest level whose `minMET` it reaches.
    public func level(forMET met: Double) -> IntensityLevel? { levels.last { met >= $0.minMET } }
}
