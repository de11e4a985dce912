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
            for ratio in veg.ratios {
                let macros = ratio * grams
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
        }
    }
}
