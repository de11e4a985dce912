import Foundation
import RegimenCoaching
import RegimenRules

/// Plan-generation benchmarks for `regimen bench` (median in-process `generatePlan` for a six-day
/// advanced full-gym profile, target under 1 ms; docs/requirements.md#performance-targets). Add
/// ``cases`` to `BenchmarkRegistry.additionalCases` to run them.
enum PlanBenchmarks {
    static let generatePlanTarget: Double = 1_000_000

    /// `generatePlan` (training and nutrition) and the training week alone, on the repository's
    /// rules; empty when the planner's rules cannot be loaded from the current directory.
    static var cases: [BenchmarkRunner.Case] {
        guard let generator = loadGenerator() else { return [] }
        let profile = PlanBenchmark.profile
        return [
            BenchmarkRunner.Case(name: "plan.generatePlan 6-day advanced full gym", targetNanoseconds: generatePlanTarget) { count in
                var total = 0
                for _ in 0..<count { total &+= (try? generator.generatePlan(profile))?.training.workouts.count ?? 0 }
                return total
            },
            BenchmarkRunner.Case(name: "plan.training week 6-day advanced full gym", targetNanoseconds: nil) { count in
                var total = 0
                for _ in 0..<count { total &+= (try? generator.training.plan(for: profile))?.workouts.count ?? 0 }
                return total
            },
        ]
    }

    /// The planner over the repository's rules. Files of other domains' kinds are skipped (their
    /// unknown-kind errors do not concern the planner); any other error leaves the benchmark out.
    private static func loadGenerator() -> PlanGenerator? {
        let located = RuleSources.locate(
            rules: nil, catalogs: nil, currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            executable: Bundle.main.executableURL)
        guard case .success(let sources) = located else { return nil }
        let result = RuleSetLoader(kinds: PlanGenerator.kinds).load(from: sources)
        let blocking = result.diagnostics.filter { $0.severity == .error && $0.id != "rules.unknown-kind" }
        guard blocking.isEmpty else { return nil }
        return try? PlanGenerator(ruleSet: result.ruleSet)
    }
}
