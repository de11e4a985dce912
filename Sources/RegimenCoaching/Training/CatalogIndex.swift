/// The catalog as the week builder's inner loops read it, built once per planner: muscles and
/// movement patterns become small dense ids, so a week's tallies are arrays indexed by muscle
/// rather than string-keyed dictionaries, and choosing an exercise never copies an ``Exercise``.
struct CatalogIndex: Sendable {
    /// Every muscle the rules track (in the rules' order), then every other muscle the catalog
    /// names (in catalog order); a muscle's id is its position here.
    let muscles: [String]
    /// Ids below this are the tracked muscles.
    let trackedCount: Int
    private let muscleIds: [String: Int]
    private let patternIds: [String: Int]
    /// Per catalog position.
    let facts: [Facts]

    /// What selection and accounting read of one exercise.
    struct Facts: Sendable {
        /// Primary muscles, in catalog order.
        var muscles: [Int]
        /// Primary muscles the rules track, in catalog order.
        var trackedMuscles: [Int]
        /// Secondary muscles the rules track, in catalog order.
        var trackedSecondaryMuscles: [Int]
        var pattern: Int
        var movement: Exercise.Movement
        var setSeconds: Int
    }

    init(trackedMuscles: [String], catalog: ExerciseCatalog) {
        var muscles: [String] = []
        var muscleIds: [String: Int] = [:]
        func id(of muscle: String) -> Int {
            if let known = muscleIds[muscle] { return known }
            muscleIds[muscle] = muscles.count
            muscles.append(muscle)
            return muscles.count - 1
        }
        for muscle in trackedMuscles { _ = id(of: muscle) }
        let trackedCount = muscles.count
        var patternIds: [String: Int] = [:]
        var facts: [Facts] = []
        facts.reserveCapacity(catalog.exercises.count)
        for exercise in catalog.exercises {
            let primary = exercise.muscles.map { id(of: $0) }
            let secondary = exercise.secondaryMuscles.compactMap { muscleIds[$0] }.filter { $0 < trackedCount }
            let pattern = patternIds[exercise.pattern] ?? patternIds.count
            patternIds[exercise.pattern] = pattern
            facts.append(Facts(
                muscles: primary, trackedMuscles: primary.filter { $0 < trackedCount }, trackedSecondaryMuscles: secondary,
                pattern: pattern, movement: exercise.movement, setSeconds: exercise.setSeconds))
        }
        self.muscles = muscles
        self.trackedCount = trackedCount
        self.muscleIds = muscleIds
        self.patternIds = patternIds
        self.facts = facts
    }

    /// The id of a muscle the rules track or the catalog names.
    func muscleId(_ muscle: String) -> Int? { muscleIds[muscle] }

    /// The id of a tracked muscle; `nil` for any other.
    func trackedMuscleId(_ muscle: String) -> Int? {
        guard let id = muscleIds[muscle], id < trackedCount else { return nil }
        return id
    }

    /// The id of a movement pattern some catalog exercise uses; `nil` when none does.
    func patternId(_ pattern: String) -> Int? { patternIds[pattern] }
}
