/// What an ingredient is for in a meal: every meal offers options in each category and the user
/// picks one of each (see docs/requirements.md#ingredient-plan).
package enum IngredientCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    case protein, carb, veg, fat

    private var rank: Int {
        switch self {
        case .protein: 0
        case .carb: 1
        case .veg: 2
        case .fat: 3
        }
    }

    package static func < (lhs: IngredientCategory, rhs: IngredientCategory) -> Bool { lhs.rank < rhs.rank }

    /// The macro an option of this category is sized by; vegetables are sized by weight.
    var primaryNutrient: MacroNutrient? {
        switch self {
        case .protein: .protein
        case .carb: .carb
        case .fat: .fat
        case .veg: nil
        }
    }
}

/// One entry of `catalogs/ingredients.yaml`.
package struct Ingredient: Sendable, Hashable {
    package var id: String
    package var name: String
    package var category: IngredientCategory
    /// The kind of food (`poultry`, `legumes`, `protein_powders`, …), one of the catalog's
    /// `food_groups`: what a meal's variety is counted in.
    var foodGroup: String
    /// USDA SR NDB number of the record the values come from.
    var usdaNDB: String
    /// The USDA release the values were read from (`SR24`, or `SR Legacy` for records added later).
    var usdaRelease: String
    /// The state the values describe: cooked, raw, dry or ready.
    var state: String
    /// Protein, carbohydrate and fat in grams per 100 g.
    var per100g: Macros
    /// USDA's own energy figure, kept for provenance; the planner never computes with it.
    var usdaKcal: Double
    var typicalPortionG: Double
    /// The smallest and largest amount suggested for one meal.
    var portionRangeG: ClosedRange<Double>
    package var budgetTier: Profile.BudgetTier
    /// Tags the dietary exclusions match (`meat`, `dairy`, `gluten`, …).
    package var contains: [String]
    package var notes: String?

    init(
        id: String, name: String, category: IngredientCategory, foodGroup: String, usdaNDB: String, usdaRelease: String = "SR24", state: String, per100g: Macros,
        usdaKcal: Double, typicalPortionG: Double, portionRangeG: ClosedRange<Double>, budgetTier: Profile.BudgetTier,
        contains: [String], notes: String? = nil
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.foodGroup = foodGroup
        self.usdaNDB = usdaNDB
        self.usdaRelease = usdaRelease
        self.state = state
        self.per100g = per100g
        self.usdaKcal = usdaKcal
        self.typicalPortionG = typicalPortionG
        self.portionRangeG = portionRangeG
        self.budgetTier = budgetTier
        self.contains = contains
        self.notes = notes
    }

    /// Macros in one gram.
    var perGram: Macros { per100g * 0.01 }
}
