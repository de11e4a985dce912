import RegimenLanguage
import RegimenRules

/// `kind: calorie_burn` — decodes `rules/calorie-burn.yaml` into ``CalorieBurnRules``.
struct CalorieBurnFile: RuleFileKind {
    package static let kind = "calorie_burn"
    package static var expressionScopes: [ExpressionScope] {
        [CalorieBurnVariables.kcalScope, CalorieBurnVariables.roundingScope, CalorieBurnVariables.adjustedMETScope, CalorieBurnVariables.netScope]
    }
    package let rules: CalorieBurnRules

    package var ruleCount: Int { rules.formulas.count + rules.levels.count }

    /// Every formula over the file's own limits stays within `burn.kcal_per_kg_hour` of
    /// rules/plausibility.yaml, or the formula is wrong (``CalorieBurnRules/implausibleFormulas(_:)``).
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        guard let range = ruleSet.first(PlausibilityFile.self)?.burn["kcal_per_kg_hour"] else { return }
        for file in ruleSet.all(CalorieBurnFile.self) {
            for failure in file.rules.implausibleFormulas(range) { context.error("rules.plausibility", failure.message, at: failure.location) }
        }
    }

    package static func decode(_ document: inout MappingDecoder) -> CalorieBurnFile? {
        let context = document.context
        let chosen = document.required("formula", as: String.self)
        let chosenLocation = document.node["formula"]?.location
        var formulas: [String: CalorieBurnRules.BurnFormula] = [:]
        _ = document.mapping("formulas") { map -> Bool? in
            for name in map.keys {
                formulas[name] = map.mapping(name) { entry -> CalorieBurnRules.BurnFormula? in
                    entry.path = entry.path.about("formula '\(name)'")
                    let description = entry.required("description", as: String.self)
                    guard let kcal = entry.formula("kcal", declaring: CalorieBurnVariables.kcalScope.variables), let description else { return nil }
                    return CalorieBurnRules.BurnFormula(name: name, description: description, kcal: kcal)
                }
            }
            return true
        }
        let rounding = document.formula("rounding", declaring: CalorieBurnVariables.roundingScope.variables)
        let defaultWeight = document.required("default_weight_kg", as: Double.self, in: 1...1000)
        let weight = document.mapping("weight_kg") { map -> ClosedRange<Double>? in
            // Both bounds are read before either is checked, so each mistake is reported.
            let low = map.required("min", as: Double.self, in: 1...1000), high = map.required("max", as: Double.self, in: 1...1000)
            guard let low, let high else { return nil }
            return low <= high ? low...high : nil
        }
        let duration = document.mapping("duration_minutes") { map -> ClosedRange<Int>? in
            let low = map.required("min", as: Int.self, in: 0...100_000), high = map.required("max", as: Int.self, in: 0...100_000)
            guard let low, let high else { return nil }
            return low <= high ? low...high : nil
        }
        var levels: [CalorieBurnRules.IntensityLevel] = []
        _ = document.mapping("intensity_levels") { map -> Bool? in
            for id in map.keys {
                if let level = map.mapping(id, { entry -> CalorieBurnRules.IntensityLevel? in
                    entry.path = entry.path.about("intensity level '\(id)'")
                    let low = entry.required("min_met", as: Double.self, in: 0...100)
                    let high = entry.required("max_met", as: Double.self, in: 0...100)
                    let factor = entry.required("factor", as: Double.self, in: 0...10)
                    guard let low, let high, let factor else { return nil }
                    if low > high {
                        context.error("rules.out-of-range", entry.path.prefixed("min_met \(low) is above max_met \(high)"), at: entry.node.location)
                    }
                    return CalorieBurnRules.IntensityLevel(id: id, minMET: low, maxMET: high, factor: factor)
                }) { levels.append(level) }
            }
            return true
        }
        let sorted = levels.sorted { $0.minMET < $1.minMET }
        for (lower, upper) in zip(sorted, sorted.dropFirst()) where lower.maxMET >= upper.minMET {
            context.error("calorie.overlapping-levels", "intensity levels '\(lower.id)' and '\(upper.id)' overlap: \(lower.maxMET) ≥ \(upper.minMET)",
                          at: document.node["intensity_levels"]?.location)
        }
        let adjusted = document.formula("adjusted_met", declaring: CalorieBurnVariables.adjustedMETScope.variables)
        let net = document.formula("net_kcal", declaring: CalorieBurnVariables.netScope.variables)
        if let chosen, !formulas.isEmpty, formulas[chosen] == nil {
            context.error("rules.unknown-reference", "'formula' names '\(chosen)'; the file offers \(formulas.keys.sorted().joined(separator: ", "))", at: chosenLocation)
        }
        guard !context.hasErrors, let chosen, let formula = formulas[chosen], let rounding, let defaultWeight, let weight, let duration,
              let adjusted, let net else { return nil }
        return CalorieBurnFile(rules: CalorieBurnRules(formula: formula, formulas: formulas, rounding: rounding, defaultWeightKg: defaultWeight,
                                                       weightKg: weight, durationMinutes: duration, levels: levels, adjustedMET: adjusted,
                                                       netKcal: net))
    }
}
