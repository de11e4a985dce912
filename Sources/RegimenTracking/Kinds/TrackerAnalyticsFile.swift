import RegimenLanguage
import RegimenRules

/// `kind: tracker_analytics` — decodes `rules/tracker/tracker-analytics.yaml` into an ``AnalyticsPolicy``.
struct TrackerAnalyticsFile: RuleFileKind {
    package static let kind = "tracker_analytics"
    package static var expressionScopes: [ExpressionScope] { [TrackerAnalyticsVariables.setScope] }
    package let policy: AnalyticsPolicy

    package var ruleCount: Int { 3 }

    package static func decode(_ document: inout MappingDecoder) -> TrackerAnalyticsFile? {
        let variables = TrackerAnalyticsVariables.setScope.variables
        let volume = document.formula("set_volume", declaring: variables)
        let onlyChecked = document.required("volume_counts_only_checked", as: Bool.self)
        let score = document.formula("set_score", declaring: variables)
        let oneRepMax = document.formula("estimated_1rm", declaring: variables)
        let maxReps = document.required("e1rm_max_reps", as: Int.self, in: 1...100)
        let decimals = document.required("e1rm_decimals", as: Int.self, in: 0...6)
        guard let volume, let onlyChecked, let score, let oneRepMax, let maxReps, let decimals else { return nil }
        return TrackerAnalyticsFile(policy: AnalyticsPolicy(setVolume: volume, volumeCountsOnlyChecked: onlyChecked, setScore: score,
                                                            estimatedOneRepMax: oneRepMax, oneRepMaxMaxReps: maxReps,
                                                            oneRepMaxDecimals: decimals))
    }
}
