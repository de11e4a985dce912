/// The allocator's settings, from `rules/meals.yaml` and `rules/nutrition.yaml`.
struct AllocatorSettings: Sendable, Hashable {
    /// ±fraction every combination must stay within (0.10 for ±10%): the kcal and protein one.
    var tolerance: Double
    /// ±fraction per measure (rules/meals.yaml `tolerance_pct_by_macro`).
    package var tolerances: MealTotals
    /// The narrowest half-width of the band per measure (grams of each macro, kcal): the band is
    /// `target ± max(tolerance × target, floor)`.
    var toleranceFloor: MealTotals
    /// How many options per category: at least the lower bound, at most the upper.
    var optionsPerCategory: ClosedRange<Int>
    /// Suggested grams are multiples of these steps.
    var roundingG: [IngredientCategory: Double]
    var energy: EnergyFactors
    /// The fewest food groups among a meal's protein options (fewer only when the eligible
    /// ingredients hold fewer groups).
    var proteinFoodGroupsMin: Int
    /// Added to a set's ranking cost for each member of these food groups: whole foods first.
    var foodGroupPenalty: [String: Double]
    /// Added to the ranking cost of an option the day's earlier meals already offer, when a set
    /// is grown beyond the minimum.
    var repeatPenalty: Double

    init(
        tolerance: Double, toleranceFloor: MealTotals = .zero, optionsPerCategory: ClosedRange<Int>, roundingG: [IngredientCategory: Double],
        energy: EnergyFactors, proteinFoodGroupsMin: Int = 1, foodGroupPenalty: [String: Double] = [:], repeatPenalty: Double = 0,
        tolerances: MealTotals? = nil
    ) {
        self.tolerance = tolerance
        self.tolerances = tolerances ?? .uniform(tolerance)
        self.toleranceFloor = toleranceFloor
        self.optionsPerCategory = optionsPerCategory
        self.roundingG = roundingG
        self.energy = energy
        self.proteinFoodGroupsMin = proteinFoodGroupsMin
        self.foodGroupPenalty = foodGroupPenalty
        self.repeatPenalty = repeatPenalty
    }

    /// The ranking cost an ingredient's food group adds (0 for most).
    func penalty(_ ingredient: Ingredient) -> Double { foodGroupPenalty[ingredient.foodGroup] ?? 0 }

    /// How far either side of `target` a measure may land.
    func halfWidth(_ measure: MealMeasure, target: Double) -> Double {
        max(tolerances[measure] * target, toleranceFloor[measure])
    }
}

