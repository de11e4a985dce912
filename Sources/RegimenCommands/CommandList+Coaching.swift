import ArgumentParser

extension CommandList {
    /// The planner: indexes, nutrition, training plans, adaptation, supplements.
    static let coaching: [any ParsableCommand.Type] = [
        Plan.self, Indexes.self, Nutrition.self, AdaptCommand.self, DiffCommand.self, SupplementsCommand.self, OneRepMaxCommand.self, ImpactCommand.self,
    ]
}
