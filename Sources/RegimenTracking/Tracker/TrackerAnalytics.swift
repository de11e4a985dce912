public import RegimenLanguage

/// The analytics rules of `rules/tracker/tracker-analytics.yaml`.
package struct AnalyticsPolicy: Sendable {
    /// A set's volume. Variables: `reps`, `weight`.
    var setVolume: Formula
    var volumeCountsOnlyChecked: Bool
    /// The score a personal record maximises. Variables: `reps`, `weight`.
    var setScore: Formula
    /// Estimated one-repetition maximum. Variables: `reps`, `weight`.
    var estimatedOneRepMax: Formula
    /// Sets with more reps give no 1RM estimate.
    var oneRepMaxMaxReps: Int
    var oneRepMaxDecimals: Int

    init(setVolume: Formula, volumeCountsOnlyChecked: Bool, setScore: Formula, estimatedOneRepMax: Formula,
                oneRepMaxMaxReps: Int, oneRepMaxDecimals: Int) {
        self.setVolume = setVolume
        self.volumeCountsOnlyChecked = volumeCountsOnlyChecked
        self.setScore = setScore
        self.estimatedOneRepMax = estimatedOneRepMax
        self.oneRepMaxMaxReps = oneRepMaxMaxReps
        self.oneRepMaxDecimals = oneRepMaxDecimals
    }
}

/// Workout counts, exercise frequency, weekly volume and personal records of a tree
/// (docs/requirements.md#tracker-analytics-and-export).
public struct TrackerAnalytics: Sendable, Hashable {
    /// How many times an exercise appears in the tree.
    public struct ExerciseCount: Sendable, Hashable {
        /// The exercise's name.
        public var name: String
        /// How many exercise documents carry that name.
        public var count: Int
    }

    /// The sets and volume of one week.
    public struct WeekVolume: Sendable, Hashable {
        /// The program the week belongs to.
        public var programId: String
        /// The week's document id.
        public var weekId: String
        /// The week's `order` field, if it has one.
        public var order: Int64?
        /// The number of sets in the week.
        public var sets: Int
        /// The sum of weight × reps over the week's sets.
        public var volume: Double
    }

    /// A set that holds a record, with where it is.
    public struct RecordSet: Sendable, Hashable {
        /// The set document's path.
        public var path: String
        /// The weight lifted.
        public var weight: Double
        /// The repetitions done.
        public var reps: Int64
        /// The score the record was chosen by (weight × reps, or the estimated 1RM).
        public var value: Double
    }

    /// The best sets of one exercise.
    public struct PersonalRecord: Sendable, Hashable {
        /// The exercise's name.
        public var exercise: String
        /// The set with the highest score (weight × reps by default).
        public var bestSet: RecordSet
        /// The set with the highest estimated 1RM, if any set is short enough to estimate.
        public var bestEstimatedOneRepMax: RecordSet?
    }

    /// The number of workout documents in the tree.
    public var workoutCount: Int
    /// Workouts with at least one set, all of them checked.
    public var completedWorkoutCount: Int
    /// By count, then name.
    public var exerciseFrequency: [ExerciseCount]
    /// In tree order.
    public var weeklyVolume: [WeekVolume]
    /// By exercise name.
    public var personalRecords: [PersonalRecord]

