/// What adaptation needs to know about an exercise (from `catalogs/exercise-catalog.yaml`).
package struct ExerciseFacts: Sendable, Hashable {
    package var name: String
    var primaryMuscles: [String]
    var secondaryMuscles: [String]
    var equipment: [String]
    /// Easier variants, best first.
    var regressions: [String]
    /// Harder variants, next step first.
    var progressions: [String]

    init(
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
