/// A week of training produced by ``TrainingPlanner``: the seed's `workouts` plus the accounting
/// that backs it (bands, planned sets, shortfalls) and the notes a person needs.
public struct TrainingWeek: Sendable, Hashable {
    /// Which split was used and why.
    public struct Split: Sendable, Hashable {
        /// The split template's id in the rules.
        public var templateId: String
        /// The split's name as shown to people.
        public var name: String
        /// The days per week the profile asked for.
        public var requestedDays: Int
        /// The days with training sessions.
        public var trainingDays: Int
        /// The recovery days (light, no hard sets).
        public var recoveryDays: Int
        /// Other templates allowed for this number of days.
        public var options: [String]
        package var source: RuleReference
    }

    /// The inputs after defaults were applied.
    public struct Inputs: Sendable, Hashable {
        /// The training experience used.
        public var experience: Profile.Experience
        /// The equipment used.
        public var equipment: Profile.Equipment
        /// The goal used.
        public var goal: String
        /// The goal's volume modifier applied to the bands.
        public var modifier: String
        /// The injuries the exercises avoid or regress for.
        public var injuries: [Profile.Injury]
    }

    /// The split used.
    public var split: Split
    /// The inputs after defaults were applied.
    public var inputs: Inputs
    /// The sessions, one per day of the week.
    public var workouts: [Workout]
    /// One entry per tracked muscle, in the rules' order.
    public var volume: [MuscleVolume]
    /// Substitutions, injury cuts, recovery-day notes: things a person should know.
    public var notes: [String]
    /// Suggestions such as training more days when a band does not fit.
    public var tips: [String]
    /// Defaults used because the profile did not say.
    public var assumptions: [String]
    /// How `volume`'s planned sets were counted.
    package var setCredit: TrainingRules.SetCredit
    /// Safety cautions for training (pregnancy, high blood pressure, age; rules/training-selection.yaml
    /// `safety_screens`).
    public var cautions: [String] = []

    /// The muscles whose planned sets fall below their band, with the reasons.
    public var shortfalls: [MuscleVolume] { volume.filter { $0.isShort } }
}

/// One day of the week.
public struct Workout: Sendable, Hashable {
    /// The day's number in the week (1-based).
    public var day: Int
    /// What the session trains (`upper`, `legs`, `full body`, …).
    public var focus: String
    /// Whether this is a recovery day.
    public var isRecovery: Bool
    /// The session's exercises, in order.
    public var blocks: [WorkoutBlock]
    /// The session's estimated length in minutes.
    public var estimatedMinutes: Int
    /// The ≤25-minute busy-day version; `nil` on a recovery day, which is already short and easy.
    public var compact: CompactVariant?
    package var sources: [RuleReference]

    /// Hard sets in the session (conditioning and mobility excluded).
    public var workingSets: Int { blocks.filter { $0.countsAsWorkingSets }.reduce(0) { $0 + $1.sets } }
}

/// One exercise in a session (the seed's `blocks[]` entry plus what explains it).
public struct WorkoutBlock: Sendable, Hashable {
    /// The muscle this block was chosen for (`conditioning`/`mobility` for those blocks).
    public var muscle: String
    /// The exercise's id in the exercise catalog.
    public var exerciseId: String
    /// The exercise's name.
    public var exerciseName: String
    /// The number of sets.
    public var sets: Int
    /// Reps as the seed writes them (`"6–10"`) or a time for holds (`"30–45s"`).
    public var reps: String
    /// Reps in reserve (`"1–3"`); `nil` for conditioning and mobility.
    public var rir: String?
    /// Kept unchanged in the busy-day variant.
    public var altCompact: Bool
    var movement: Exercise.Movement
    package var kind: Exercise.Kind
    /// Why this block looks the way it does (`--explain`).
    package var sources: [RuleReference]
    /// Human notes: swaps and regressions for injuries.
    public var notes: [String]

    var countsAsWorkingSets: Bool { kind == .strength }
}

/// The busy-day variant of a session.
public struct CompactVariant: Sendable, Hashable {
    /// A superset (two exercises) or giant set (three or more) done for `rounds` rounds.
    public struct Group: Sendable, Hashable {
        /// The group's label as shown to people.
        public var label: String
        /// How many times the group is repeated.
        public var rounds: Int
        /// The exercises done back to back in each round.
        public var blocks: [WorkoutBlock]
        /// The group's estimated length in seconds.
        public var estimatedSeconds: Int

        /// `giant_set` (three or more exercises), `superset` (two) or `straight_sets` (one).
        public var kind: String { blocks.count >= 3 ? "giant_set" : blocks.count == 2 ? "superset" : "straight_sets" }
    }

    /// The groups, in order.
    public var groups: [Group]
    /// The variant's estimated length in minutes.
    public var estimatedMinutes: Int
    /// Muscles of the full session left out to stay within the time limit.
    public var omittedMuscles: [String]
    package var source: RuleReference
}

/// The weekly accounting for one muscle.
public struct MuscleVolume: Sendable, Hashable {
    /// The muscle's name in the rules.
    public var muscle: String
    /// The experience band after the goal modifier and injury cuts.
    public var band: ClosedRange<Int>
    /// Where the plan aimed inside the band.
    public var target: Int
    /// The weekly-set count (`set_credit` of rules/training-volume.yaml): direct sets times the
    /// direct credit plus indirect sets times the indirect credit.
    public var planned: Double
    /// Sets of exercises with this muscle as a primary mover.
    public var directSets: Int
    /// Sets of exercises with this muscle as a secondary mover.
    public var indirectSets: Int
    /// Sessions that train this muscle.
    public var sessions: Int
    /// Why the muscle falls short, when it does (empty otherwise).
    public var shortfallReasons: [String]
    /// Rule rows that set the band.
    package var sources: [RuleReference]
    /// Injury cut applied to this muscle, if any (e.g. `knee −30%`).
    public var injuryAdjustment: String?
    /// Where the planned sets came from, exercise by exercise (`Barbell bench press 6 direct`,
    /// `Overhead press 4 × 0.5`), for `--explain`.
    public var contributions: [String] = []

    /// Planned sets below the band's minimum.
    public var isShort: Bool { planned + 1e-9 < Double(band.lowerBound) }
}
