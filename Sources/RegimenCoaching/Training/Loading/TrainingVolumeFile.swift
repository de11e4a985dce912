import RegimenLanguage
import RegimenRules

/// `kind: training_volume` — `rules/training-volume.yaml`: weekly sets per muscle by experience.
public struct TrainingVolumeFile: RuleFileKind {
    public static let kind = "training_volume"
    public static var expressionScopes: [ExpressionScope] { [TrainingVariables.bandsScope] }

    var trackedMuscles: [String]
    var setCredit: TrainingRules.SetCredit
    var creditLocation: SourceLocation
    var defaultExperience: Profile.Experience
    var targetPosition: Double
    var bands: DecisionTable<ClosedRange<Int>>

    public var ruleCount: Int { bands.rows.count }

    public static func decode(_ document: inout MappingDecoder) -> TrainingVolumeFile? {
        let creditLocation = document.location(ofKey: "set_credit") ?? document.node.location
        let muscles = document.required("tracked_muscles", as: [String].self)
        let context = document.context
        let credit = document.mapping("set_credit") { map -> TrainingRules.SetCredit? in
            let direct = map.required("direct", as: Double.self, in: 0.1...1)
            let indirect = map.required("indirect", as: Double.self, in: 0...1)
            guard let direct, let indirect else { return nil }
            if indirect > direct {
                context.error("rules.out-of-range", map.path.appending(key: "indirect").message("must not exceed 'direct' (\(RangeText.number(direct)))"), at: map.location(ofKey: "indirect"))
                return nil
            }
            return TrainingRules.SetCredit(direct: direct, indirect: indirect)
        }
        let experience = document.required("default_experience", as: ExperienceName.self)
        let position = document.required("target_position", as: Double.self, in: 0...1)
        let bands = DecisionTable<ClosedRange<Int>>.decode(
            "bands", in: &document, named: "training_volume.bands", inputs: [TrainingVariables.experience]
        ) { row in
            row.notation("sets", expected: "a range of sets such as 8-12", CoachNotation.range)
        }
        guard let muscles, let credit, let experience, let position, let bands else { return nil }
        return TrainingVolumeFile(
            trackedMuscles: muscles, setCredit: credit, creditLocation: creditLocation,
            defaultExperience: experience.value, targetPosition: position, bands: bands)
    }
}

/// `kind: training_goals` — `rules/training-goals.yaml`: what each goal changes in training.
public struct TrainingGoalsFile: RuleFileKind {
    public static let kind = "training_goals"
    public static var expressionScopes: [ExpressionScope] { [TrainingVariables.modifiersScope] }

    var defaultGoal: String
    var goals: [String]
    var modifiers: DecisionTable<TrainingRules.GoalModifier>

    public var ruleCount: Int { modifiers.rows.count }

    public static func decode(_ document: inout MappingDecoder) -> TrainingGoalsFile? {
        let defaultGoal = document.required("default_goal", as: String.self)
        let modifiers = DecisionTable<TrainingRules.GoalModifier>.decode(
            "modifiers", in: &document, named: "training_goals.modifiers", inputs: [TrainingVariables.goal]
        ) { row in
            let name = row.required("modifier", as: String.self)
            let factor = row.notation("set_factor", expected: "a percentage such as 80%", CoachNotation.percent)
            let compound = row.notation("compound", expected: "a prescription such as 4x6-10 @RIR 1-3", CoachNotation.prescription)
            let isolation = row.notation("isolation", expected: "a prescription such as 3x10-15 @RIR 1-3", CoachNotation.prescription)
            let finisher = row.optional("finisher", as: [String].self) ?? []
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
        guard let goals = modifiers.domain else {
            document.context.error("rules.missing-key", "training_goals.modifiers: missing required key 'domain' (the goal ids the table covers)", at: modifiers.location)
            return nil
        }
        return TrainingGoalsFile(defaultGoal: defaultGoal, goals: goals, modifiers: modifiers)
    }
}
