import Foundation
import RegimenCoaching
import RegimenRules

/// Plan-generation benchmarks for `regimen bench` (median in-process `generatePlan` for a six-day
/// advanced full-gym profile, target under 1 ms; docs/requirements.md#performance-targets). ``RegimenBenchmarks``
/// runs them.
enum PlanBenchmarks {
    static let generatePlanTarget: Double = 1_000_000

    /// `generatePlan` (training and nutrition) and the training week alone, on the repository's
    /// rules; empty when the planner's rules cannot be loaded from the current directory.
    static func cases(currentDirectory: URL, executable: URL?) -> [BenchmarkCase] {
        guard let generator = loadGenerator(currentDirectory: currentDirectory, executable: executable) else { return [] }
        let profile = PlanBenchmark.profile
        return [
            BenchmarkCase(name: "plan.generatePlan 6-day advanced full gym", targetNanoseconds: generatePlanTarget) { count in
                var total = 0
                for _ in 0..<count { total &+= (try? generator.generatePlan(profile))?.training.workouts.count ?? 0 }
                return total
            },
            BenchmarkCase(name: "plan.training week 6-day advanced full gym", targetNanoseconds: nil) { count in
                var total = 0
                for _ in 0..<count { total &+= (try? generator.training.plan(for: profile))?.workouts.count ?? 0 }
                return total
            },
        ]
    }

    /// The planner over the repository's rules. Files of other domains' kinds are skipped (their
    /// unknown-kind errors do not concern the planner); any other error leaves the benchmark out.
    private static func loadGenerator(currentDirectory: URL, executable: URL?) -> PlanGenerator? {
        let located = RuleSources.locate(rules: nil, catalogs: nil, currentDirectory: currentDirectory, executable: executable)
        guard case .success(let sources) = located else { return nil }
        let result = RuleSetLoader(kinds: PlanGenerator.kinds).load(from: sources)
        let blocking = result.diagnostics.filter { $0.severity == .error && $0.id != "rules.unknown-kind" }
        guard blocking.isEmpty else { return nil }
        return try? PlanGenerator(ruleSet: result.ruleSet)
    }
}
