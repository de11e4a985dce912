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
        guard sized.count == 3 else { return nil }
        let vegMid = veg.mid * vegGrams
        let a = sized[0].mid, b = sized[1].mid, c = sized[2].mid
        let rhs = Macros(protein: target.protein - vegMid.protein, carb: target.carb - vegMid.carb, fat: target.fat - vegMid.fat)
        // Cramer's rule on rows = nutrients, columns = the three sized sets.
        func det(_ x: Macros, _ y: Macros, _ z: Macros) -> Double {
            x.protein * (y.carb * z.fat - y.fat * z.carb) - y.protein * (x.carb * z.fat - x.fat * z.carb)
                + z.protein * (x.carb * y.fat - x.fat * y.carb)
        }
        let determinant = det(a, b, c)
        guard abs(determinant) > 1e-12 else { return nil }
        let amounts = [det(rhs, b, c) / determinant, det(a, rhs, c) / determinant, det(a, b, rhs) / determinant]
        guard amounts[0] > 0, amounts[1] > 0, amounts[2] > 0 else { return nil }
        var low = MealTotals.zero
        var high = MealTotals.zero
        for (set, amount) in zip(sized, amounts) {
            var setLow = MealTotals(protein: .infinity, carb: .infinity, fat: .infinity, kcal: .infinity)
            var setHigh = MealTotals(protein: -.infinity, carb: -.infinity, fat: -.infinity, kcal: -.infinity)
            for index in set.members.indices {
                guard set.members[index].portionRangeG.contains(amount / set.keyPerGram[index]) else { return nil }
                let contribution = set.ratios[index] * amount
                widen(&setLow, &setHigh, contribution)
            }
            add(&low, setLow)
            add(&high, setHigh)
        }
        var vegLow = MealTotals(protein: .infinity, carb: .infinity, fat: .infinity, kcal: .infinity)
        var vegHigh = MealTotals(protein: -.infinity, carb: -.infinity, fat: -.infinity, kcal: -.infinity)
        for member in veg.members { widen(&vegLow, &vegHigh, member.perGram * vegGrams) }
        add(&low, vegLow)
        add(&high, vegHigh)
        let totals = MealTotals(protein: target.protein, carb: target.carb, fat: target.fat, kcal: settings.energy.kcal(target))
        var slack = Double.infinity
        var tightest = MealMeasure.protein
        for measure in MealMeasure.allCases {
            let goal = totals[measure]
            let band = settings.halfWidth(measure, target: goal)
            let room = min(low[measure] - (goal - band), (goal + band) - high[measure]) / goal
            if room < slack {
                slack = room
                tightest = measure
            }
        }
        return Candidate(sized: sized, amounts: amounts, veg: veg, vegGrams: vegGrams, slack: slack, tightest: tightest, low: low, high: high)
    }

    /// The slack ``centre(sized:veg:vegGrams:target:)`` would report, computed without building a
    /// candidate; `nil` when it would return `nil`. This is the search's inner loop.
    ///
    /// A set's lowest and highest protein, carbohydrate and fat are its lowest and highest ratios
    /// times the amount: multiplying by a positive amount keeps order even after rounding, so these
    /// are the very numbers `centre` finds member by member. Only kcal, a sum, is taken per member.
    func score(_ first: OptionSet, _ second: OptionSet, _ third: OptionSet, veg: VegShare, target: Macros) -> Double? {
        let a = first.mid, b = second.mid, c = third.mid
        let vegMid = veg.mid
        let rhs = Macros(protein: target.protein - vegMid.protein, carb: target.carb - vegMid.carb, fat: target.fat - vegMid.fat)
        func det(_ x: Macros, _ y: Macros, _ z: Macros) -> Double {
            x.protein * (y.carb * z.fat - y.fat * z.carb) - y.protein * (x.carb * z.fat - x.fat * z.carb)
                + z.protein * (x.carb * y.fat - x.fat * y.carb)
        }
        let determinant = det(a, b, c)
        guard abs(determinant) > 1e-12 else { return nil }
        let amounts = (det(rhs, b, c) / determinant, det(a, rhs, c) / determinant, det(a, b, rhs) / determinant)
        guard amounts.0 > 0, amounts.1 > 0, amounts.2 > 0 else { return nil }
        var low = MealTotals.zero
        var high = MealTotals.zero
        let energy = settings.energy
        func include(_ set: OptionSet, amount: Double) -> Bool {
            var kcalLow = Double.infinity
            var kcalHigh = -Double.infinity
            for index in set.ratios.indices {
                if !set.portionRanges[index].contains(amount / set.keyPerGram[index]) { return false }
                let kcal = energy.kcal(set.ratios[index] * amount)
                kcalLow = min(kcalLow, kcal)
                kcalHigh = max(kcalHigh, kcal)
            }
            low.protein += set.low.protein * amount
            low.carb += set.low.carb * amount
            low.fat += set.low.fat * amount
            low.kcal += kcalLow
            high.protein += set.high.protein * amount
            high.carb += set.high.carb * amount
            high.fat += set.high.fat * amount
            high.kcal += kcalHigh
            return true
        }
        guard include(first, amount: amounts.0), include(second, amount: amounts.1), include(third, amount: amounts.2) else { return nil }
        add(&low, veg.low)
        add(&high, veg.high)
        let settings = self.settings
        func room(_ low: Double, _ high: Double, _ goal: Double, _ measure: MealMeasure) -> Double {
            let band = settings.halfWidth(measure, target: goal)
            return min(low - (goal - band), (goal + band) - high) / goal
        }
        return min(
            min(room(low.protein, high.protein, target.protein, .protein), room(low.carb, high.carb, target.carb, .carb)),
            min(room(low.fat, high.fat, target.fat, .fat), room(low.kcal, high.kcal, settings.energy.kcal(target), .kcal)))
    }

    private func widen(_ low: inout MealTotals, _ high: inout MealTotals, _ macros: Macros) {
        Self.widen(&low, &high, macros, energy: settings.energy)
    }

    /// Stretches `low`/`high` to take in `macros` (and their energy).
    static func widen(_ low: inout MealTotals, _ high: inout MealTotals, _ macros: Macros, energy: EnergyFactors) {
        let kcal = energy.kcal(macros)
        low.protein = min(low.protein, macros.protein)
        low.carb = min(low.carb, macros.carb)
        low.fat = min(low.fat, macros.fat)
        low.kcal = min(low.kcal, kcal)
        high.protein = max(high.protein, macros.protein)
        high.carb = max(high.carb, macros.carb)
        high.fat = max(high.fat, macros.fat)
        high.kcal = max(high.kcal, kcal)
    }

    private func add(_ total: inout MealTotals, _ part: MealTotals) {
        total.protein += part.protein
        total.carb += part.carb
        total.fat += part.fat
        total.kcal += part.kcal
    }

    /// Rounds every suggested amount to its step and builds the options exactly as shown; `nil`
    /// unless the shown numbers keep the guarantee.
    func materialize(_ candidate: Candidate, targets: MealTargets) -> MealOptions? {
        for steps in [false, true] {
            // First the rules' steps; if rounding that coarsely breaks the guarantee, whole grams.
            guard let sized = roundedOptions(candidate, wholeGrams: steps) else { continue }
            let meal = MealOptions(
                protein: sized.protein, carb: sized.carb, veg: candidate.veg.members.map { option($0, grams: candidate.vegGrams) },
                fat: sized.fat)
            if meal.keepsGuarantee(targets: targets, tolerances: settings.tolerances, floor: settings.toleranceFloor) { return meal }
        }
        return nil
    }

    /// The sized categories' options at the candidate's amounts rounded to the rules' steps (or to
    /// whole grams); `nil` when a rounded portion is empty or outside its catalog range.
    private func roundedOptions(
        _ candidate: Candidate, wholeGrams: Bool
    ) -> (protein: [IngredientOption], carb: [IngredientOption], fat: [IngredientOption])? {
        var protein: [IngredientOption] = [], carb: [IngredientOption] = [], fat: [IngredientOption] = []
        for (set, amount) in zip(candidate.sized, candidate.amounts) {
            let step = wholeGrams ? 1 : (settings.roundingG[set.category] ?? 1)
            var options: [IngredientOption] = []
            options.reserveCapacity(set.members.count)
            for (member, key) in zip(set.members, set.keyPerGram) {
                let grams = ((amount / key) / step).rounded(.toNearestOrAwayFromZero) * step
                guard grams > 0, member.portionRangeG.contains(grams) else { return nil }
                options.append(option(member, grams: grams))
            }
            switch set.category {
            case .protein: protein = options
            case .carb: carb = options
            case .fat: fat = options
            case .veg: break  // the vegetables' weight is not rounded here
            }
        }
        return (protein, carb, fat)
    }

    /// An option as shown: macros to 0.1 g, kcal by the plan's energy factors from those macros.
    func option(_ ingredient: Ingredient, grams: Double) -> IngredientOption {
        let raw = ingredient.perGram * grams
        let shown = Macros(protein: roundedToTenth(raw.protein), carb: roundedToTenth(raw.carb), fat: roundedToTenth(raw.fat))
        return IngredientOption(
            ingredientId: ingredient.id, name: ingredient.name, foodGroup: ingredient.foodGroup, grams: grams, macros: shown,
            kcal: settings.energy.kcal(shown).rounded(.toNearestOrAwayFromZero), budgetTier: ingredient.budgetTier)
    }

    /// Adds further options, tightest first, while the shown options still keep the guarantee.
    /// Ingredients the day's earlier meals already offer (`offered`) are tried after the others.
    func grow(_ start: Candidate, options: MealOptions, pools: [IngredientCategory: [Ingredient]], targets: MealTargets, offered: Set<String>) -> MealOptions {
        var candidate = start
        var current = options
        let limit = settings.optionsPerCategory.upperBound
        for category in IngredientCategory.allCases {
            let chosen: OptionSet = category == .veg ? candidate.veg : (candidate.sized.first { $0.category == category } ?? candidate.veg)
            guard chosen.category == category else { continue }
            var setSize = chosen.members.count
            let pool = pools[category] ?? []
            // Try the ingredients that widen the set least first (scored from ratios alone).
            let chosenSet = currentSet(of: category, in: candidate)
            let amount = category == .veg ? candidate.vegGrams : amountOf(category, in: candidate)
            var ordered: [(position: Int, cost: Double)] = []
            ordered.reserveCapacity(pool.count)
            for (position, ingredient) in pool.enumerated() where !chosen.members.contains(where: { $0.id == ingredient.id }) {
                let perGram = ingredient.perGram
                let key: Double
                switch chosenSet.sizing {
                case .primary: key = category.primaryNutrient.map { perGram[$0] } ?? 0
                case .energy: key = settings.energy.kcal(perGram)
                case .weight: key = 1
                }
                guard key > 0 else { continue }
                let ratio = perGram * (1 / key)
                let low = Macros(protein: min(chosenSet.low.protein, ratio.protein), carb: min(chosenSet.low.carb, ratio.carb), fat: min(chosenSet.low.fat, ratio.fat))
                let high = Macros(protein: max(chosenSet.high.protein, ratio.protein), carb: max(chosenSet.high.carb, ratio.carb), fat: max(chosenSet.high.fat, ratio.fat))
                let preference = settings.penalty(ingredient) + (offered.contains(ingredient.id) ? settings.repeatPenalty : 0)
                ordered.append((position, spreadCost(low: low, high: high, amount: amount, target: targets.macros) + preference))
            }
            ordered.sort { $0.cost != $1.cost ? $0.cost < $1.cost : pool[$0.position].id < pool[$1.position].id }
            // The few that widen least are worth trying; the rest would only cost time.
            for (position, _) in ordered.prefix(growthAttempts) where setSize < limit {
                guard let wider = currentSet(of: category, in: candidate).adding(pool[position], energy: settings.energy) else { continue }
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
        let minimum = settings.optionsPerCategory.lowerBound
        guard let closest else {
            return "no \(minimum) options per category from the catalog can be portioned (within each ingredient's portion range) to reach this meal's targets within \(settings.tolerances.toleranceWords)"
        }
        let measure = closest.tightest
        let percent = formatted(settings.tolerances[measure] * 100)
        let goal = targets.value(of: measure)
        let band = settings.halfWidth(measure, target: goal)
        let names = (closest.sized.map(\.members) + [closest.veg.members]).flatMap { $0 }.map(\.id).joined(separator: ", ")
        return "no \(minimum) options per category from the catalog keep every combination within ±\(percent)% of this meal's \(measure.label) (\(formatted(goal))): the closest set (\(names)) spreads it over \(formatted(closest.low[measure]))–\(formatted(closest.high[measure])), beyond \(formatted(goal - band))–\(formatted(goal + band))"
    }

    /// Plain words for candidates that fit before rounding but not once grams are whole.
    func roundingExplanation(_ candidate: Candidate, targets: MealTargets) -> String {
        let percent = formatted(settings.tolerances[candidate.tightest] * 100)
        let goal = targets.value(of: candidate.tightest)
        let band = settings.halfWidth(candidate.tightest, target: goal)
        return "the options fit within ±\(percent)% only with fractional grams: rounding portions to whole grams pushes this meal's \(candidate.tightest.label) (\(formatted(goal))) outside \(formatted(goal - band))–\(formatted(goal + band)) for some combination"
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