/// The allocator's answer for one meal.
package enum MealAllocation: Sendable, Hashable {
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
struct IngredientAllocator: Sendable {
    package let settings: AllocatorSettings

    // The three limits below bound how hard the search tries, not what counts as a good meal, so
    // they stay here rather than in `rules/meals.yaml`. What a coach decides (the tolerance, how
    // many options per category, the gram steps) is in the rules, and every options list the
    // search returns is checked against those exactly as shown, whatever these limits are. Raising
    // them trades running time for the odd meal that would otherwise get no options or one option
    // fewer; they are set by measuring that trade (`regimen bench`), which a coach cannot judge.

    /// Tightest sets kept per sized category and per vegetable category: a narrow first search,
    /// then a wide one only for meals the narrow one cannot serve.
    private let searchWidths = [(sized: 6, veg: 3), (sized: 16, veg: 5)]
    /// Centred candidates tried with rounding before giving up.
    private let roundingAttempts = 12
    /// Further options tried per category when growing a set beyond the minimum.
    let growthAttempts = 6
    /// The last search keeps members that can bring at least this share of the meal's target of
    /// their category's macro at their largest portion (the rest comes from the other categories).
    private let portionableShare = 0.8

    /// What the searches of one day have found, by meal targets: meals with equal targets share
    /// the costly ranking and differ only in which of its combinations they show.
    struct Memo: Sendable {
        struct Key: Hashable, Sendable {
            var targets: MealTargets
            var stage: Int
            var proteinFoodGroups: Int
        }
        var rankings: [Key: Ranking] = [:]

        init() {}
    }

    /// Allocates one meal on its own.
    /// - Parameters:
    ///   - targets: the meal's sub-targets (all positive).
    ///   - vegGrams: the weight every vegetable option gets.
    ///   - candidates: the eligible ingredients (budget and exclusions already applied).
    func allocate(targets: MealTargets, vegGrams: Double, candidates: [Ingredient]) -> MealAllocation {
        var memo = Memo()
        return allocate(targets: targets, vegGrams: vegGrams, candidates: candidates, offered: [], memo: &memo)
    }

    /// Allocates one meal of a day. Among the combinations that keep the guarantee, those whose
    /// protein options the day's earlier meals have not `offered` come first, so the meals of a
    /// day vary; `memo` carries the searches to the day's later meals (pass the same `candidates`
    /// for every meal of one memo).
    func allocate(
        targets: MealTargets, vegGrams: Double, candidates: [Ingredient], offered: Set<String>, memo: inout Memo
    ) -> MealAllocation {
        let minimum = settings.optionsPerCategory.lowerBound
        guard targets.macros.protein > 0, targets.macros.carb > 0, targets.macros.fat > 0 else {
            return .infeasible("the meal's sub-targets must all be positive (protein \(formatted(targets.macros.protein)) g, carbohydrate \(formatted(targets.macros.carb)) g, fat \(formatted(targets.macros.fat)) g)")
        }
        let vegStep = settings.roundingG[.veg] ?? 1
        let vegAmount = max(vegStep, (vegGrams / vegStep).rounded(.toNearestOrAwayFromZero) * vegStep)
        // One pass over the candidates, each copied once into its category's pool.
        var pools: [IngredientCategory: [Ingredient]] = [:]
        for category in IngredientCategory.allCases { pools[category] = [] }
        for candidate in candidates where candidate.category != .veg || candidate.portionRangeG.contains(vegAmount) {
            pools[candidate.category, default: []].append(candidate)
        }
        for category in IngredientCategory.allCases { pools[category]?.sort { $0.id < $1.id } }
        let short = IngredientCategory.allCases.filter { (pools[$0]?.count ?? 0) < minimum }
        if !short.isEmpty {
            let list = short.map { "\($0.rawValue) (\(pools[$0]?.count ?? 0))" }.joined(separator: ", ")
            return .infeasible("too few eligible ingredients for \(minimum) options per category: \(list)")
        }
        var closest: Candidate?
        var unrounded: Candidate?
        for (stage, width) in searchWidths.enumerated() {
            let outcome = search(targets: targets, pools: pools, vegAmount: vegAmount, width: width, offered: offered, memo: &memo, stage: stage)
            if let options = outcome.options { return .options(options) }
            if let candidate = outcome.closest, closest.map({ candidate.slack > $0.slack }) ?? true { closest = candidate }
            if unrounded == nil { unrounded = outcome.unrounded }
        }
        // The ranking above looks at macro ratios only, so for a large meal its tightest sets may
        // all need more than some member's portion cap (fruit is nearly pure carbohydrate, but no
        // one eats a kilogram of it). A last search keeps only the members that can bring most of
        // their category's share within their portion range.
        var portionable = pools
        for category in [IngredientCategory.protein, .carb, .fat] {
            guard let primary = category.primaryNutrient else { continue }
            let need = targets.macros[primary] * portionableShare
            portionable[category] = pools[category]?.filter { $0.perGram[primary] * $0.portionRangeG.upperBound >= need }
        }
        let narrowed = IngredientCategory.allCases.contains { portionable[$0]?.count != pools[$0]?.count }
        if narrowed, IngredientCategory.allCases.allSatisfy({ (portionable[$0]?.count ?? 0) >= minimum }), let width = searchWidths.last {
            let outcome = search(
                targets: targets, pools: portionable, vegAmount: vegAmount, width: width, offered: offered, memo: &memo, stage: searchWidths.count)
            if let options = outcome.options { return .options(options) }
            if let candidate = outcome.closest, closest.map({ candidate.slack > $0.slack }) ?? true { closest = candidate }
            if unrounded == nil { unrounded = outcome.unrounded }
        }
        if let unrounded { return .infeasible(roundingExplanation(unrounded, targets: targets)) }
        return .infeasible(explanation(closest: closest, targets: targets))
    }

    /// The sets a search keeps per category and the combinations of them that keep the guarantee
    /// before rounding; computed once per meal targets and width, whichever meal of the day asks.
    struct Ranking: Sendable {
        var protein: [OptionSet]
        var carb: [OptionSet]
        var fat: [OptionSet]
        var veg: [OptionSet]
        /// The best combinations by room to spare, best first.
        var feasible: [RankedCombination]
        /// For each kept protein set, its best combination (if any keeps the guarantee).
        var bestPerProtein: [RankedCombination?]
        var closest: Candidate?
    }

    /// One search over the `width` tightest sets per category: options that keep the guarantee,
    /// or the closest candidate and the best one that only rounding broke.
    private func search(
        targets: MealTargets, pools: [IngredientCategory: [Ingredient]], vegAmount: Double, width: (sized: Int, veg: Int),
        offered: Set<String>, memo: inout Memo, stage: Int
    ) -> (options: MealOptions?, closest: Candidate?, unrounded: Candidate?) {
        let key = Memo.Key(targets: targets, stage: stage, proteinFoodGroups: settings.proteinFoodGroupsMin)
        let ranking: Ranking
        if let known = memo.rankings[key] {
            ranking = known
        } else {
            ranking = rank(targets: targets, pools: pools, vegAmount: vegAmount, width: width)
            memo.rankings[key] = ranking
        }
        // The day's first meal takes the combination with the most room; later ones first try
        // each protein set's best combination, those with the most options not yet offered first.
        var order = ranking.feasible
        if !offered.isEmpty {
            let fresh = ranking.bestPerProtein.compactMap { $0 }.map { entry in
                (entry: entry, fresh: ranking.protein[entry.protein].members.reduce(0) { $0 + (offered.contains($1.id) ? 0 : 1) })
            }
            let novel = fresh.filter { $0.fresh > 0 }.sorted { $0.fresh != $1.fresh ? $0.fresh > $1.fresh : RankedCombination.ranksBefore($0.entry, $1.entry) }
            order = novel.map(\.entry) + order
        }
        var first: Candidate?
        for entry in order {
            let sets = [ranking.protein[entry.protein], ranking.carb[entry.carb], ranking.fat[entry.fat]]
            guard let candidate = centre(sized: sets, veg: ranking.veg[entry.veg], vegGrams: vegAmount, target: targets.macros) else { continue }
            if first == nil { first = candidate }
            guard let options = materialize(candidate, targets: targets) else { continue }
            return (grow(candidate, options: options, pools: pools, targets: targets, offered: offered), nil, nil)
        }
        return (nil, ranking.closest, first)
    }

    /// Ranks the `width` tightest sets per category and their combinations.
    private func rank(targets: MealTargets, pools: [IngredientCategory: [Ingredient]], vegAmount: Double, width: (sized: Int, veg: Int)) -> Ranking {
        let minimum = settings.optionsPerCategory.lowerBound
        let target = targets.macros
        var ranked: [IngredientCategory: [OptionSet]] = [:]
        for category in [IngredientCategory.protein, .carb, .fat] {
            ranked[category] = tightestSets(category: category, pool: pools[category] ?? [], target: target, size: minimum, limit: width.sized)
        }
        ranked[.veg] = tightestVegSets(pool: pools[.veg] ?? [], grams: vegAmount, target: target, size: minimum, limit: width.veg)

        // Centre every combination of kept sets, remembering only scores; candidates are rebuilt
        // for the few that are rounded, which keeps the search free of copies.
        // Only the best few are ever rounded, so only they are kept, best first.
        var feasible: [RankedCombination] = []
        feasible.reserveCapacity(roundingAttempts + 1)
        var closest: Candidate?
        var closestSlack = -Double.infinity
        let proteinSets = ranked[.protein] ?? [], carbSets = ranked[.carb] ?? [], fatSets = ranked[.fat] ?? [], vegSets = ranked[.veg] ?? []
        var bestPerProtein = [RankedCombination?](repeating: nil, count: proteinSets.count)
        let vegShares = vegSets.map { VegShare($0, grams: vegAmount, energy: settings.energy) }
        for (p, proteinSet) in proteinSets.enumerated() {
            for (c, carbSet) in carbSets.enumerated() {
                for (f, fatSet) in fatSets.enumerated() {
                    for (v, vegShare) in vegShares.enumerated() {
                        guard let slack = score(proteinSet, carbSet, fatSet, veg: vegShare, target: target) else { continue }
                        if slack >= 0 {
                            let combination = RankedCombination(slack: slack, protein: p, carb: c, fat: f, veg: v)
                            combination.keep(in: &feasible, limit: roundingAttempts)
                            if bestPerProtein[p].map({ RankedCombination.ranksBefore(combination, $0) }) ?? true { bestPerProtein[p] = combination }
                        } else if slack > closestSlack {
                            closestSlack = slack
                            closest = centre(sized: [proteinSet, carbSet, fatSet], veg: vegSets[v], vegGrams: vegAmount, target: target)
                        }
                    }
                }
            }
        }
        return Ranking(protein: proteinSets, carb: carbSets, fat: fatSets, veg: vegSets, feasible: feasible, bestPerProtein: bestPerProtein, closest: closest)
    }

    /// A combination of kept sets (positions in each category's ranking) that centres with room
    /// to spare; a plain value so the search stores hundreds of them without allocating.
    struct RankedCombination: Sendable {
        var slack: Double
        var protein: Int
        var carb: Int
        var fat: Int
        var veg: Int

        /// Most room first; ties go to the tighter sets, in category order.
        static func ranksBefore(_ a: RankedCombination, _ b: RankedCombination) -> Bool {
            if a.slack != b.slack { return a.slack > b.slack }
            return (a.protein, a.carb, a.fat, a.veg) < (b.protein, b.carb, b.fat, b.veg)
        }

        /// Inserts this combination into `best` (ranked, best first) when it is among the `limit`
        /// best seen; the same first `limit` as ranking every combination.
        func keep(in best: inout [RankedCombination], limit: Int) {
            if best.count == limit, let last = best.last, !Self.ranksBefore(self, last) { return }
            best.insert(self, at: best.firstIndex { Self.ranksBefore(self, $0) } ?? best.count)
            if best.count > limit { best.removeLast() }
        }
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
        /// Each member's portion range, kept beside the ratios so scoring never touches the members.
        var portionRanges: [ClosedRange<Double>]
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
            self.portionRanges = members.map(\.portionRangeG)
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

    /// The sets of `size` options (under either sizing key) that spread the macros least. Scoring
    /// runs over precomputed ratios without building a set, since pools give thousands of subsets.
    ///
    /// A set is scored at the amount that would supply the meal's whole target of the category's
    /// primary macro. Scoring at only part of it (say the 80% a category typically brings) would
    /// scale every cost in this ranking by the same factor, since the ranking only compares sets of
    /// one category for one meal: the order, and so the plan, would not change. That is why no such
    /// share appears here or in `rules/meals.yaml`.
    private func tightestSets(category: IngredientCategory, pool: [Ingredient], target: Macros, size: Int, limit keptSets: Int) -> [OptionSet] {
        guard let primary = category.primaryNutrient else { return [] }
        var kept: [ScoredSubset] = []
        // Whole foods first: a member's food group may add to the set's cost (rules/meals.yaml).
        let penalties = pool.map { settings.penalty($0) }
        // A meal's protein options span at least the rules' number of food groups, or every
        // group the eligible ingredients hold when they hold fewer.
        var groupNumbers: [String: Int] = [:]
        let groups = pool.map { ingredient -> Int in
            if let number = groupNumbers[ingredient.foodGroup] { return number }
            groupNumbers[ingredient.foodGroup] = groupNumbers.count
            return groupNumbers.count - 1
        }
        let groupsNeeded = category == .protein ? min(settings.proteinFoodGroupsMin, groupNumbers.count) : 1
        for sizing in [Sizing.primary, .energy] {
            let ratios = pool.map { ingredient -> Macros? in
                let perGram = ingredient.perGram
                let key = sizing == .primary ? perGram[primary] : settings.energy.kcal(perGram)
                return key > 0 ? perGram * (1 / key) : nil
            }
            func consider(_ indices: [Int], low: Macros, high: Macros) {
                let primaryPerKey = (low[primary] + high[primary]) / 2
                guard primaryPerKey > 0 else { return }
                if groupsNeeded > 1, Set(indices.map { groups[$0] }).count < groupsNeeded { return }
                let amount = target[primary] / primaryPerKey
                let cost = spreadCost(low: low, high: high, amount: amount, target: target) + indices.reduce(0) { $0 + penalties[$1] }
                if kept.count == keptSets, let last = kept.last, cost > last.cost { return }
                keep(ScoredSubset(cost: cost, indices: indices, sizing: sizing, ids: nil), in: &kept, limit: keptSets, pool: pool)
            }
            if size == 3 {
                // The usual case, written out: no index arrays unless a subset is worth keeping.
                // The pair's bounds are shared by every third member, so they are taken once.
                let count = pool.count
                let primaryTarget = target[primary]
                // The most primary macro per key among members after each position: with it a
                // pair gets a floor under the cost of every subset it starts (below).
                var laterPrimaryMax = Array(repeating: -Double.infinity, count: count + 1)
                for index in stride(from: count - 1, through: 0, by: -1) {
                    laterPrimaryMax[index] = max(laterPrimaryMax[index + 1], ratios[index]?[primary] ?? -.infinity)
                }
                for i in 0..<count {
                    guard let ri = ratios[i] else { continue }
                    for j in (i + 1)..<max(i + 1, count) {
                        guard let rj = ratios[j] else { continue }
                        let pairLow = Macros(protein: min(ri.protein, rj.protein), carb: min(ri.carb, rj.carb), fat: min(ri.fat, rj.fat))
                        let pairHigh = Macros(protein: max(ri.protein, rj.protein), carb: max(ri.carb, rj.carb), fat: max(ri.fat, rj.fat))
                        // Penalties are never negative, so the pair's add to its floor.
                        let pairPenalty = penalties[i] + penalties[j]
                        if kept.count == keptSets, let last = kept.last,
                           let floor = costFloor(pairLow: pairLow, pairHigh: pairHigh, laterPrimaryMax: laterPrimaryMax[j + 1], primary: primary, target: target),
                           floor + pairPenalty > last.cost {
                            continue
                        }
                        for k in (j + 1)..<max(j + 1, count) {
                            guard let rk = ratios[k] else { continue }
                            if groupsNeeded > 1 {
                                let distinct = 1 + (groups[j] != groups[i] ? 1 : 0) + (groups[k] != groups[i] && groups[k] != groups[j] ? 1 : 0)
                                if distinct < groupsNeeded { continue }
                            }
                            let low = Macros(protein: min(pairLow.protein, rk.protein), carb: min(pairLow.carb, rk.carb), fat: min(pairLow.fat, rk.fat))
                            let high = Macros(protein: max(pairHigh.protein, rk.protein), carb: max(pairHigh.carb, rk.carb), fat: max(pairHigh.fat, rk.fat))
                            let primaryPerKey = (low[primary] + high[primary]) / 2
                            guard primaryPerKey > 0 else { continue }
                            let amount = primaryTarget / primaryPerKey
                            let cost = spreadCost(low: low, high: high, amount: amount, target: target) + pairPenalty + penalties[k]
                            if kept.count == keptSets, let last = kept.last, cost > last.cost { continue }
                            keep(ScoredSubset(cost: cost, indices: [i, j, k], sizing: sizing, ids: nil), in: &kept, limit: keptSets, pool: pool)
                        }
                    }
                }
                continue
            }
            forEachSubset(of: pool.count, size: size) { indices in
                var low = Macros(protein: .infinity, carb: .infinity, fat: .infinity)
                var high = Macros(protein: -.infinity, carb: -.infinity, fat: -.infinity)
                for index in indices {
                    guard let ratio = ratios[index] else { return }
                    low.protein = min(low.protein, ratio.protein)
                    low.carb = min(low.carb, ratio.carb)
                    low.fat = min(low.fat, ratio.fat)
                    high.protein = max(high.protein, ratio.protein)
                    high.carb = max(high.carb, ratio.carb)
                    high.fat = max(high.fat, ratio.fat)
                }
                consider(indices, low: low, high: high)
            }
        }
        return kept.compactMap { scored in
            guard var set = OptionSet(category: category, sizing: scored.sizing, members: scored.indices.map { pool[$0] }, energy: settings.energy) else { return nil }
            set.cost = scored.cost
            return set
        }
    }

    private func tightestVegSets(pool: [Ingredient], grams: Double, target: Macros, size: Int, limit keptVegSets: Int) -> [OptionSet] {
        var kept: [ScoredSubset] = []
        let perGram = pool.map(\.perGram)
        forEachSubset(of: pool.count, size: size) { indices in
            var low = Macros(protein: .infinity, carb: .infinity, fat: .infinity)
            var high = Macros(protein: -.infinity, carb: -.infinity, fat: -.infinity)
            for index in indices {
                let ratio = perGram[index]
                low.protein = min(low.protein, ratio.protein)
                low.carb = min(low.carb, ratio.carb)
                low.fat = min(low.fat, ratio.fat)
                high.protein = max(high.protein, ratio.protein)
                high.carb = max(high.carb, ratio.carb)
                high.fat = max(high.fat, ratio.fat)
            }
            let cost = spreadCost(low: low, high: high, amount: grams, target: target)
            keep(ScoredSubset(cost: cost, indices: indices, sizing: .weight, ids: nil), in: &kept, limit: keptVegSets, pool: pool)
        }
        return kept.compactMap { scored in
            guard var set = OptionSet(category: .veg, sizing: .weight, members: scored.indices.map { pool[$0] }, energy: settings.energy) else { return nil }
            set.cost = scored.cost
            return set
        }
    }

    /// A subset's score before any set is built.
    private struct ScoredSubset {
        var cost: Double
        var indices: [Int]
        var sizing: Sizing
        var ids: [String]?
    }

    /// Keeps the `limit` cheapest subsets; ties go to the subset whose ingredient ids come first,
    /// then to primary sizing, so the result never depends on enumeration order.
    private func keep(_ subset: ScoredSubset, in kept: inout [ScoredSubset], limit: Int, pool: [Ingredient]) {
        func precedes(_ a: ScoredSubset, _ b: ScoredSubset) -> Bool {
            if a.cost != b.cost { return a.cost < b.cost }
            if a.indices != b.indices { return a.indices.map { pool[$0].id }.lexicographicallyPrecedes(b.indices.map { pool[$0].id }) }
            return a.sizing == .primary && b.sizing != .primary
        }
        if kept.count == limit, let last = kept.last, !precedes(subset, last) { return }
        let index = kept.firstIndex { precedes(subset, $0) } ?? kept.count
        kept.insert(subset, at: index)
        if kept.count > limit { kept.removeLast() }
    }

    /// A value no subset made of this pair and one later member can cost less than, so a full
    /// ranking skips the pair when even this is too dear; `nil` when no such floor holds.
    ///
    /// A third member only widens the pair's spreads, and the amount falls as the primary macro per
    /// key rises, which is at most the pair's low plus the later members' highest, halved. Every
    /// step of ``spreadCost(low:high:amount:target:)`` is monotone in floating point as well
    /// (rounding keeps order), so the floor, computed the same way, is never above a real cost.
    private func costFloor(pairLow: Macros, pairHigh: Macros, laterPrimaryMax: Double, primary: MacroNutrient, target: Macros) -> Double? {
        guard MealMeasure.allCases.allSatisfy({ settings.tolerances[$0].isFinite }), target.protein > 0, target.carb > 0, target.fat > 0,
              MacroNutrient.allCases.allSatisfy({ settings.halfWidth(MealMeasure($0), target: target[$0]) > 0 })
        else { return nil }
        let highestPrimaryPerKey = (pairLow[primary] + max(pairHigh[primary], laterPrimaryMax)) / 2
        guard highestPrimaryPerKey > 0, highestPrimaryPerKey.isFinite else { return nil }
        return spreadCost(low: pairLow, high: pairHigh, amount: target[primary] / highestPrimaryPerKey, target: target)
    }

    /// Written out per nutrient (same order of additions as a loop from zero): this runs for every
    /// subset the search ranks.
    func spreadCost(low: Macros, high: Macros, amount: Double, target: Macros) -> Double {
        let protein = amount * (high.protein - low.protein) / (2 * settings.halfWidth(.protein, target: target.protein))
        let carb = amount * (high.carb - low.carb) / (2 * settings.halfWidth(.carb, target: target.carb))
        let fat = amount * (high.fat - low.fat) / (2 * settings.halfWidth(.fat, target: target.fat))
        return protein + carb + fat
    }
}
