import RegimenLanguage
import RegimenRules

/// `kind: training_goals` — `rules/training-goals.yaml`: what each goal changes in training.
struct TrainingGoalsFile: RuleFileKind {
    package static let kind = "training_goals"
    /// `modifiers`: one goal modifier per entry, for coverage and explanations.
    static let modifiersSection = RuleSection(Self.self, .table(inputs: [TrainingVariables.goal]), key: "modifiers", category: "goal modifier")
    package static var ruleSections: [RuleSection] { [modifiersSection] }
    package static var expressionScopes: [ExpressionScope] { [TrainingVariables.modifiersScope] }

    var defaultGoal: String
    var goals: [String]
    var modifiers: DecisionTable<TrainingRules.GoalModifier>

    package var ruleCount: Int { modifiers.rows.count }

    /// `training_modifier`: the goal modifiers' names, which rest rules compare `modifier` with.
    package static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>] {
        let names = ruleSet.all(TrainingGoalsFile.self).flatMap { $0.modifiers.rows.map(\.output.name) }
        return names.isEmpty ? [:] : ["training_modifier": Set(names)]
    }

    /// Where the file is written: the entry its goals are noted under.
    var entry: SourceLocation?

    package static func decode(_ document: inout MappingDecoder) -> TrainingGoalsFile? {
        let defaultGoal = document.required("default_goal", as: String.self)
        let modifiers = DecisionTable<TrainingRules.GoalModifier>.decode(
            "modifiers", in: &document, named: Self.modifiersSection.name, inputs: Self.modifiersSection.inputs, domainRequired: true
        ) { row in
            let name = row.required("modifier", as: String.self)
            let factor = row.notation("set_factor", expected: "a percentage such as 80%", CoachNotation.percent)
            let compound = row.notation("compound", expected: "a prescription such as 4x6-10 @RIR 1-3", pattern: NotationPattern.prescription, CoachNotation.prescription)
            let isolation = row.notation("isolation", expected: "a prescription such as 3x10-15 @RIR 1-3", pattern: NotationPattern.prescription, CoachNotation.prescription)
            let finisher = row.optional("finisher", as: [String].self) ?? []
            row.vocabulary("finisher", SchemaVocabulary.exercise)
            row.context.noteWords(["finisher"], of: row.node, entry: row.node.location)
            let minutes = row.optional("finisher_minutes", as: Int.self, in: 1...120) ?? 0
            if finisher.isEmpty != (minutes == 0) {
                row.context.error("rules.incomplete", row.path.prefixed("'finisher' and 'finisher_minutes' go together"), at: row.node.location)
            }
            guard let name, let factor, let compound, let isolation else { return nil }
            return TrainingRules.GoalModifier(
                name: name, setFactor: factor, compound: compound, isolation: isolation,
                finisherOptions: finisher, finisherMinutes: minutes)
        }
        guard let defaultGoal, let modifiers else { return nil }
        // The goals the table must cover are its declared domain (goal ids belong to rules/goals.yaml).
        guard let goals = modifiers.domain else { return nil }
        // The resolver checks these goals against rules/goals.yaml, each at its word.
        document.context.noteWords(["default_goal", "modifiers.domain"], of: document.node, entry: document.node.location)
        return TrainingGoalsFile(defaultGoal: defaultGoal, goals: goals, modifiers: modifiers, entry: document.node.location)
    }
}
