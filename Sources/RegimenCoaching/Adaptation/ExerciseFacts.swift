/// What adaptation needs to know about an exercise (from `catalogs/exercise-catalog.yaml`).
package struct ExerciseFacts: Sendable, Hashable {
    package var name: String
    package var primaryMuscles: [String]
    package var secondaryMuscles: [String]
    package var equipment: [String]
    /// Easier variants, best first.
    package var regressions: [String]
    /// Harder variants, next step first.
    package var progressions: [String]

    package init(
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
