/// The loaded exercise catalog, in file order (earlier entries are preferred by selection).
package struct ExerciseCatalog: Sendable {
    package let exercises: [Exercise]
    private let positions: [String: Int]

    /// Builds a catalog; ids must be unique (the loader reports duplicates before this point, and
    /// a later duplicate is ignored here rather than trapping).
    init(_ exercises: [Exercise]) {
        var kept: [Exercise] = []
        var positions: [String: Int] = [:]
        for exercise in exercises where positions[exercise.id] == nil {
            positions[exercise.id] = kept.count
            kept.append(exercise)
        }
        self.exercises = kept
        self.positions = positions
    }

    /// The exercise with this id, if the catalog has it.
    subscript(id: String) -> Exercise? {
        guard let position = positions[id] else { return nil }
        return exercises[position]
    }

    /// Catalog position of an exercise; selection uses it as the final tie-break.
    func position(of id: String) -> Int? { positions[id] }
}
