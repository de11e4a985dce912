import RegimenLanguage
import RegimenRules

/// A named expression of a rule file (`let:` bindings, facts).
public struct NamedExpression: Sendable {
    public var name: String
    public var expression: CompiledExpression

    public init(name: String, expression: CompiledExpression) {
        self.name = name
        self.expression = expression
    }
}

/// One rule of `rules/readiness-rules.yaml` or `rules/progression-rules.yaml`: when it fires, what it changes
/// (amounts are expressions) and the reason the change log gives.
public struct AdaptationRule: Sendable {
    /// What a rule is checked against.
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// Once for the whole adaptation (week-level facts).
        case week
        /// Once per region of the latest check-in's soreness.
        case soreRegion = "sore_region"
        /// Once per exercise of the logged sessions.
        case loggedExercise = "logged_exercise"

        /// The variables expressions of this scope can read: the week's, plus the instance's.
        public var variables: [VariableDeclaration] {
            switch self {
            case .week: AdaptationVariables.weekScope.variables
            case .soreRegion: AdaptationVariables.weekScope.variables + AdaptationVariables.soreRegionScope.variables
            case .loggedExercise: AdaptationVariables.weekScope.variables + AdaptationVariables.loggedExerciseScope.variables
            }
        }
    }

    /// The changes a rule makes; every amount is an expression of the rule's scope.
    public struct Actions: Sendable {
        /// Sets added or removed for the target's muscles in their next session (region or lift).
        public var sets: CompiledExpression?
        /// Name an easier variant of each exercise that loses sets.
        public var suggestRegression = false
        /// Percent change of the week's total sets.
        public var weeklySetsPercent: CompiledExpression?
        /// The lowest RIR any block may prescribe.
        public var rirFloor: CompiledExpression?
        /// Percent change of daily calories (macros follow).
        public var kcalPercent: CompiledExpression?
        /// Percent change of the lift's load.
        public var loadPercent: CompiledExpression?
        /// Sets added to a lagging muscle below its cap…
        public var laggingSet: CompiledExpression?
        /// …or else this percent change of the lift's load.
        public var otherwiseLoadPercent: CompiledExpression?
        /// Reps added to (or taken from) both ends of the lift's rep range in its blocks.
        public var reps: CompiledExpression?
        /// The lift's blocks move to its harder variant (the first of its catalog `progressions`).
        public var harderVariant = false
        /// Mark the patched plan as a deload week.
        public var deload = false
        /// A change-log line that changes nothing.
        public var note: String?

        public init() {}

        /// Whether the rule would change or say anything.
        public var isEmpty: Bool {
            sets == nil && weeklySetsPercent == nil && rirFloor == nil && kcalPercent == nil && loadPercent == nil
                && laggingSet == nil && !deload && note == nil && reps == nil && !harderVariant
        }
    }

    public var id: String
    public var scope: Scope
    public var condition: CompiledExpression
    public var actions: Actions
    public var reason: MessageTemplate
    /// Rules that do not apply when this one fires.
    public var supersedes: [String]
    /// Where the rule's id is written.
    public var location: SourceLocation?

    public init(
        id: String, scope: Scope, condition: CompiledExpression, actions: Actions, reason: MessageTemplate,
        supersedes: [String] = [], location: SourceLocation? = nil
    ) {
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
public struct ReadinessRules: Sendable {
    /// How calories turn back into macros after a change, and the floor calories never cross.
    public struct MacroRule: Sendable {
        public var proteinKcalPerGram: Double
        public var carbKcalPerGram: Double
        public var fatKcalPerGram: Double
        /// Week-level expression: the lowest daily calories a cut may reach.
        public var kcalFloor: CompiledExpression

        public init(proteinKcalPerGram: Double, carbKcalPerGram: Double, fatKcalPerGram: Double, kcalFloor: CompiledExpression) {
            self.proteinKcalPerGram = proteinKcalPerGram
            self.carbKcalPerGram = carbKcalPerGram
            self.fatKcalPerGram = fatKcalPerGram
            self.kcalFloor = kcalFloor
        }
    }

    /// `let:` bindings, in order, then the score of one check-in.
    public var readinessLets: [NamedExpression]
    public var readinessScore: CompiledExpression
    public var lowDay: CompiledExpression
    public var highDay: CompiledExpression
    /// Region → the plan muscles it covers.
    public var regions: [(region: String, muscles: [String])]
    public var lagging: CompiledExpression
    public var minSetsPerBlock: Int
    /// Weeks in a training block: week 7 is week 1 of the second block.
    public var blockWeeks: Int
    public var macros: MacroRule
    public var rules: [AdaptationRule]

    public init(
        readinessLets: [NamedExpression], readinessScore: CompiledExpression, lowDay: CompiledExpression,
        highDay: CompiledExpression, regions: [(region: String, muscles: [String])], lagging: CompiledExpression,
        minSetsPerBlock: Int, blockWeeks: Int, macros: MacroRule, rules: [AdaptationRule]
    ) {
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
    public func muscles(ofRegion region: String) -> [String]? {
        regions.first { $0.region == region }?.muscles
    }
}

/// `rules/progression-rules.yaml`, compiled.
public struct ProgressionRules: Sendable {
    /// Equipment tag → the smallest load step in kg.
    public var increments: [(equipment: String, kg: Double)]
    public var defaultIncrementKg: Double
    /// First match wins, per logged exercise.
    public var rules: [AdaptationRule]

    public init(increments: [(equipment: String, kg: Double)], defaultIncrementKg: Double, rules: [AdaptationRule]) {
        self.increments = increments
        self.defaultIncrementKg = defaultIncrementKg
        self.rules = rules
    }

    /// The load step for an exercise needing `equipment`: the largest listed step among its tags
    /// (a barbell lift on a bench moves in barbell steps), else the default.
    public func incrementKg(forEquipment equipment: [String]) -> Double {
        let steps = increments.filter { equipment.contains($0.equipment) }.map(\.kg)
        return steps.max() ?? defaultIncrementKg
    }
}