    /// Computes the analytics of `tree` under `policy`.
    package init(tree: TrackerTree, policy: AnalyticsPolicy) throws {
        var workouts = 0
        var completed = 0
        var frequency: [String: Int] = [:]
        var displayName: [String: String] = [:]
        var volumes: [WeekVolume] = []
        var records: [String: PersonalRecord] = [:]

        for program in tree.programs {
            for week in program.children {
                var weekVolume = WeekVolume(programId: program.id, weekId: week.id, order: week.fields["order"]?.intValue,
                                            sets: 0, volume: 0)
                let weekPath = tree.rootPath.appending(.program, program.id).appending(.week, week.id)
                for workout in week.children {
                    workouts += 1
                    let sets = workout.children.flatMap(\.children)
                    if !sets.isEmpty, sets.allSatisfy({ $0.fields["checked"]?.boolValue == true }) { completed += 1 }
                    let workoutPath = weekPath.appending(.workout, workout.id)
                    for exercise in workout.children {
                        let name = (exercise.fields["name"]?.stringValue ?? "").trimmingWhitespace
                        let key = name.lowercased()
                        frequency[key, default: 0] += 1
                        if displayName[key] == nil { displayName[key] = name }
                        let exercisePath = workoutPath.appending(.exercise, exercise.id)
                        for set in exercise.children {
                            guard let reps = set.fields["reps"]?.intValue, let weight = set.fields["weight"]?.numberValue
                            else { continue }
                            let variables: [String: Value] = [TrackerAnalyticsVariables.reps.name: .int(reps), TrackerAnalyticsVariables.weight.name: .float(weight)]
                            let checked = set.fields["checked"]?.boolValue == true
                            if checked || !policy.volumeCountsOnlyChecked {
                                weekVolume.sets += 1
                                weekVolume.volume += try policy.setVolume.number(variables)
                            }
                            let path = exercisePath.appending(.set, set.id).description
                            let score = RecordSet(path: path, weight: weight, reps: reps, value: try policy.setScore.number(variables))
                            var estimate: RecordSet?
                            if reps >= 1, reps <= policy.oneRepMaxMaxReps {
                                let raw = try policy.estimatedOneRepMax.number(variables)
                                estimate = RecordSet(path: path, weight: weight, reps: reps,
                                                     value: Self.round(raw, decimals: policy.oneRepMaxDecimals))
                            }
                            var record = records[key] ?? PersonalRecord(exercise: displayName[key] ?? name, bestSet: score,
                                                                        bestEstimatedOneRepMax: nil)
                            if score.value > record.bestSet.value { record.bestSet = score }
                            if let estimate, estimate.value > (record.bestEstimatedOneRepMax?.value ?? -.infinity) {
                                record.bestEstimatedOneRepMax = estimate
                            }
                            records[key] = record
                        }
                    }
                }
                volumes.append(weekVolume)
            }
        }
        workoutCount = workouts
        completedWorkoutCount = completed
        exerciseFrequency = frequency.map { ExerciseCount(name: displayName[$0.key] ?? $0.key, count: $0.value) }
            .sorted { ($1.count, $0.name) < ($0.count, $1.name) }
        weeklyVolume = volumes
        personalRecords = records.values.sorted { $0.exercise.lowercased() < $1.exercise.lowercased() }
    }

    private static func round(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// The analytics as a map for JSON output.
    public var value: Value {
        func record(_ set: RecordSet) -> Value {
            Value.orderedMap([("path", .string(set.path)), ("weight", .float(set.weight)), ("reps", .int(set.reps)),
                              ("value", .float(set.value))])
        }
        return Value.orderedMap([
            ("workoutCount", .int(Int64(workoutCount))),
            ("completedWorkoutCount", .int(Int64(completedWorkoutCount))),
            ("exerciseFrequency", .list(exerciseFrequency.map {
                Value.orderedMap([("name", .string($0.name)), ("count", .int(Int64($0.count)))])
            })),
            ("weeklyVolume", .list(weeklyVolume.map {
                Value.orderedMap([("programId", .string($0.programId)), ("weekId", .string($0.weekId)),
                                  ("order", $0.order.map(Value.int) ?? .null), ("sets", .int(Int64($0.sets))),
                                  ("volume", .float($0.volume))])
            })),
            ("personalRecords", .list(personalRecords.map {
                Value.orderedMap([("exercise", .string($0.exercise)), ("bestSet", record($0.bestSet)),
                                  ("bestEstimatedOneRepMax", $0.bestEstimatedOneRepMax.map(record) ?? .null)])
            })),
        ])
    }
}
