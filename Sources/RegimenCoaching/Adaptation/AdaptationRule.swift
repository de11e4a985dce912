package import RegimenLanguage
package import RegimenRules

/// A named expression of a rule file (`let:` bindings, facts).
package struct NamedExpression: Sendable {
    package var name: String
    package var expression: CompiledExpression

}

/// One rule of `rules/readiness-rules.yaml` or `rules/progression-rules.yaml`: when it fires, what it changes
/// (amounts are expressions) and the reason the change log gives.
package struct AdaptationRule: Sendable {
    /// What a rule is checked against.
    package enum Scope: String, Sendable, Hashable, CaseIterable {
        /// Once for the whole adaptation (week-level facts).
        case week
        /// Once per region of the latest check-in's soreness.
        case soreRegion = "sore_region"
        /// Once per exercise of the logged sessions.
        case loggedExercise = "logged_exercise"

        /// The variables expressions of this scope can read: the week's, plus the instance's.
        package var variables: [VariableDeclaration] {
            switch self {
            case .week: AdaptationVariables.weekScope.variables
            case .soreRegion: AdaptationVariables.weekScope.variables + AdaptationVariables.soreRegionScope.variables
            case .loggedExercise: AdaptationVariables.weekScope.variables + AdaptationVariables.loggedExerciseScope.variables
            }
        }
    }

    /// The changes a rule makes; every amount is an expression of the rule's scope.
    struct Actions: Sendable {
        /// Sets added or removed for the target's muscles in their next session (region or lift).
        var sets: CompiledExpression?
        /// Name an easier variant of each exercise that loses sets.
        var suggestRegression = false
        /// Percent change of the week's total sets.
        var weeklySetsPercent: CompiledExpression?
        /// The lowest RIR any block may prescribe.
        var rirFloor: CompiledExpression?
        /// Percent change of daily calories (macros follow).
        var kcalPercent: CompiledExpression?
        /// Percent change of the lift's load.
        var loadPercent: CompiledExpression?
        /// Sets added to a lagging muscle below its cap…
        var laggingSet: CompiledExpression?
        /// …or else this percent change of the lift's load.
        var otherwiseLoadPercent: CompiledExpression?
        /// …or, for a lift without external load, reps added to its range (at the rep ceiling,
        /// when this gives 0 or less, the lift moves to its harder variant as the progression
        /// rules move it).
        var otherwiseReps: CompiledExpression?
        /// Reps added to (or taken from) both ends of the lift's rep range in its blocks.
        var reps: CompiledExpression?
        /// The lift's blocks move to its harder variant (the first of its catalog `progressions`).
        var harderVariant = false
        /// Mark the patched plan as a deload week.
        var deload = false
        /// A change-log line that changes nothing.
        package var note: String?

        init() {}

        /// Whether the rule would change or say anything.
        package var isEmpty: Bool {
            sets == nil && weeklySetsPercent == nil && rirFloor == nil && kcalPercent == nil && loadPercent == nil
                && laggingSet == nil && !deload && note == nil && reps == nil && !harderVariant
        }
    }

    package var id: String
    package var scope: Scope
    package var condition: CompiledExpression
    var actions: Actions
    var reason: MessageTemplate
    /// Rules that do not apply when this one fires.
    var supersedes: [String]
    /// How long the rule's changes last (`lasts:`); later adaptations end them.
    var lasts: AdjustmentLifetime = .persistent
    /// Where the rule's id is written.
    package var location: SourceLocation?

    init(
        id: String, scope: Scope, condition: CompiledExpression, actions: Actions, reason: MessageTemplate,
        supersedes: [String] = [], lasts: AdjustmentLifetime = .persistent, location: SourceLocation? = nil
    ) {
        self.lasts = lasts
        self.id = id
        self.scope = scope
        self.condition = condition
        self.actions = actions
        self.reason = reason
        self.supersedes = supersedes
        self.location = location
    }
}

