import RegimenLanguage
import RegimenRules

/// How long a rule's change lasts (`lasts:` of a rule in rules/readiness-rules.yaml or
/// rules/progression-rules.yaml). Every `adapt` first ends the changes whose time is over and
/// gives the plan back what they took, so that a cut meant for a session or a week does not
/// become the plan.
enum AdjustmentLifetime: String, Sendable, Hashable, CaseIterable {
    /// Until the next adaptation (the next session has been trained by then).
    case nextSession = "next_session"
    /// For the week it was made in: the next adaptation of a later week ends it.
    case thisWeek = "this_week"
    /// Until the week's readiness meets the file's `adjustments.recovered` condition.
    case untilReadinessRecovers = "until_readiness_recovers"
    /// Part of the plan from now on (earned progression, a calorie change from the trend).
    case persistent

    /// How the change log names the end.
    var phrase: String {
        switch self {
        case .nextSession: "for the next session"
        case .thisWeek: "for this week"
        case .untilReadinessRecovers: "until readiness recovers"
        case .persistent: "from now on"
        }
    }
}

extension AdjustmentLifetime: NodeEnum {}

/// The `adjustments:` section of rules/readiness-rules.yaml: when a change that lasts "until
/// readiness recovers" ends, and how many weeks of records a plan keeps.
package struct AdjustmentPolicy: Sendable {
    /// Week-scope condition: the week's readiness has recovered.
    var recovered: CompiledExpression
    /// Weeks of `adaptations` records a plan keeps; a request older than that is refused as stale.
    var keepWeeks: Int

}

/// The `weight_trend:` section of rules/readiness-rules.yaml: the measured trend from the
/// check-ins' body weight, compared with the goal's target rate.
package struct WeightTrendRule: Sendable {
    /// Days of weigh-ins the trend is computed over (and that a plan keeps).
    var windowDays: Int
    /// Fewest weigh-ins in the window for a trend.
    var minWeighIns: Int
    /// Fewest days between the window's first and last weigh-in.
    var minSpanDays: Int
    /// Goal → the target rate of change of body weight, percent per week.
    var targetPercentPerWeek: [String: ClosedRange<Double>]

}

/// The `calorie_band:` section of rules/readiness-rules.yaml: what the banner suggests when a
/// calorie change stops at the edge of the effective band.
package struct CalorieBandAdvice: Sendable {
    var atFloor: String
    var atCeiling: String
    /// At the pregnancy floor (no deficit); `atFloor` when the rules do not say.
    var inPregnancy: String?

    init(atFloor: String, atCeiling: String, inPregnancy: String? = nil) {
        self.atFloor = atFloor
        self.atCeiling = atCeiling
        self.inPregnancy = inPregnancy
    }
}
