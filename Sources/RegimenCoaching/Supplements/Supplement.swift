import OrderedCollections

/// One item of `catalogs/supplement-catalog.yaml`: the fields the app shows (category, dose, pros, cons,
/// side effects, cautions, evidence tier, buying checks) plus what dosing and safety screening
/// need (see docs/requirements.md#supplements).
package struct Supplement: Sendable, Hashable {
    package enum Category: String, Sendable, Hashable, CaseIterable { case core, performance, health }

    /// A = consistent benefit, recommended by a position stand; B = benefit for some uses or
    /// conditions; C = weak or mixed. `A < B < C` reads as "better than".
    package enum EvidenceTier: String, Sendable, Hashable, CaseIterable, Comparable {
        case a = "A", b = "B", c = "C"
        package static func < (lhs: EvidenceTier, rhs: EvidenceTier) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    enum SodiumLoad: String, Sendable, Hashable, CaseIterable { case none, moderate, high }
    package enum Pregnancy: String, Sendable, Hashable, CaseIterable {
        case compatible
        case insufficientData = "insufficient_data"
        case avoid
    }

    package var id: String
    package var name: String
    package var category: Category
    package var goals: [String]
    package var evidenceTier: EvidenceTier
    var dose: SupplementDose
    var stimulant: Bool
    var sodiumLoad: SodiumLoad
    var giRisk: Bool
    var pregnancy: Pregnancy
    /// Food tags of `rules/dietary-exclusions.yaml` the product contains.
    package var contains: [String]
    /// Tags of the usual source when a version without them exists (fish oil → algae oil).
    var usualSourceContains: [String]
    var alternativeSource: String?
    /// Medication class → what the interaction does.
    var interactions: OrderedDictionary<String, String>
    /// Items that already cover this one.
    var redundantWith: [String]
    var pros: [String]
    var cons: [String]
    var sideEffects: [String]
    /// The item's own cautions (shown whatever the profile).
    var cautions: [String]
    var purchaseChecks: [String]

    init(
        id: String, name: String, category: Category, goals: [String], evidenceTier: EvidenceTier, dose: SupplementDose,
        stimulant: Bool = false, sodiumLoad: SodiumLoad = .none, giRisk: Bool = false, pregnancy: Pregnancy = .insufficientData,
        contains: [String] = [], usualSourceContains: [String] = [], alternativeSource: String? = nil,
        interactions: OrderedDictionary<String, String> = [:], redundantWith: [String] = [], pros: [String] = [],
        cons: [String] = [], sideEffects: [String] = [], cautions: [String] = [], purchaseChecks: [String] = []
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.goals = goals
        self.evidenceTier = evidenceTier
        self.dose = dose
        self.stimulant = stimulant
        self.sodiumLoad = sodiumLoad
        self.giRisk = giRisk
        self.pregnancy = pregnancy
        self.contains = contains
        self.usualSourceContains = usualSourceContains
        self.alternativeSource = alternativeSource
        self.interactions = interactions
        self.redundantWith = redundantWith
        self.pros = pros
        self.cons = cons
        self.sideEffects = sideEffects
        self.cautions = cautions
        self.purchaseChecks = purchaseChecks
    }
}

/// How much of an item to take, where the figure comes from, and the limit it never exceeds.
package struct SupplementDose: Sendable, Hashable {
    package enum Basis: String, Sendable, Hashable, CaseIterable {
        case perKg = "per_kg"
        case fixed
    }
    package enum Unit: String, Sendable, Hashable, CaseIterable { case mg, g, iu = "IU" }
    /// What one dose covers.
    package enum Period: String, Sendable, Hashable, CaseIterable { case serving, day, hour }
    /// Where in the range the suggested dose sits.
    package enum Point: String, Sendable, Hashable, CaseIterable { case low, mid, high }

    /// A tolerable upper intake level (or a single-dose safety limit) with its source.
    struct UpperLimit: Sendable, Hashable {
        var amount: Double
        var basis: Basis
        var period: Period
        package var source: String

    }

    var basis: Basis
    /// In `unit`, per kg of body weight when `basis` is `.perKg`.
    package var range: ClosedRange<Double>
    package var unit: Unit
    var period: Period
    package var point: Point
    /// The suggestion is rounded down to a multiple of this.
    var roundTo: Double
    /// The most one intake may hold; larger amounts are split.
    var maxSingle: Double?
    /// Intakes a day when the timing names a fixed number (`split into three doses`): the
    /// amount is then split into exactly this many, so the amount and the timing agree.
    var doses: Int?
    var upperLimit: UpperLimit?
    var timing: String
    /// The position stand or consensus the dose follows.
    package var source: String
    /// The seed's figure, verbatim.
    var seed: String
    /// The stand's figure where it differs from the seed's.
    var stand: String?
    /// Why the chosen range is what it is, when it differs from the seed.
    package var choice: String?

    init(
        basis: Basis, range: ClosedRange<Double>, unit: Unit, period: Period, point: Point, roundTo: Double,
        maxSingle: Double? = nil, doses: Int? = nil, upperLimit: UpperLimit? = nil, timing: String, source: String, seed: String,
        stand: String? = nil, choice: String? = nil
    ) {
        self.basis = basis
        self.range = range
        self.unit = unit
        self.period = period
        self.point = point
        self.roundTo = roundTo
        self.maxSingle = maxSingle
        self.doses = doses
        self.upperLimit = upperLimit
        self.timing = timing
        self.source = source
        self.seed = seed
        self.stand = stand
        self.choice = choice
    }
}

/// `catalogs/supplement-catalog.yaml`: the goal vocabulary and the items, in file order.
struct SupplementCatalog: Sendable, Hashable {
    package var goals: [String]
    var supplements: [Supplement]

    func supplement(_ id: String) -> Supplement? { supplements.first { $0.id == id } }
}
