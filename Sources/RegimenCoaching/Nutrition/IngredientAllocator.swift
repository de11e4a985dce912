/// The allocator's settings, from `rules/meals.yaml` and `rules/nutrition.yaml`.
public struct AllocatorSettings: Sendable, Hashable {
    /// ±fraction every combination must stay within (0.10 for ±10%).
    public var tolerance: Double
    /// How many options per category: at least the lower bound, at most the upper.
    public var optionsPerCategory: ClosedRange<Int>
    /// Suggested grams are multiples of these steps.
    public var roundingG: [IngredientCategory: Double]
    public var energy: EnergyFactors

    public init(tolerance: Double, optionsPerCategory: ClosedRange<Int>, roundingG: [IngredientCategory: Double], energy: EnergyFactors) {
        self.tolerance = tolerance
        self.optionsPerCategory = optionsPerCategory
        self.roundingG = roundingG
        self.energy = energy
    }
}

/// The allocator's answer for one meal.
public enum MealAllocation: Sendable, Hashable {
    /// Options such that any one pick per category lands within tolerance of every sub-target.
    case options(MealOptions)
    /// The catalog (after budget and exclusions) cannot keep the guarantee for this meal; why.
    case infeasible(String)
}

/// Chooses, for one meal, options per category and grams for each, such that **every** combination
/// of one option per category lies within the tolerance of the meal's protein, carbohydrate, fat
/// and kcal sub-targets.
///
/// Categories are picked independently, so a measure's total over all combinations ranges exactly
/// from the sum of each category's smallest contribution to the sum of its largest. The guarantee
/// is therefore "the sum of the categories' spreads fits inside the tolerance band, centred on the
/// target". The allocator works in that form:
///
/// 1. Each sized category (protein, carb, fat) gives all its options the same amount of a sizing
///    key: its primary macro (every protein option brings the same protein) or its energy. An
///    option's contribution is then `n × (its macros per unit of key)`, so a set of options spreads
///    each macro over `n × [lowest ratio, highest ratio]`. Vegetables all get the same weight.
/// 2. For each category it ranks every set of the minimum size by the spread it would cost,
///    relative to the tolerance band, and keeps the few tightest.
/// 3. For each combination of kept sets it solves the 3×3 linear system that centres every macro's
///    range on its target, checks portions against the catalog's ranges and measures the slack.
/// 4. The best candidates are rounded to the rules' gram steps and checked again exactly as shown
///    (``MealOptions/guaranteeViolations(targets:tolerance:)``); the first that passes is grown
///    with further options while the check still passes.
///
/// When nothing passes, it says which measure the closest candidate could not hold.
public struct IngredientAllocator: Sendable {
    public let settings: AllocatorSettings
    /// Tightest sets kept per sized category, and per vegetable category, before combining.
    private let keptSets = 6
    private let keptVegSets = 3
    /// Centred candidates tried with rounding before giving up.
    private let roundingAttempts = 12

    public init(settings: AllocatorSettings) {
        self.settings = settings
    }

    /// Allocates one meal.
    /// - Parameters:
    ///   - targets: the meal's sub-targets (all positive).
    ///   - vegGrams: the weight every vegetable option gets.
    ///   - candidates: the eligible ingredients (budget and exclusions already applied).
    public func allocate(targets: MealTargets, vegGrams: Double, candidates: [Ingredient]) -> MealAllocation {
        let minimum = settings.optionsPerCategory.lowerBound
        guard targets.macros.protein > 0, targets.macros.carb > 0, targets.macros.fat > 0 else {
            return .infeasible("the meal's sub-targets must all be positive (protein \(formatted(targets.macros.protein)) g, carbohydrate \(formatted(targets.macros.carb)) g, fat \(formatted(targets.macros.fat)) g)")
        }
        let vegStep = settings.roundingG[.veg] ?? 1
        let vegAmount = max(vegStep, (vegGrams / vegStep).rounded(.toNearestOrAwayFromZero) * vegStep)
        var pools: [IngredientCategory: [Ingredient]] = [:]
        for category in IngredientCategory.allCases {
            var pool = candidates.filter { $0.category == category }.sorted { $0.id < $1.id }
            if category == .veg { pool = pool.filter { $0.portionRangeG.contains(vegAmount) } }
            pools[category] = pool
        }
        let short = IngredientCategory.allCases.filter { (pools[$0]?.count ?? 0) < minimum }
        if !short.isEmpty {
            let list = short.map { "\($0.rawValue) (\(pools[$0]?.count ?? 0))" }.joined(separator: ", ")
            return .infeasible("too few eligible ingredients for \(minimum) options per category: \(list)")
        }
        let target = targets.macros
        var ranked: [IngredientCategory: [OptionSet]] = [:]
        for category in [IngredientCategory.protein, .carb, .fat] {
            ranked[category] = tightestSets(category: category, pool: pools[category] ?? [], target: target, size: minimum)
        }
        ranked[.veg] = tightestVegSets(pool: pools[.veg] ?? [], grams: vegAmount, target: target, size: minimum)

        var candidatesFound: [Candidate] = []
        var closest: Candidate?
        for proteinSet in ranked[.protein] ?? [] {
            for carbSet in ranked[.carb] ?? [] {
                for fatSet in ranked[.fat] ?? [] {
                    for vegSet in ranked[.veg] ?? [] {
                        guard let candidate = centre(sized: [proteinSet, carbSet, fatSet], veg: vegSet, vegGrams: vegAmount, target: target) else { continue }
                        if candidate.slack >= 0 {
                            candidatesFound.append(candidate)
                        } else if closest.map({ candidate.slack > $0.slack }) ?? true {
                            closest = candidate
                        }
                    }
                }
            }
        }
        candidatesFound.sort { $0.slack > $1.slack }
        for candidate in candidatesFound.prefix(roundingAttempts) {
            guard let options = materialize(candidate, targets: targets) else { continue }
            return .options(grow(candidate, options: options, pools: pools, targets: targets))
        }
        if let centred = candidatesFound.first {
            return .infeasible(roundingExplanation(centred, targets: targets))
        }
        return .infeasible(explanation(closest: closest, targets: targets))
    }

