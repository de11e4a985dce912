import OrderedCollections
import RegimenLanguage
import RegimenRules

/// `exercise_choice` in `rules/training-selection.yaml`: what a strength coach adds to the seed's
/// "compounds first" (issue 31 item 2): loaded lifts before bodyweight ones, few exercises per
/// small muscle, weekly minimums for the strength goal's main patterns, upper/lower balance and
/// rep ranges that suit bodyweight work. Without the section (a rule set that predates it) the
/// planner chooses as before.
struct ExerciseChoiceRules: Sendable, Hashable {
    /// Equipment tags that make an exercise bodyweight-only when all its tags are among them.
    var bodyweightTags: Set<String> = []
    /// Muscles whose bodyweight work keeps its catalog order (core: planks, dead bugs).
    var bodyweightMuscles: Set<String> = []
    /// Muscles limited to `maxExercisesPerSmallMuscle` exercises a session.
    var smallMuscles: Set<String> = []
    var maxExercisesPerSmallMuscle = Int.max
    /// The strength goal's main patterns and their weekly minimum.
    var strengthPatterns: StrengthPatterns?
    /// Upper/lower balance of a session that trains both.
    var balance: Balance?
    /// Reps for bodyweight lifting blocks when the goal's range ends below this one.
    var bodyweightReps: ClosedRange<Int>?
    /// Where the section starts, for the rule reference plans cite.
    package var location: SourceLocation?

    struct StrengthPatterns: Sendable, Hashable {
        var goal: String
        var fromDays: Int
        /// The weekly minimum by experience.
        var weeklySets: [Profile.Experience: Int]
        /// Pattern → the muscle whose sessions carry it, in the rule file's order.
        package var patterns: [(pattern: String, muscle: String)]

        package static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.goal == rhs.goal && lhs.fromDays == rhs.fromDays && lhs.weeklySets == rhs.weeklySets
                && lhs.patterns.map(\.pattern) == rhs.patterns.map(\.pattern) && lhs.patterns.map(\.muscle) == rhs.patterns.map(\.muscle)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(goal)
            hasher.combine(fromDays)
            for experience in Profile.Experience.allCases { hasher.combine(weeklySets[experience]) }
            for entry in patterns {
                hasher.combine(entry.pattern)
                hasher.combine(entry.muscle)
            }
        }
    }

    struct Balance: Sendable, Hashable {
        /// Plans of at most this many training days are balanced.
        var upToDays: Int
        var upper: Set<String>
        package var lower: Set<String>
        var maxRatio: Double
    }

    init() {}

    /// Whether an exercise needs nothing but the body (and household items).
    func isBodyweightOnly(_ exercise: Exercise) -> Bool {
        !bodyweightTags.isEmpty && bodyweightTags.isSuperset(of: exercise.equipment)
    }

    /// The most exercises one muscle may have in a session: the small-muscle limit for small
    /// muscles, `general` for the rest.
    func maxExercises(for muscle: String, general: Int) -> Int {
        smallMuscles.contains(muscle) ? min(general, maxExercisesPerSmallMuscle) : general
    }

    static func decode(_ map: inout MappingDecoder) -> ExerciseChoiceRules? {
        var rules = ExerciseChoiceRules()
        rules.location = map.node.location
        let tags = map.required("bodyweight_tags", as: [String].self)
        let bodyweightMuscles = map.optional("bodyweight_muscles", as: [String].self) ?? []
        let small = map.required("small_muscles", as: [String].self)
        map.vocabulary("bodyweight_muscles", SchemaVocabulary.muscle)
        map.vocabulary("small_muscles", SchemaVocabulary.muscle)
        // The resolver checks these words against the volume rules and the equipment profiles.
        map.context.noteWords(["bodyweight_tags", "bodyweight_muscles", "small_muscles", "balance.upper", "balance.lower", "strength_patterns.goal",
                               "strength_patterns.patterns", "strength_patterns.patterns.*"],
                              of: map.node, entry: map.node.location)
        let maxSmall = map.required("max_exercises_per_small_muscle_per_session", as: Int.self, in: 1...6)
        rules.strengthPatterns = map.mapping("strength_patterns", required: false) { entry -> StrengthPatterns? in
            let goal = entry.required("goal", as: String.self)
            let fromDays = entry.required("from_days", as: Int.self, in: 1...7)
            let sets = entry.mapping("weekly_sets") { levels -> [Profile.Experience: Int]? in
                var result: [Profile.Experience: Int] = [:]
                for experience in Profile.Experience.allCases {
                    if let value = levels.required(experience.rawValue, as: Int.self, in: 1...30) { result[experience] = value }
                }
                return result.count == Profile.Experience.allCases.count ? result : nil
            }
            let patterns = entry.required("patterns", as: OrderedDictionary<String, String>.self)
            // Each pattern's muscle is a tracked muscle (the resolver checks it across files).
            entry.vocabulary("patterns", SchemaVocabulary.muscle)
            guard let goal, let fromDays, let sets, let patterns else { return nil }
            return StrengthPatterns(goal: goal, fromDays: fromDays, weeklySets: sets, patterns: patterns.map { ($0.key, $0.value) })
        }
        rules.balance = map.mapping("balance", required: false) { entry -> Balance? in
            let days = entry.required("up_to_days", as: Int.self, in: 1...7)
            let upper = entry.required("upper", as: [String].self)
            let lower = entry.required("lower", as: [String].self)
            entry.vocabulary("upper", SchemaVocabulary.muscle)
            entry.vocabulary("lower", SchemaVocabulary.muscle)
            let ratio = entry.required("max_ratio", as: Double.self, in: 1...10)
            guard let days, let upper, let lower, let ratio else { return nil }
            return Balance(upToDays: days, upper: Set(upper), lower: Set(lower), maxRatio: ratio)
        }
        rules.bodyweightReps = map.notation("bodyweight_reps", required: false, expected: "a rep range such as 8-15", CoachNotation.range)
        guard let tags, let small, let maxSmall else { return nil }
        rules.bodyweightTags = Set(tags)
        rules.bodyweightMuscles = Set(bodyweightMuscles)
        rules.smallMuscles = Set(small)
        rules.maxExercisesPerSmallMuscle = maxSmall
        return rules
    }
}
