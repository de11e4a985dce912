extension IngredientAllocator {
    /// What one vegetable set adds to every combination it joins: its midpoint and its lowest and
    /// highest totals at the meal's vegetable weight. These do not depend on the sized sets, so the
    /// search takes them once per set instead of once per combination, with the same arithmetic
    /// as ``centre(sized:veg:vegGrams:target:)``.
    struct VegShare: Sendable {
        var mid: Macros
        var low: MealTotals
        var high: MealTotals

        init(_ veg: OptionSet, grams: Double, energy: EnergyFactors) {
            mid = veg.mid * grams
            low = MealTotals(protein: .infinity, carb: .infinity, fat: .infinity, kcal: .infinity)
            high = MealTotals(protein: -.infinity, carb: -.infinity, fat: -.infinity, kcal: -.infinity)
            for ratio in veg.ratios { IngredientAllocator.widen(&low, &high, ratio * grams, energy: energy) }
        }
    }
}
