import RegimenLanguage
import RegimenRules

/// The variables the training files' `when:` tables read, declared once: each table compiles its
/// rows against its inputs (types checked), the resolver binds exactly them for every input the
/// planner can give, and `regimen explain-kind` and the rule files' headers print them.
enum TrainingVariables {
    typealias V = VariableDeclaration

    static let days = V("days", .int, "training days per week after the max_training_days cap (1 to max_training_days)")
    static let experience = V("experience", .oneOf(Profile.Experience.allCases.map(\.rawValue)), "the profile's experience: novice, intermediate or advanced")
    static let goal = V("goal", .named("goal"), "a goal id of the table's domain (rules/goals.yaml)")
    static let modifier = V("modifier", .named("training_modifier"), "the goal modifier's name (training_goals.modifiers)")
    static let movement = V("movement", .oneOf(Exercise.Movement.allCases.map(\.rawValue)), "the exercise's movement: compound or isolation")

    static let splitScope = ExpressionScope("split_by_days.rows[].when", "once per number of training days, when the rules load", [days])
    static let bandsScope = ExpressionScope("bands.rows[].when", "once per experience level, when the rules load", [experience])
    static let modifiersScope = ExpressionScope("modifiers.rows[].when", "once per goal of the domain, when the rules load", [goal])
    static let limitsScope = ExpressionScope("limits.rows[].when", "once per experience level, when the rules load", [experience])
    static let restScope = ExpressionScope("rest.rows[].when", "once per goal modifier and movement, when the rules load", [modifier, movement])
    static let levelsScope = ExpressionScope("levels.rows[].when", "once per experience level, when the rules load", [experience])
}
