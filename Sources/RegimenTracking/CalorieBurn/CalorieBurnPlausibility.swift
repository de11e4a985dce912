import RegimenLanguage
import RegimenRules

extension CalorieBurnRules {
    /// A burn formula whose result leaves its plausible range, with where it is written.
    struct PlausibilityFailure: Sendable, Hashable {
        package var message: String
        package var location: SourceLocation?
    }

    /// Every formula of the file (the chosen one and the named alternatives) over the grid of
    /// the file's own limits: the shortest, an hour's and the longest duration, the lightest,
    /// the default and the heaviest weight, and both ends of every intensity level's MET band
    /// from 1 MET up. The burn per kg and hour must stay in `range`
    /// (rules/plausibility.yaml, `burn.kcal_per_kg_hour`): `* 1e18`, `* -1` (which rounding would
    /// hide as 0 kcal) or `/ 2000` is a mistake in the formula, reported at it with the first
    /// grid point that shows it. At most one failure per formula, in the formulas' name order.
    func implausibleFormulas(_ range: PlausibilityFile.Range) -> [PlausibilityFailure] {
        let minutes = Set([durationMinutes.lowerBound, min(max(60, durationMinutes.lowerBound), durationMinutes.upperBound), durationMinutes.upperBound])
            .filter { $0 > 0 }.sorted()
        let weights = Set([weightKg.lowerBound, defaultWeightKg, weightKg.upperBound]).filter { $0 > 0 }.sorted()
        let mets = Set(levels.flatMap { [$0.minMET, $0.maxMET] }).filter { $0 >= 1 }.sorted()
        var failures: [PlausibilityFailure] = []
        for (name, formula) in formulas.sorted(by: { $0.key < $1.key }) {
            search: for duration in minutes {
                for met in mets {
                    for weight in weights {
                        let point = "\(duration) min at \(NumberText.rounded(met, decimals: 1)) MET and \(NumberText.rounded(weight, decimals: 1)) kg"
                        let kcal: Double
                        do {
                            kcal = try formula.kcal.number([
                                CalorieBurnVariables.minutes.name: .int(Int64(duration)), CalorieBurnVariables.met.name: .float(met),
                                CalorieBurnVariables.weightKg.name: .float(weight),
                            ])
                        } catch {
                            failures.append(PlausibilityFailure(message: "formula '\(name)': fails for \(point): \(error)", location: formula.kcal.location))
                            break search
                        }
                        let perKgHour = kcal / (weight * Double(duration) / 60)
                        if let problem = PlausibilityFile.outside(perKgHour, range, what: "formula '\(name)': kcal per kg and hour", for: point) {
                            let burned = kcal.isFinite ? "\(NumberText.rounded(kcal, decimals: 1)) kcal" : "a non-finite number"
                            failures.append(PlausibilityFailure(message: "\(problem) [burn.kcal_per_kg_hour]; the formula gives \(burned)", location: formula.kcal.location))
                            break search
                        }
                    }
                }
            }
        }
        return failures
    }
}
