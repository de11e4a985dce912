/// The training rules after loading: every table resolved over its declared domain, so planning
/// is plain lookups. Built from `rules/training-*.yaml` and `catalogs/plan-templates.yaml`.
///
/// Each resolved value keeps the ``RuleReference`` of the row that produced it for `--explain`.
public struct TrainingRules: Sendable {
    /// A value together with the rule row that decided it.
    public struct Decided<Wrapped: Sendable>: Sendable {
        public var value: Wrapped
        public var source: RuleReference

        public init(_ value: Wrapped, source: RuleReference) {
            self.value = value
            self.source = source
        }
    }

    /// One row of the split table: the default template and the others a user may choose.
    public struct SplitChoice: Sendable, Hashable {
        /// How the template is chosen when the person names none (`--split`).
        public enum Rule: String, Sendable, Hashable, CaseIterable {
            /// The row's `split`.
            case first
            /// The allowed template whose week leaves the fewest muscles below their band minimum
            /// within the session limits (then the smallest total shortfall, then row order).
            case mostBandMinimums = "most_band_minimums"
        }

        public var defaultTemplate: String
        public var options: [String]
        public var choose: Rule

        public init(defaultTemplate: String, options: [String] = [], choose: Rule = .first) {
            self.defaultTemplate = defaultTemplate
            self.options = options
            self.choose = choose
        }

        /// Every template allowed for this number of days, default first.
        public var allowed: [String] { [defaultTemplate] + options }
    }

    /// How one set counts toward a muscle's weekly sets: `direct` for each primary muscle of the
    /// exercise, `indirect` for each secondary muscle. Plan, bands, diff and adapt all use it.
    public struct SetCredit: Sendable, Hashable {
        public var direct: Double
        public var indirect: Double

        public init(direct: Double, indirect: Double) {
            self.direct = direct
            self.indirect = indirect
        }
    }

    /// A kind of day (push, upper, full body...): its muscles in session order.
    public struct DayType: Sendable, Hashable {
        public var id: String
        public var focus: String
        public var muscles: [String]
        public var isRecovery: Bool
        /// Movement patterns this day prefers for a muscle (tried first, others allowed).
        public var preferredPatterns: [String: [String]]
        /// Movement patterns a muscle is limited to on this day (its role: shoulders on a pull day
        /// are the rear delts); no other pattern is chosen for it.
        public var roles: [String: [String]]

        public init(
            id: String, focus: String, muscles: [String], isRecovery: Bool = false, preferredPatterns: [String: [String]] = [:],
            roles: [String: [String]] = [:]
        ) {
            self.roles = roles
            self.id = id
            self.focus = focus
            self.muscles = muscles
            self.isRecovery = isRecovery
            self.preferredPatterns = preferredPatterns
        }
    }

    /// A week's scaffold (seed `/plan_templates/{id}`).
    public struct PlanTemplate: Sendable, Hashable {
        public var id: String
        public var name: String
        public var equipmentProfiles: [Profile.Equipment]
        /// Day type ids, one per training day.
        public var weeklyStructure: [String]

        public init(id: String, name: String, equipmentProfiles: [Profile.Equipment], weeklyStructure: [String]) {
            self.id = id
            self.name = name
            self.equipmentProfiles = equipmentProfiles
            self.weeklyStructure = weeklyStructure
        }
    }

    /// Reps and reps-in-reserve for one kind of exercise, and how many sets one exercise may take.
    public struct Prescription: Sendable, Hashable {
        public var maxSetsPerExercise: Int
        public var reps: ClosedRange<Int>
        public var rir: ClosedRange<Int>

        public init(maxSetsPerExercise: Int, reps: ClosedRange<Int>, rir: ClosedRange<Int>) {
            self.maxSetsPerExercise = maxSetsPerExercise
            self.reps = reps
            self.rir = rir
        }
    }

    /// What a goal changes in training: rep range, reps in reserve, a multiplier on the weekly
    /// sets and extra blocks (docs/requirements.md#training-volume).
    public struct GoalModifier: Sendable, Hashable {
        /// `hypertrophy`, `strength` or `fat_loss`: the name rest rules and explanations use.
        public var name: String
        /// Multiplier on the experience band (0.8 = −20% sets).
        public var setFactor: Double
        public var compound: Prescription
        public var isolation: Prescription
        /// Conditioning exercises for a finisher block, first allowed one wins; empty for none.
        public var finisherOptions: [String]
        public var finisherMinutes: Int

        public init(
            name: String, setFactor: Double, compound: Prescription, isolation: Prescription,
            finisherOptions: [String] = [], finisherMinutes: Int = 0
        ) {
            self.name = name
            self.setFactor = setFactor
            self.compound = compound
            self.isolation = isolation
            self.finisherOptions = finisherOptions
            self.finisherMinutes = finisherMinutes
        }

        public func prescription(for movement: Exercise.Movement) -> Prescription {
            movement == .compound ? compound : isolation
        }
    }

    /// How much one session may hold.
    public struct SessionLimits: Sendable, Hashable {
        public var maxSetsPerSession: Int
        public var maxSetsPerMusclePerSession: Int
        public var maxMinutes: Int

        public init(maxSetsPerSession: Int, maxSetsPerMusclePerSession: Int, maxMinutes: Int) {
            self.maxSetsPerSession = maxSetsPerSession
            self.maxSetsPerMusclePerSession = maxSetsPerMusclePerSession
            self.maxMinutes = maxMinutes
        }
    }

