import RegimenRules

/// The vocabularies the training rules and the exercise catalog define, which `regimen schema`
/// writes as `enum`s from the files it loads (a coach's own catalogs give the coach's own words),
/// and the loader checks across files with one diagnostic id.
package enum SchemaVocabulary {
    /// `training_volume.tracked_muscles`: the muscles templates and injury cuts name.
    package static let muscle = "muscle"
    /// A tracked muscle, or `conditioning` / `mobility` (an exercise's muscles; not counted).
    package static let exerciseMuscle = "exercise muscle"
    /// Every tag of `training_selection.equipment_profiles`.
    package static let equipment = "equipment tag"
    /// Every exercise id of the catalogs.
    package static let exercise = "exercise id"

    /// The loader's id for a word outside its vocabulary: a shape error, which the schema
    /// (written with the vocabularies) reports too.
    package static let unknownWord = "rules.unknown-value"

    /// Muscles an exercise may name beyond the tracked ones (its work is counted elsewhere).
    package static let untrackedExerciseMuscles: Set<String> = ["conditioning", "mobility"]

    /// The vocabularies of `ruleSet`: the words each file defines (none for a file that is
    /// missing or does not load, so that word is then any text).
    package static func vocabularies(of ruleSet: RuleSet) -> SchemaVocabularies {
        var words: [String: [String]] = [:]
        var sources: [String: String] = [:]
        if let volume = ruleSet.all(TrainingVolumeFile.self).first {
            words[muscle] = volume.trackedMuscles
            words[exerciseMuscle] = volume.trackedMuscles + untrackedExerciseMuscles
            sources[muscle] = "training_volume.tracked_muscles"
            sources[exerciseMuscle] = "training_volume.tracked_muscles, conditioning or mobility"
        }
        if let selection = ruleSet.all(TrainingSelectionFile.self).first {
            words[equipment] = selection.equipmentProfiles.values.flatMap { $0 }
            sources[equipment] = "a tag of training_selection.equipment_profiles"
        }
        let exercises = ruleSet.all(ExerciseCatalogFile.self).flatMap { $0.exercises.map(\.id) }
        if !exercises.isEmpty {
            words[exercise] = exercises
            sources[exercise] = "an id of the exercise catalog"
        }
        return SchemaVocabularies(words: words, sources: sources)
    }
}
