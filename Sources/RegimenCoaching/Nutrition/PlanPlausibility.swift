import RegimenLanguage
import RegimenRules

/// The plan part of `rules/plausibility.yaml`: the range each number a plan gives a client must
/// stay in (a day's kcal and macros, a set's load).
///
/// The formulas and ranges that make these numbers are each checked when the rules load; this is
/// the last guard on their combination. A day outside its range is the rules' error, never a
/// number the client sees: a plan for a grid profile outside it means a floor, a multiplier or a
/// macro rule is wrong.
struct PlanPlausibility: Sendable, Hashable {
    package typealias Range = PlausibilityFile.Range

    package var kcal: Range
    package var proteinG: Range
    package var fatG: Range
    package var carbG: Range
    /// The heaviest (and lightest) load a set may carry; adapt holds a load instead of leaving it.
    var loadKg: Range

    /// The plan part of rules/plausibility.yaml. A range the file lacks (it failed to load, and
    /// loading reported that) does not constrain.
    init(_ rules: PlausibilityFile) {
        let open = Range(low: -Double.greatestFiniteMagnitude, high: .greatestFiniteMagnitude)
        kcal = rules.plan["kcal"] ?? open
        proteinG = rules.plan["protein_g"] ?? open
        fatG = rules.plan["fat_g"] ?? open
        carbG = rules.plan["carb_g"] ?? open
        loadKg = rules.plan["load_kg"] ?? open
    }

    /// The load range as adapt uses it: within the most a plan document may hold, whatever the
    /// rules say (check refuses a wider one).
    var loadLimit: ClosedRange<Double> {
        let hard = PlanView.plausible.loadKg
        let low = min(max(loadKg.low, hard.lowerBound), hard.upperBound)
        let high = max(min(loadKg.high, hard.upperBound), low)
        return low...high
    }

    /// Each number of a day outside its range, as `(name, value, range)`, in the plan's order.
    package func outside(kcal: Double, macros: DailyMacros) -> [(name: String, value: Double, range: Range)] {
        [("kcal", kcal, self.kcal), ("protein_g", macros.proteinG, proteinG), ("fat_g", macros.fatG, fatG), ("carb_g", macros.carbG, carbG)]
            .filter { !$0.2.contains($0.1) }
    }
}
