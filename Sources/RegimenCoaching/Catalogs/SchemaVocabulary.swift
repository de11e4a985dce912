package import RegimenRules

/// The vocabularies the training rules and the exercise catalog define, which `regimen schema`
/// writes as `enum`s from the files it loads (a coach's own catalogs give the coach's own words),
/// and the loader checks across files with one diagnostic id.
package enum SchemaVocabulary {
    /// `training_volume.tracked_muscles`: the muscles templates and injury cuts name.
    static let muscle = "muscle"
    /// A tracked muscle, or `conditioning` / `mobility` (an exercise's muscles; not counted).
    static let exerciseMuscle = "exercise muscle"
    /// Every tag of `training_selection.equipment_profiles`.
    static let equipment = "equipment tag"
    /// Every exercise id of the catalogs.
    static let exercise = "exercise id"
    /// Every ingredient id of the ingredient catalog (what a diet's `ingredients:` names).
    package static let ingredient = "ingredient"
    /// Every tag of `dietary_exclusions.tags` (what ingredients and supplements contain, and
    /// what a diet's `excludes:` names).
    static let foodTag = "food tag"
    /// Every group of the ingredient catalog's `food_groups` (an ingredient's `food_group`).
    static let foodGroup = "food group"
    /// Every exclusion of `dietary_exclusions.exclusions` (a profile's `exclusions`).
    static let diet = "diet"
    /// Every goal of the supplement catalog's `goals` (what an item serves).
    static let supplementGoal = "supplement goal"
    /// Every item id of the supplement catalog.
    static let supplement = "supplement"
    /// Every class of `supplement_rules.medication_classes`.
    static let medicationClass = "medication class"

    /// Where the words of the vocabularies kinds declare (``RuleFileKind/vocabularies(_:)``) come
    /// from, for the schema's description.
    static let kindSources: [String: String] = [
        ingredient: "an id of the ingredient catalog",
        foodTag: "a tag of dietary_exclusions.tags",
        foodGroup: "a group of the ingredient catalog's food_groups",
        diet: "an exclusion of dietary_exclusions.exclusions",
        supplementGoal: "a goal of the supplement catalog's goals",
        supplement: "an item id of the supplement catalog",
        medicationClass: "a class of supplement_rules.medication_classes",
        "goal": "a goal id of rules/goals.yaml",
        "age_range": "an age range of rules/age-ranges.yaml",
        "training_modifier": "a modifier of training_goals.modifiers",
    ]

    /// The loader's id for a word outside its vocabulary: a shape error, which the schema
    /// (written with the vocabularies) reports too.
    static let unknownWord = "rules.unknown-value"

    /// Muscles an exercise may name beyond the tracked ones (its work is counted elsewhere).
    static let untrackedExerciseMuscles: Set<String> = ["conditioning", "mobility"]

    /// The vocabularies of `ruleSet`: the words each file defines (none for a file that is
    /// missing or does not load, so that word is then any text), those above and every one a
    /// loaded kind declares (``RuleFileKind/vocabularies(_:)``), so that a kind's new vocabulary
    /// is in the schemas as soon as its decoder marks a key with it.
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
        var kinds: Set<String> = []
        for file in ruleSet.files where kinds.insert(file.kind).inserted {
            for (name, declared) in type(of: file.content).vocabularies(ruleSet) where words[name] == nil {
                words[name] = Array(declared)
                sources[name] = kindSources[name]
            }
        }
        return SchemaVocabularies(words: words, sources: sources)
    }
}