    /// A local set cut for an injury: a flagged injury lowers the weekly sets of the muscles it
    /// affects (docs/requirements.md#exercise-selection).
    public struct InjuryCut: Sendable, Hashable {
        public var muscles: [String]
        /// Fraction removed, 0.3 = −30%.
        public var cut: Double

        public init(muscles: [String], cut: Double) {
            self.muscles = muscles
            self.cut = cut
        }
    }

    /// The busy-day variant's limits.
    public struct CompactRules: Sendable, Hashable {
        public var maxMinutes: Int
        public var warmupSeconds: Int
        public var rounds: Int
        public var groupSize: Int
        public var restBetweenRoundsSeconds: Int
        public var transitionSeconds: Int

        public init(maxMinutes: Int, warmupSeconds: Int, rounds: Int, groupSize: Int, restBetweenRoundsSeconds: Int, transitionSeconds: Int) {
            self.maxMinutes = maxMinutes
            self.warmupSeconds = warmupSeconds
            self.rounds = rounds
            self.groupSize = groupSize
            self.restBetweenRoundsSeconds = restBetweenRoundsSeconds
            self.transitionSeconds = transitionSeconds
        }
    }

    /// One block of the active-recovery day: the first allowed option is used.
    public struct RecoveryBlock: Sendable, Hashable {
        public var options: [String]
        public var sets: Int

        public init(options: [String], sets: Int) {
            self.options = options
            self.sets = sets
        }
    }

    // Splits (rules/training-splits.yaml, catalogs/plan-templates.yaml)
    public var maxTrainingDays: Decided<Int>
    public var recoveryTemplate: String
    public var splitsByDays: [Int: Decided<SplitChoice>]
    public var templates: [String: PlanTemplate]
    public var dayTypes: [String: DayType]

    // Volume (rules/training-volume.yaml)
    public var trackedMuscles: [String]
    public var setCredit: Decided<SetCredit>
    public var defaultExperience: Profile.Experience
    public var targetPosition: Double
    public var bands: [Profile.Experience: Decided<ClosedRange<Int>>]

    // Goals (rules/training-goals.yaml)
    public var defaultGoal: String
    public var goalModifiers: [String: Decided<GoalModifier>]

    // Session limits (rules/training-session-limits.yaml)
    public var sessionLimits: [Profile.Experience: Decided<SessionLimits>]
    public var warmupSeconds: Int
    public var transitionSeconds: Int
    /// Rest between sets, by goal modifier name and movement.
    public var restSeconds: [String: [Exercise.Movement: Decided<Int>]]

    // Selection (rules/training-selection.yaml)
    public var equipmentProfiles: [Profile.Equipment: Set<String>]
    public var defaultEquipment: Profile.Equipment
    public var allowedLevels: [Profile.Experience: Set<Exercise.Level>]
    public var maxExercisesPerMusclePerSession: Int
    public var minSetsPerExercise: Int
    public var injuryCuts: [Profile.Injury: Decided<InjuryCut>]
    public var selectionPolicy: RuleReference

    // Busy-day variant and recovery day (rules/training-compact.yaml, rules/training-recovery.yaml)
    public var compact: Decided<CompactRules>
    public var recoveryNote: String
    public var recoveryBlocks: [RecoveryBlock]
    public var recoverySource: RuleReference

    public init(
        maxTrainingDays: Decided<Int>, recoveryTemplate: String, splitsByDays: [Int: Decided<SplitChoice>],
        templates: [String: PlanTemplate], dayTypes: [String: DayType], trackedMuscles: [String],
        setCredit: Decided<SetCredit>, defaultExperience: Profile.Experience, targetPosition: Double,
        bands: [Profile.Experience: Decided<ClosedRange<Int>>], defaultGoal: String,
        goalModifiers: [String: Decided<GoalModifier>], sessionLimits: [Profile.Experience: Decided<SessionLimits>],
        warmupSeconds: Int, transitionSeconds: Int, restSeconds: [String: [Exercise.Movement: Decided<Int>]],
        equipmentProfiles: [Profile.Equipment: Set<String>], defaultEquipment: Profile.Equipment,
        allowedLevels: [Profile.Experience: Set<Exercise.Level>], maxExercisesPerMusclePerSession: Int,
        minSetsPerExercise: Int, injuryCuts: [Profile.Injury: Decided<InjuryCut>], selectionPolicy: RuleReference,
        compact: Decided<CompactRules>, recoveryNote: String, recoveryBlocks: [RecoveryBlock], recoverySource: RuleReference
    ) {
        self.maxTrainingDays = maxTrainingDays
        self.recoveryTemplate = recoveryTemplate
        self.splitsByDays = splitsByDays
        self.templates = templates
        self.dayTypes = dayTypes
        self.trackedMuscles = trackedMuscles
        self.setCredit = setCredit
        self.defaultExperience = defaultExperience
        self.targetPosition = targetPosition
        self.bands = bands
        self.defaultGoal = defaultGoal
        self.goalModifiers = goalModifiers
        self.sessionLimits = sessionLimits
        self.warmupSeconds = warmupSeconds
        self.transitionSeconds = transitionSeconds
        self.restSeconds = restSeconds
        self.equipmentProfiles = equipmentProfiles
        self.defaultEquipment = defaultEquipment
        self.allowedLevels = allowedLevels
        self.maxExercisesPerMusclePerSession = maxExercisesPerMusclePerSession
        self.minSetsPerExercise = minSetsPerExercise
        self.injuryCuts = injuryCuts
        self.selectionPolicy = selectionPolicy
        self.compact = compact
        self.recoveryNote = recoveryNote
        self.recoveryBlocks = recoveryBlocks
        self.recoverySource = recoverySource
    }
}
