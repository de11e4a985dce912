import RegimenLanguage
package import RegimenRules

/// `kind: training_selection` — `rules/training-selection.yaml`.
package struct TrainingSelectionFile: RuleFileKind {
    package static let kind = "training_selection"
    /// `levels`: one selection rule per entry, for coverage and explanations.
    package static let levelsSection = RuleSection(Self.self, .table(inputs: [TrainingVariables.experience]), key: "levels", category: "selection rule")
    /// `equipment_profiles`: one equipment profile per entry, for coverage and explanations.
    package static let equipmentProfilesSection = RuleSection(Self.self, .entries, key: "equipment_profiles", category: "equipment profile")
    /// `injury_set_cuts`: one injury cut per entry, for coverage and explanations.
    package static let injurySetCutsSection = RuleSection(Self.self, .entries, key: "injury_set_cuts", category: "injury cut")
    package static var ruleSections: [RuleSection] { [levelsSection, equipmentProfilesSection, injurySetCutsSection] }
    package static var expressionScopes: [ExpressionScope] { [TrainingVariables.levelsScope] }

    var equipmentProfiles: [Profile.Equipment: Set<String>]
    var defaultEquipment: Profile.Equipment
    var levels: DecisionTable<Set<Exercise.Level>>
    var maxExercisesPerMusclePerSession: Int
    var minSetsPerExercise: Int
    var injuryCuts: [Profile.Injury: (TrainingRules.InjuryCut, SourceLocation)]
    var safetyScreens: SafetyScreens
    var exerciseChoice: ExerciseChoiceRules
    var location: SourceLocation

    package var ruleCount: Int { levels.rows.count + injuryCuts.count }

    package static func decode(_ document: inout MappingDecoder) -> TrainingSelectionFile? {
        let context = document.context
        var profiles: [Profile.Equipment: Set<String>] = [:]
        if let node = document.requiredNode("equipment_profiles") {
            _ = context.mapping(node, at: document.path.appending(key: "equipment_profiles")) { map -> Bool? in
                for equipment in Profile.Equipment.allCases {
                    if let tags = map.required(equipment.rawValue, as: [String].self) { profiles[equipment] = Set(tags) }
                }
                return true
            }
        }
        let defaultEquipment = document.required("default_equipment", as: EquipmentName.self)
        let levels = DecisionTable<Set<Exercise.Level>>.decode(
            "levels", in: &document, named: Self.levelsSection.name, inputs: Self.levelsSection.inputs
        ) { row in
            row.required("allow", as: [LevelName].self).map { Set($0.map(\.value)) }
        }
        let maxExercises = document.required("max_exercises_per_muscle_per_session", as: Int.self, in: 1...6)
        let minSets = document.required("min_sets_per_exercise", as: Int.self, in: 1...10)
        var cuts: [Profile.Injury: (TrainingRules.InjuryCut, SourceLocation)] = [:]
        if let node = document.requiredNode("injury_set_cuts") {
            _ = context.mapping(node, at: document.path.appending(key: "injury_set_cuts")) { map -> Bool? in
                // Every injury flag a profile may carry needs an entry: a gap is a load error.
                for injury in Profile.Injury.allCases {
                    guard let entry = map.requiredNode(injury.rawValue) else { continue }
                    let cut = context.mapping(entry, at: DecodingPath(subject: "injury_set_cuts.\(injury.rawValue)")) { item -> TrainingRules.InjuryCut? in
                        let muscles = item.required("muscles", as: [String].self)
                        item.vocabulary("muscles", SchemaVocabulary.muscle)
                        let cut = item.notation("cut", expected: "a percentage such as 30%") { CoachNotation.percent($0).flatMap { $0 <= 1 ? $0 : nil } }
                        guard let muscles, let cut else { return nil }
                        return TrainingRules.InjuryCut(muscles: muscles, cut: cut)
                    }
                    context.noteWords(["muscles"], of: entry, entry: entry.location)
                    if let cut { cuts[injury] = (cut, entry.location) }
                }
                return true
            }
        }
        let screens = document.mapping("safety_screens") { SafetyScreens.decode(&$0) }
        let choice = document.mapping("exercise_choice", required: false) { ExerciseChoiceRules.decode(&$0) }
        guard let defaultEquipment, let levels, let maxExercises, let minSets, let screens,
              profiles.count == Profile.Equipment.allCases.count, cuts.count == Profile.Injury.allCases.count else { return nil }
        return TrainingSelectionFile(
            equipmentProfiles: profiles, defaultEquipment: defaultEquipment.value, levels: levels,
            maxExercisesPerMusclePerSession: maxExercises, minSetsPerExercise: minSets, injuryCuts: cuts, safetyScreens: screens,
            exerciseChoice: choice ?? ExerciseChoiceRules(),
            location: document.node.location)
    }
}
