package import Foundation

/// Every benchmark of `regimen bench`, in the order it prints them: expressions, security
/// decisions, plan generation, nutrition and the tracker. They measure the domain modules'
/// own work (an expression compiled and evaluated, a policy's allow-only path) below the
/// engine's API, which is why they live beside the engine rather than in the command.
package enum RegimenBenchmarks {
    /// The benchmarks over the repository's rules found from `currentDirectory` (then from
    /// `executable`); a domain whose rules cannot be loaded contributes none.
    package static func cases(currentDirectory: URL, executable: URL?) -> [BenchmarkCase] {
        ExpressionBenchmarks.cases + SecurityBenchmarks.cases + PlanBenchmarks.cases(currentDirectory: currentDirectory, executable: executable)
            + NutritionBenchmarks.cases(currentDirectory: currentDirectory, executable: executable)
            + TrackingBenchmarks.cases(currentDirectory: currentDirectory, executable: executable)
    }
}
