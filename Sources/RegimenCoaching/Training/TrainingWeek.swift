/// A week of training produced by ``TrainingPlanner``: the seed's `workouts` plus the accounting
/// that backs it (bands, planned sets, shortfalls) and the notes a person needs.
package struct TrainingWeek: Sendable, Hashable {
    /// Which split was used and why.
    package struct Split: Sendable, Hashable {
        package var templateId: String
        package var name: String
        package var requestedDays: Int
        package var trainingDays: Int
        package var recoveryDays: Int
        /// Other templates allowed for this number of days.
        package var options: [String]
        package var source: RuleReference
    }

    /// The inputs after defaults were applied.
    package struct Inputs: Sendable, Hashable {
        package var experience: Profile.Experience
        package var equipment: Profile.Equipment
        package var goal: String
        package var modifier: String
        package var injuries: [Profile.Injury]
    }

    package var split: Split
    package var inputs: Inputs
    package var workouts: [Workout]
    /// One entry per tracked muscle, in the rules' order.
    package var volume: [MuscleVolume]
    /// Substitutions, injury cuts, recovery-day notes: things a person should know.
    package var notes: [String]
    /// Suggestions such as training more days when a band does not fit.
    package var tips: [String]
    /// Defaults used because the profile did not say.
    package var assumptions: [String]
    /// How `volume`'s planned sets were counted.
    package var setCredit: TrainingRules.SetCredit

    /// The muscles whose planned sets fall below their band, with the reasons.
    package var shortfalls: [MuscleVolume] { volume.filter { $0.isShort } }
}

/// One day of the week.
package struct Workout: Sendable, Hashable {
    package var day: Int
    package var focus: String
    package var isRecovery: Bool
    package var blocks: [WorkoutBlock]
    package var estimatedMinutes: Int
    /// The ≤25-minute busy-day version; `nil` on a recovery day, which is already short and easy.
    package var compact: CompactVariant?
    package var sources: [RuleReference]

    /// Hard sets in the session (conditioning and mobility excluded).
    package var workingSets: Int { blocks.filter { $0.countsAsWorkingSets }.reduce(0) { $0 + $1.sets } }
}

/// One exercise in a session (the seed's `blocks[]` entry plus what explains it).
package struct WorkoutBlock: Sendable, Hashable {
    /// The muscle this block was chosen for (`conditioning`/`mobility` for those blocks).
    package var muscle: String
    package var exerciseId: String
    package var exerciseName: String
    package var sets: Int
    /// Reps as the seed writes them (`"6–10"`) or a time for holds (`"30–45s"`).
    package var reps: String
    /// Reps in reserve (`"1–3"`); `nil` for conditioning and mobility.
    package var rir: String?
    /// Kept unchanged in the busy-day variant.
    package var altCompact: Bool
    package var movement: Exercise.Movement
    package var kind: Exercise.Kind
    /// Why this block looks the way it does (`--explain`).
    package var sources: [RuleReference]
    /// Human notes: swaps and regressions for injuries.
    package var notes: [String]

    var countsAsWorkingSets: Bool { kind == .strength }
}

/// The busy-day variant of a session.
package struct CompactVariant: Sendable, Hashable {
    /// A superset (two exercises) or giant set (three or more) done for `rounds` rounds.
    package struct Group: Sendable, Hashable {
        package var label: String
        package var rounds: Int
        package var blocks: [WorkoutBlock]
        package var estimatedSeconds: Int

        package var kind: String { blocks.count >= 3 ? "giant_set" : blocks.count == 2 ? "superset" : "straight_sets" }
    }

    package var groups: [Group]
    package var estimatedMinutes: Int
    /// Muscles of the full session left out to stay within the time limit.
    package var omittedMuscles: [String]
    package var source: RuleReference
}

/// The weekly accounting for one muscle.
package struct MuscleVolume: Sendable, Hashable {
    package var muscle: String
    /// The experience band after the goal modifier and injury cuts.
    package var band: ClosedRange<Int>
    /// Where the plan aimed inside the band.
    package var target: Int
    /// The weekly-set count (`set_credit` of rules/training-volume.yaml): direct sets times the
    /// direct credit plus indirect sets times the indirect credit.
    package var planned: Double
    /// Sets of exercises with this muscle as a primary mover.
    package var directSets: Int
    /// Sets of exercises with this muscle as a secondary mover.
    package var indirectSets: Int
    /// Sessions that train this muscle.
    package var sessions: Int
    /// Why the muscle falls short, when it does (empty otherwise).
    package var shortfallReasons: [String]
    /// Rule rows that set the band.
    package var sources: [RuleReference]
    /// Injury cut applied to this muscle, if any (e.g. `knee −30%`).
    package var injuryAdjustment: String?

    /// Planned sets below the band's minimum.
    package var isShort: Bool { planned + 1e-9 < Double(band.lowerBound) }
}
