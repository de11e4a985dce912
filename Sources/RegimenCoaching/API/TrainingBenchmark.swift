/// A `regimen bench` measurement: the median in-process time of planning one week.
public enum TrainingBenchmark {
    /// The profile issue 5 names: six days, advanced, full gym.
    public static let profile = Profile(sex: .male, scheduleDays: 6, experience: .advanced, equipment: .fullGym, goal: "lean_mass")

    /// Plans `profile` `iterations` times and returns the median duration of one plan.
    public static func medianPlanDuration(_ planner: TrainingPlanner, profile: Profile = profile, iterations: Int = 200) -> Duration {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(max(1, iterations))
        for _ in 0..<max(1, iterations) {
            let start = clock.now
            _ = try? planner.plan(for: profile)
            samples.append(clock.now - start)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}
