import RegimenCoaching
package import RegimenRules
import RegimenSecurity
import RegimenTracking

/// Every module's rule-file kinds, composed once here where the modules meet: each module owns
/// and lists its own kinds, and no module below knows the kinds of the ones above it.
package enum RegimenRuleKinds {
    /// The planner's kinds: plans, nutrition, indexes, adaptation, supplements.
    package static var planner: [any RuleFileKind.Type] { PlanGenerator.kinds + AdaptationRuleSet.kinds }

    /// Test files for the planner's rules (`kind: plan_tests`), run by `regimen test`.
    package static var tests: [any RuleFileKind.Type] { [PlanTestsFile.self] }

    /// Every kind of every module: what `regimen check` validates.
    package static var all: [any RuleFileKind.Type] { planner + TrackingRules.kinds + SecurityRuleKinds.kinds + tests }

    /// A loader for `kinds` that skips the files of every other module's kinds unread and still
    /// reports a kind no module knows (a misspelling).
    package static func loader(for kinds: [any RuleFileKind.Type]) -> RuleSetLoader {
        let others = Set(all.map { $0.kind }).subtracting(kinds.map { $0.kind })
        return RuleSetLoader(kinds: kinds, otherModulesKinds: .named(others))
    }
}
