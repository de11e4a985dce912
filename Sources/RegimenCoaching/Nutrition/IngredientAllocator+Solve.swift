extension IngredientAllocator {
    /// Options sets for every category, the amount of sizing key each sized set gets, and how much
    /// room is left inside the tolerance band (the smallest share over the measures; negative when a
    /// measure does not fit).
    struct Candidate: Sendable {
        var sized: [OptionSet]
        var amounts: [Double]
        var veg: OptionSet
        var vegGrams: Double
        var slack: Double
        /// The measure with the least room, for explanations.
        var tightest: MealMeasure
        var low: MealTotals
        var high: MealTotals
    }

    /// Centres every macro's range on its target by solving for the three sized amounts, then
    /// measures the slack. `nil` when the system is singular, an amount is not positive or a
    /// portion falls outside the catalog's range.
    func centre(sized: [OptionSet], veg: OptionSet, vegGrams: Double, target: Macros) -> Candidate? {
        let nutrients = MacroNutrient.allCases
        let vegMid = veg.mid * vegGrams
        var matrix = nutrients.map { nutrient in sized.map { $0.mid[nutrient] } }
        var rhs = nutrients.map { target[$0] - vegMid[$0] }
        guard let amounts = solveLinearSystem(&matrix, &rhs), amounts.allSatisfy({ $0 > 0 }) else { return nil }
        for (set, amount) in zip(sized, amounts) {
            for (member, key) in zip(set.members, set.keyPerGram) where !member.portionRangeG.contains(amount / key) {
                return nil
            }
        }
        var low = MealTotals.zero
        var high = MealTotals.zero
        func accumulate(_ contributions: [Macros]) {
            for measure in MealMeasure.allCases {
                let values = contributions.map { measure == .kcal ? settings.energy.kcal($0) : $0[nutrient(measure)] }
                low[measure] += values.min() ?? 0
                high[measure] += values.max() ?? 0
            }
        }
        for (set, amount) in zip(sized, amounts) { accumulate(set.ratios.map { $0 * amount }) }
        accumulate(veg.members.map { $0.perGram * vegGrams })
        let totals = MealTotals(protein: target.protein, carb: target.carb, fat: target.fat, kcal: settings.energy.kcal(target))
        var slack = Double.infinity
        var tightest = MealMeasure.protein
        for measure in MealMeasure.allCases {
            let goal = totals[measure]
            let room = min(low[measure] - (1 - settings.tolerance) * goal, (1 + settings.tolerance) * goal - high[measure]) / goal
            if room < slack {
                slack = room
                tightest = measure
            }
        }
        return Candidate(sized: sized, amounts: amounts, veg: veg, vegGrams: vegGrams, slack: slack, tightest: tightest, low: low, high: high)
    }

    /// Rounds every suggested amount to its step and builds the options exactly as shown; `nil`
    /// unless the shown numbers keep the guarantee.
    func materialize(_ candidate: Candidate, targets: MealTargets) -> MealOptions? {
        for steps in [false, true] {
            // First the rules' steps; if rounding that coarsely breaks the guarantee, whole grams.
            var lists: [IngredientCategory: [IngredientOption]] = [:]
            var valid = true
            for (set, amount) in zip(candidate.sized, candidate.amounts) {
                let step = steps ? 1 : (settings.roundingG[set.category] ?? 1)
                var options: [IngredientOption] = []
                for (member, key) in zip(set.members, set.keyPerGram) {
                    let grams = ((amount / key) / step).rounded(.toNearestOrAwayFromZero) * step
                    guard grams > 0, member.portionRangeG.contains(grams) else {
                        valid = false
                        break
                    }
                    options.append(option(member, grams: grams))
                }
                lists[set.category] = options
            }
            guard valid else { continue }
            lists[.veg] = candidate.veg.members.map { option($0, grams: candidate.vegGrams) }
            let meal = MealOptions(protein: lists[.protein] ?? [], carb: lists[.carb] ?? [], veg: lists[.veg] ?? [], fat: lists[.fat] ?? [])
            if meal.guaranteeViolations(targets: targets, tolerance: settings.tolerance).isEmpty { return meal }
        }
        return nil
    }

    /// An option as shown: macros to 0.1 g, kcal by the plan's energy factors from those macros.
    func option(_ ingredient: Ingredient, grams: Double) -> IngredientOption {
        let raw = ingredient.perGram * grams
        let shown = Macros(protein: roundedToTenth(raw.protein), carb: roundedToTenth(raw.carb), fat: roundedToTenth(raw.fat))
        return IngredientOption(
            ingredientId: ingredient.id, grams: grams, macros: shown,
            kcal: settings.energy.kcal(shown).rounded(.toNearestOrAwayFromZero), budgetTier: ingredient.budgetTier)
    }

    /// Adds further options, tightest first, while the shown options still keep the guarantee.
    func grow(_ start: Candidate, options: MealOptions, pools: [IngredientCategory: [Ingredient]], targets: MealTargets) -> MealOptions {
        var candidate = start
        var current = options
        let limit = settings.optionsPerCategory.upperBound
        for category in IngredientCategory.allCases {
            let chosen: OptionSet = category == .veg ? candidate.veg : (candidate.sized.first { $0.category == category } ?? candidate.veg)
            guard chosen.category == category else { continue }
            var setSize = chosen.members.count
            let taken = Set(chosen.members.map(\.id))
            let others = (pools[category] ?? []).filter { !taken.contains($0.id) }
            // Try the ingredients that widen the set least first.
            let ordered = others.compactMap { ingredient -> (Ingredient, Double)? in
                guard let wider = currentSet(of: category, in: candidate).adding(ingredient, energy: settings.energy) else { return nil }
                let amount = category == .veg ? candidate.vegGrams : amountOf(category, in: candidate)
                return (ingredient, spreadCost(wider, amount: amount, target: targets.macros))
            }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.id < $1.0.id }
            for (ingredient, _) in ordered where setSize < limit {
                guard let wider = currentSet(of: category, in: candidate).adding(ingredient, energy: settings.energy) else { continue }
                var trial = candidate
                if category == .veg {
                    trial.veg = wider
                } else if let index = trial.sized.firstIndex(where: { $0.category == category }) {
                    trial.sized[index] = wider
                }
                guard let centred = centre(sized: trial.sized, veg: trial.veg, vegGrams: trial.vegGrams, target: targets.macros),
                      centred.slack >= 0, let shown = materialize(centred, targets: targets)
                else { continue }
                candidate = centred
                current = shown
                setSize += 1
            }
        }
        return current
    }

    private func amountOf(_ category: IngredientCategory, in candidate: Candidate) -> Double {
        guard let index = candidate.sized.firstIndex(where: { $0.category == category }), index < candidate.amounts.count else { return 1 }
        return candidate.amounts[index]
    }

    private func currentSet(of category: IngredientCategory, in candidate: Candidate) -> OptionSet {
        if category == .veg { return candidate.veg }
        return candidate.sized.first { $0.category == category } ?? candidate.veg
    }

    /// Plain words for why no set of options keeps the guarantee.
    func explanation(closest: Candidate?, targets: MealTargets) -> String {
        let percent = formatted(settings.tolerance * 100)
        let minimum = settings.optionsPerCategory.lowerBound
        guard let closest else {
            return "no \(minimum) options per category from the catalog can be portioned (within each ingredient's portion range) to reach this meal's targets within ±\(percent)%"
        }
        let measure = closest.tightest
        let goal = targets.value(of: measure)
        let names = (closest.sized.map(\.members) + [closest.veg.members]).flatMap { $0 }.map(\.id).joined(separator: ", ")
        return "no \(minimum) options per category from the catalog keep every combination within ±\(percent)% of this meal's \(measure.label) (\(formatted(goal))): the closest set (\(names)) spreads it over \(formatted(closest.low[measure]))–\(formatted(closest.high[measure])), beyond \(formatted(goal * (1 - settings.tolerance)))–\(formatted(goal * (1 + settings.tolerance)))"
    }

    /// Plain words for candidates that fit before rounding but not once grams are whole.
    func roundingExplanation(_ candidate: Candidate, targets: MealTargets) -> String {
        let percent = formatted(settings.tolerance * 100)
        let goal = targets.value(of: candidate.tightest)
        return "the options fit within ±\(percent)% only with fractional grams: rounding portions to whole grams pushes this meal's \(candidate.tightest.label) (\(formatted(goal))) outside \(formatted(goal * (1 - settings.tolerance)))–\(formatted(goal * (1 + settings.tolerance))) for some combination"
    }

    private func nutrient(_ measure: MealMeasure) -> MacroNutrient {
        switch measure {
        case .protein: .protein
        case .carb: .carb
        case .fat, .kcal: .fat
        }
    }
}

