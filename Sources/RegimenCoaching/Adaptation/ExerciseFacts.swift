/// What adaptation needs to know about an exercise (from `catalogs/exercise-catalog.yaml`).
public struct ExerciseFacts: Sendable, Hashable {
    public var name: String
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]
    public var equipment: [String]
    /// Easier variants, best first.
    public var regressions: [String]
    /// Harder variants, next step first.
    public var progressions: [String]

    public init(
        name: String, primaryMuscles: [String], secondaryMuscles: [String] = [], equipment: [String] = [], regressions: [String] = [],
        progressions: [String] = []
    ) {
        self.name = name
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.regressions = regressions
        self.progressions = progressions
    }
}
