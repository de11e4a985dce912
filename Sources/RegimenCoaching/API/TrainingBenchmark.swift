/// `regimen bench` measurements for the planner: the median in-process time of one call.
package enum PlanBenchmark {
    /// The heaviest everyday plan: six days, advanced, full gym.
    package static let profile = Profile(
        sex: .male, scheduleDays: 6, ageRange: "25-34", heightCm: 180, weightKg: 82, experience: .advanced,
        equipment: .fullGym, goal: "lean_mass", budgetTier: .medium)

    /// Median duration of `generatePlan` (training and nutrition) over `iterations` calls.
    package static func medianGeneratePlan(_ generator: PlanGenerator, profile: Profile = profile, iterations: Int = 200) -> Duration {
        median(iterations) { _ = try? generator.generatePlan(profile) }
    }

    /// Median duration of planning the week of training alone.
    package static func medianTrainingWeek(_ planner: TrainingPlanner, profile: Profile = profile, iterations: Int = 200) -> Duration {
        median(iterations) { _ = try? planner.plan(for: profile) }
    }

    private static func median(_ iterations: Int, _ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(max(1, iterations))
        for _ in 0..<max(1, iterations) {
            let start = clock.now
            body()
            samples.append(clock.now - start)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}
