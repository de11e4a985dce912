import RegimenLanguage
import RegimenRules

/// `kind: training_session_limits` — `rules/training-session-limits.yaml`.
struct TrainingSessionLimitsFile: RuleFileKind {
    package static let kind = "training_session_limits"
    /// `limits`: one session limit row per entry, for coverage and explanations.
    static let limitsSection = RuleSection(Self.self, .table(inputs: [TrainingVariables.experience]), key: "limits", category: "session limit row")
    /// `rest`: one rest row per entry, for coverage and explanations.
    static let restSection = RuleSection(Self.self, .table(inputs: [TrainingVariables.modifier, TrainingVariables.movement]), key: "rest", category: "rest row")
    package static var ruleSections: [RuleSection] { [limitsSection, restSection] }
    package static var expressionScopes: [ExpressionScope] { [TrainingVariables.limitsScope, TrainingVariables.restScope] }

    var limits: DecisionTable<TrainingRules.SessionLimits>
    var warmupSeconds: Int
    var transitionSeconds: Int
    var rest: DecisionTable<Int>

    package var ruleCount: Int { limits.rows.count + rest.rows.count }

    package static func decode(_ document: inout MappingDecoder) -> TrainingSessionLimitsFile? {
        let limits = DecisionTable<TrainingRules.SessionLimits>.decode(
            "limits", in: &document, named: Self.limitsSection.name, inputs: Self.limitsSection.inputs
        ) { row in
            let sets = row.required("max_sets_per_session", as: Int.self, in: 1...200)
            let perMuscle = row.required("max_sets_per_muscle_per_session", as: Int.self, in: 1...50)
            let minutes = row.required("max_minutes", as: Int.self, in: 10...300)
            guard let sets, let perMuscle, let minutes else { return nil }
            return TrainingRules.SessionLimits(maxSetsPerSession: sets, maxSetsPerMusclePerSession: perMuscle, maxMinutes: minutes)
        }
        let warmup = document.required("warmup_minutes", as: Int.self, in: 0...60)
        let transition = document.notation("transition", expected: "a duration such as 60s", CoachNotation.seconds)
        let rest = DecisionTable<Int>.decode(
            "rest", in: &document, named: Self.restSection.name, inputs: Self.restSection.inputs, defaultPolicy: .first
        ) { row in
            row.notation("rest", expected: "a duration such as 90s", CoachNotation.seconds)
        }
        guard let limits, let warmup, let transition, let rest else { return nil }
        return TrainingSessionLimitsFile(limits: limits, warmupSeconds: warmup * 60, transitionSeconds: transition, rest: rest)
    }
}