/// `rules/readiness-rules.yaml`, compiled.
package struct ReadinessRules: Sendable {
    /// How calories turn back into macros after a change. (The floors calories never cross are
    /// the calorie precedence's, rules/nutrition.yaml `calorie_precedence`.)
    package struct MacroRule: Sendable {
        var proteinKcalPerGram: Double
        var carbKcalPerGram: Double
        var fatKcalPerGram: Double

    }

    /// `let:` bindings, in order, then the score of one check-in.
    var readinessLets: [NamedExpression]
    var readinessScore: CompiledExpression
    var lowDay: CompiledExpression
    var highDay: CompiledExpression
    /// Region → the plan muscles it covers.
    var regions: [(region: String, muscles: [String])]
    var lagging: CompiledExpression
    var minSetsPerBlock: Int
    /// Weeks in a training block: week 7 is week 1 of the second block.
    var blockWeeks: Int
    /// The one deload clock, which `periodize` reads too.
    package var deloadClock: DeloadClock { DeloadClock(blockWeeks: blockWeeks) }
    package var macros: MacroRule
    package var rules: [AdaptationRule]
    /// When temporary changes end and how many weeks of records a plan keeps (`nil`: changes
    /// that are not persistent end at the next adaptation, records are not trimmed).
    var adjustments: AdjustmentPolicy?
    /// The measured weight trend (`nil`: only the typed `weight_trend_2w` counts).
    var weightTrend: WeightTrendRule?
    /// What the banner suggests at the calorie band's edges.
    var calorieBand: CalorieBandAdvice?

    package init(
        readinessLets: [NamedExpression], readinessScore: CompiledExpression, lowDay: CompiledExpression,
        highDay: CompiledExpression, regions: [(region: String, muscles: [String])], lagging: CompiledExpression,
        minSetsPerBlock: Int, blockWeeks: Int, macros: MacroRule, rules: [AdaptationRule],
        adjustments: AdjustmentPolicy? = nil, weightTrend: WeightTrendRule? = nil, calorieBand: CalorieBandAdvice? = nil
    ) {
        self.adjustments = adjustments
        self.weightTrend = weightTrend
        self.calorieBand = calorieBand
        self.blockWeeks = blockWeeks
        self.readinessLets = readinessLets
        self.readinessScore = readinessScore
        self.lowDay = lowDay
        self.highDay = highDay
        self.regions = regions
        self.lagging = lagging
        self.minSetsPerBlock = minSetsPerBlock
        self.macros = macros
        self.rules = rules
    }

    /// The muscles a region covers: its `regions` entry, or the region itself when it names a muscle.
    package func muscles(ofRegion region: String) -> [String]? {
        regions.first { $0.region == region }?.muscles
    }
}

/// `rules/progression-rules.yaml`, compiled.
package struct ProgressionRules: Sendable {
    /// Equipment tag → the smallest load step in kg.
    var increments: [(equipment: String, kg: Double)]
    var defaultIncrementKg: Double
    /// First match wins, per logged exercise.
    package var rules: [AdaptationRule]
    /// A load increase is this many percent of the load (seed §3.4: +2.5–5%); `nil`: any step.
    var loadStepPercent: ClosedRange<Double>?
    /// Where the smallest real step is above `loadStepPercent`, the rep range's top first grows
    /// by this many reps; the step comes when the lift reaches the extended top.
    var extendReps: Int

    init(
        increments: [(equipment: String, kg: Double)], defaultIncrementKg: Double, rules: [AdaptationRule],
        loadStepPercent: ClosedRange<Double>? = nil, extendReps: Int = 0
    ) {
        self.loadStepPercent = loadStepPercent
        self.extendReps = extendReps
        self.increments = increments
        self.defaultIncrementKg = defaultIncrementKg
        self.rules = rules
    }

    /// The load step for an exercise needing `equipment`: the largest listed step among its tags
    /// (a barbell lift on a bench moves in barbell steps), else the default.
    func incrementKg(forEquipment equipment: [String]) -> Double {
        let steps = increments.filter { equipment.contains($0.equipment) }.map(\.kg)
        return steps.max() ?? defaultIncrementKg
    }
}