    // MARK: - Sets of options

    /// How the options of a sized category share out its amount.
    enum Sizing: Sendable, Hashable {
        case primary, energy, weight
    }

    /// A set of options of one category with their macros per unit of the sizing key.
    struct OptionSet: Sendable {
        var category: IngredientCategory
        var sizing: Sizing
        var members: [Ingredient]
        /// Sizing key per gram of each member (its primary macro, its kcal, or 1 for weight).
        var keyPerGram: [Double]
        /// Macros per unit of key of each member.
        var ratios: [Macros]
        var low: Macros
        var high: Macros
        var cost: Double

        init?(category: IngredientCategory, sizing: Sizing, members: [Ingredient], energy: EnergyFactors) {
            var keys: [Double] = []
            var ratios: [Macros] = []
            for member in members {
                let perGram = member.perGram
                let key: Double
                switch sizing {
                case .primary: key = category.primaryNutrient.map { perGram[$0] } ?? 0
                case .energy: key = energy.kcal(perGram)
                case .weight: key = 1
                }
                guard key > 0 else { return nil }
                keys.append(key)
                ratios.append(perGram * (1 / key))
            }
            self.category = category
            self.sizing = sizing
            self.members = members
            self.keyPerGram = keys
            self.ratios = ratios
            var low = ratios[0]
            var high = ratios[0]
            for ratio in ratios.dropFirst() {
                for nutrient in MacroNutrient.allCases {
                    low[nutrient] = min(low[nutrient], ratio[nutrient])
                    high[nutrient] = max(high[nutrient], ratio[nutrient])
                }
            }
            self.low = low
            self.high = high
            self.cost = 0
        }

        var mid: Macros { (low + high) * 0.5 }

        func adding(_ ingredient: Ingredient, energy: EnergyFactors) -> OptionSet? {
            OptionSet(category: category, sizing: sizing, members: members + [ingredient], energy: energy)
        }
    }

    /// Spread a set costs, as a share of the tolerance band, at the amount that would supply most
    /// of the category's primary macro.
    func spreadCost(_ set: OptionSet, amount: Double, target: Macros) -> Double {
        var cost = 0.0
        for nutrient in MacroNutrient.allCases {
            cost += amount * (set.high[nutrient] - set.low[nutrient]) / (2 * settings.tolerance * target[nutrient])
        }
        return cost
    }

    private func tightestSets(category: IngredientCategory, pool: [Ingredient], target: Macros, size: Int) -> [OptionSet] {
        guard let primary = category.primaryNutrient else { return [] }
        var best: [OptionSet] = []
        for sizing in [Sizing.primary, .energy] {
            forEachSubset(of: pool.count, size: size) { indices in
                guard var set = OptionSet(category: category, sizing: sizing, members: indices.map { pool[$0] }, energy: settings.energy) else { return }
                let primaryPerKey = set.mid[primary]
                guard primaryPerKey > 0 else { return }
                // Most of a meal's primary macro comes from its own category.
                let amount = 0.8 * target[primary] / primaryPerKey
                set.cost = spreadCost(set, amount: amount, target: target)
                insert(set, into: &best, keeping: keptSets)
            }
        }
        return best
    }

    private func tightestVegSets(pool: [Ingredient], grams: Double, target: Macros, size: Int) -> [OptionSet] {
        var best: [OptionSet] = []
        forEachSubset(of: pool.count, size: size) { indices in
            guard var set = OptionSet(category: .veg, sizing: .weight, members: indices.map { pool[$0] }, energy: settings.energy) else { return }
            set.cost = spreadCost(set, amount: grams, target: target)
            insert(set, into: &best, keeping: keptVegSets)
        }
        return best
    }

    /// Keeps the `limit` cheapest sets, ties broken by member ids so the result is deterministic.
    private func insert(_ set: OptionSet, into best: inout [OptionSet], keeping limit: Int) {
        func precedes(_ a: OptionSet, _ b: OptionSet) -> Bool {
            if a.cost != b.cost { return a.cost < b.cost }
            let aIDs = a.members.map(\.id)
            let bIDs = b.members.map(\.id)
            if aIDs != bIDs { return aIDs.lexicographicallyPrecedes(bIDs) }
            return a.sizing == .primary && b.sizing != .primary
        }
        if best.count == limit, let last = best.last, !precedes(set, last) { return }
        let index = best.firstIndex { precedes(set, $0) } ?? best.count
        best.insert(set, at: index)
        if best.count > limit { best.removeLast() }
    }
}
