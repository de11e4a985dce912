/// The profile `regimen bench` plans with (and the planner's tests reuse).
package enum PlanBenchmark {
    /// The heaviest everyday plan: six days, advanced, full gym.
    package static let profile = Profile(
        sex: .male, scheduleDays: 6, ageRange: "25-34", heightCm: 180, weightKg: 82, experience: .advanced,
        equipment: .fullGym, goal: "lean_mass", budgetTier: .medium)
}
