/// What an ingredient is for in a meal: every meal offers options in each category and the user
/// picks one of each (see docs/requirements.md#ingredient-plan).
public enum IngredientCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    case protein, carb, veg, fat

    private var rank: Int {
        switch self {
        case .protein: 0
        case .carb: 1
        case .veg: 2
        case .fat: 3
        }
    }

    public static func < (lhs: IngredientCategory, rhs: IngredientCategory) -> Bool { lhs.rank < rhs.rank }

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
public struct Ingredient: Sendable, Hashable {
    public var id: String
    public var name: String
    public var category: IngredientCategory
    /// USDA SR NDB number of the record the values come from.
    public var usdaNDB: String
    /// The USDA release the values were read from (`SR24`, or `SR Legacy` for records added later).
    public var usdaRelease: String
    /// The state the values describe: cooked, raw, dry or ready.
    public var state: String
    /// Protein, carbohydrate and fat in grams per 100 g.
    public var per100g: Macros
    /// USDA's own energy figure, kept for provenance; the planner never computes with it.
    public var usdaKcal: Double
    public var typicalPortionG: Double
    /// The smallest and largest amount suggested for one meal.
    public var portionRangeG: ClosedRange<Double>
    public var budgetTier: Profile.BudgetTier
    /// Tags the dietary exclusions match (`meat`, `dairy`, `gluten`, …).
    public var contains: [String]
    public var notes: String?

    public init(
        id: String, name: String, category: IngredientCategory, usdaNDB: String, usdaRelease: String = "SR24", state: String, per100g: Macros,
        usdaKcal: Double, typicalPortionG: Double, portionRangeG: ClosedRange<Double>, budgetTier: Profile.BudgetTier,
        contains: [String], notes: String? = nil
    ) {
        self.id = id
        self.name = name
        self.category = category
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
