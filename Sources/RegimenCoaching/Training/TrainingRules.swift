/// The training rules after loading: every table resolved over its declared domain, so planning
/// is plain lookups. Built from `rules/training-*.yaml` and `catalogs/plan-templates.yaml`.
///
/// Each resolved value keeps the ``RuleReference`` of the row that produced it for `--explain`.
package struct TrainingRules: Sendable {
    /// A value together with the rule row that decided it.
    package struct Decided<Wrapped: Sendable>: Sendable {
        package var value: Wrapped
        package var source: RuleReference

        init(_ value: Wrapped, source: RuleReference) {
            self.value = value
            self.source = source
        }
    }

    /// One line of `training_volume.muscle_adjustments`: "intermediate chest +2 sets".
    struct MuscleAdjustment: Sendable, Hashable {
        /// A tracked muscle.
        var muscle: String
        /// The experience level it applies to; `nil` for every level.
        var experience: Profile.Experience?
        /// The goal id it applies to; `nil` for every goal.
        var goal: String?
        /// Sets added to both ends of the experience band (negative takes sets away), before the
        /// goal's set factor scales the band.
        var addSets: Int

        /// Whether the line applies to a person of this experience and goal.
        func applies(experience: Profile.Experience, goal: String) -> Bool {
            (self.experience ?? experience) == experience && (self.goal ?? goal) == goal
        }
    }

    /// One row of the split table: the default template and the others a user may choose.
    struct SplitChoice: Sendable, Hashable {
        /// How the template is chosen when the person names none (`--split`).
        enum Rule: String, Sendable, Hashable, CaseIterable {
            /// The row's `split`.
            case first
            /// The allowed template whose week leaves the fewest muscles below their band minimum
            /// within the session limits (then the smallest total shortfall, then row order).
            case mostBandMinimums = "most_band_minimums"
        }

        var defaultTemplate: String
        package var options: [String]
        package var choose: Rule

        init(defaultTemplate: String, options: [String] = [], choose: Rule = .first) {
            self.defaultTemplate = defaultTemplate
            self.options = options
            self.choose = choose
        }

        /// Every template allowed for this number of days, default first.
        var allowed: [String] { [defaultTemplate] + options }
    }

    /// How one set counts toward a muscle's weekly sets: `direct` for each primary muscle of the
    /// exercise, `indirect` for each secondary muscle. Plan, bands, diff and adapt all use it.
    package struct SetCredit: Sendable, Hashable {
        package var direct: Double
        package var indirect: Double

    }

    /// A kind of day (push, upper, full body...): its muscles in session order.
    struct DayType: Sendable, Hashable {
        package var id: String
        var focus: String
        package var muscles: [String]
        var isRecovery: Bool
        /// Movement patterns this day prefers for a muscle (tried first, others allowed).
        var preferredPatterns: [String: [String]]
        /// Movement patterns a muscle is limited to on this day (its role: shoulders on a pull day
        /// are the rear delts); no other pattern is chosen for it.
        var roles: [String: [String]]

        init(
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
    struct PlanTemplate: Sendable, Hashable {
        package var id: String
        package var name: String
        var equipmentProfiles: [Profile.Equipment]
        /// Day type ids, one per training day.
        var weeklyStructure: [String]

    }

    /// Reps and reps-in-reserve for one kind of exercise, and how many sets one exercise may take.
    struct Prescription: Sendable, Hashable {
        var maxSetsPerExercise: Int
        var reps: ClosedRange<Int>
        var rir: ClosedRange<Int>

        package init(maxSetsPerExercise: Int, reps: ClosedRange<Int>, rir: ClosedRange<Int>) {
            self.maxSetsPerExercise = maxSetsPerExercise
            self.reps = reps
            self.rir = rir
        }
    }

    /// What a goal changes in training: rep range, reps in reserve, a multiplier on the weekly
    /// sets and extra blocks (docs/requirements.md#training-volume).
    struct GoalModifier: Sendable, Hashable {
        /// `hypertrophy`, `strength` or `fat_loss`: the name rest rules and explanations use.
        package var name: String
        /// Multiplier on the experience band (0.8 = −20% sets).
        var setFactor: Double
        package var compound: Prescription
        package var isolation: Prescription
        /// Conditioning exercises for a finisher block, first allowed one wins; empty for none.
        var finisherOptions: [String]
        var finisherMinutes: Int

        init(
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

        func prescription(for movement: Exercise.Movement) -> Prescription {
            movement == .compound ? compound : isolation
        }
    }

    /// How much one session may hold.
    struct SessionLimits: Sendable, Hashable {
        var maxSetsPerSession: Int
        var maxSetsPerMusclePerSession: Int
        var maxMinutes: Int

    }

    /// A local set cut for an injury: a flagged injury lowers the weekly sets of the muscles it
    /// affects (docs/requirements.md#exercise-selection).
    struct InjuryCut: Sendable, Hashable {
        package var muscles: [String]
        /// Fraction removed, 0.3 = −30%.
        var cut: Double

    }

    /// The busy-day variant's limits.
    package struct CompactRules: Sendable, Hashable {
        var maxMinutes: Int
        var warmupSeconds: Int
        var rounds: Int
        var groupSize: Int
        var restBetweenRoundsSeconds: Int
        var transitionSeconds: Int

    }

    /// One block of the active-recovery day: the first allowed option is used.
    struct RecoveryBlock: Sendable, Hashable {
        package var options: [String]
        var sets: Int

    }

    // Splits (rules/training-splits.yaml, catalogs/plan-templates.yaml)
    var maxTrainingDays: Decided<Int>
    var recoveryTemplate: String
    var splitsByDays: [Int: Decided<SplitChoice>]
    var templates: [String: PlanTemplate]
    var dayTypes: [String: DayType]

    // Volume (rules/training-volume.yaml)
    var trackedMuscles: [String]
    package var setCredit: Decided<SetCredit>
    var defaultExperience: Profile.Experience
    var targetPosition: Double
    var bands: [Profile.Experience: Decided<ClosedRange<Int>>]
    /// Sets added to one muscle's band (`muscle_adjustments`), each for an experience level, a
    /// goal, both or neither; every matching row adds. None unless the rules give them.
    var muscleAdjustments: [Decided<MuscleAdjustment>] = []

    // Goals (rules/training-goals.yaml)
    var defaultGoal: String
    var goalModifiers: [String: Decided<GoalModifier>]

    // Session limits (rules/training-session-limits.yaml)
    var sessionLimits: [Profile.Experience: Decided<SessionLimits>]
    var warmupSeconds: Int
    var transitionSeconds: Int
    /// Rest between sets, by goal modifier name and movement.
    var restSeconds: [String: [Exercise.Movement: Decided<Int>]]

    // Selection (rules/training-selection.yaml)
    var equipmentProfiles: [Profile.Equipment: Set<String>]
    var defaultEquipment: Profile.Equipment
    var allowedLevels: [Profile.Experience: Set<Exercise.Level>]
    var maxExercisesPerMusclePerSession: Int
    /// Pregnancy, high blood pressure and age screens (`safety_screens`); none unless the rules give them.
    var safetyScreens = SafetyScreens()
    /// Loaded before bodyweight, small-muscle limits, strength patterns, balance (`exercise_choice`); none unless the rules give them.
    var exerciseChoice = ExerciseChoiceRules()
    var minSetsPerExercise: Int
    var injuryCuts: [Profile.Injury: Decided<InjuryCut>]
    package var selectionPolicy: RuleReference

    // Busy-day variant and recovery day (rules/training-compact.yaml, rules/training-recovery.yaml)
    package var compact: Decided<CompactRules>
    var recoveryNote: String
    var recoveryBlocks: [RecoveryBlock]
    var recoverySource: RuleReference

    init(
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
