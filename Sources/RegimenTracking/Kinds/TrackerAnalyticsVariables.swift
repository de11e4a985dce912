import RegimenLanguage
import RegimenRules

/// The variables the formulas of `rules/tracker/tracker-analytics.yaml` read, declared once: the
/// file compiles its formulas against them (types checked), the analytics bind exactly them,
/// and `regimen explain-kind tracker_analytics` and the file's header print them.
enum TrackerAnalyticsVariables {
    typealias V = VariableDeclaration

    static let reps = V("reps", .int, "the set's repetitions")
    static let weight = V("weight", .number, "the set's weight")

    static let setScope = ExpressionScope("set_volume, set_score, estimated_1rm", "once per logged set with reps and weight", [reps, weight])
}