/// Calls `body` with every increasing index list of `size` indices below `count`.
func forEachSubset(of count: Int, size: Int, _ body: ([Int]) -> Void) {
    guard size > 0, size <= count else { return }
    var indices = Array(0..<size)
    while true {
        body(indices)
        var position = size - 1
        while position >= 0 && indices[position] == count - size + position { position -= 1 }
        guard position >= 0 else { return }
        indices[position] += 1
        for next in (position + 1)..<size { indices[next] = indices[next - 1] + 1 }
    }
}

/// Solves `matrix × x = rhs` by Gaussian elimination with partial pivoting; `nil` when singular.
func solveLinearSystem(_ matrix: inout [[Double]], _ rhs: inout [Double]) -> [Double]? {
    let size = rhs.count
    guard matrix.count == size, matrix.allSatisfy({ $0.count == size }) else { return nil }
    for column in 0..<size {
        var pivot = column
        for row in column..<size where abs(matrix[row][column]) > abs(matrix[pivot][column]) { pivot = row }
        guard abs(matrix[pivot][column]) > 1e-12 else { return nil }
        matrix.swapAt(column, pivot)
        rhs.swapAt(column, pivot)
        for row in 0..<size where row != column {
            let factor = matrix[row][column] / matrix[column][column]
            guard factor != 0 else { continue }
            for k in column..<size { matrix[row][k] -= factor * matrix[column][k] }
            rhs[row] -= factor * rhs[column]
        }
    }
    return (0..<size).map { rhs[$0] / matrix[$0][$0] }
}
