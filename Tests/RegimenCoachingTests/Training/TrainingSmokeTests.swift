import RegimenCoaching
import RegimenLanguage
import Testing

@Suite struct TrainingSmokeTests {
    @Test func loadsAndPlans() throws {
        let result = TrainingFixtures.load()
        for diagnostic in result.diagnostics { print(diagnostic) }
        #expect(!result.hasErrors)
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 7, experience: .advanced, equipment: .fullGym, injuries: [.knee], goal: "fat_loss"))
        for workout in week.workouts {
            print("Day \(workout.day) \(workout.focus) ~\(workout.estimatedMinutes) min, \(workout.workingSets) sets")
            for block in workout.blocks { print("  \(block.muscle) \(block.exerciseId) \(block.sets)x\(block.reps) @\(block.rir ?? "-") compact=\(block.altCompact) \(block.notes)") }
            if let compact = workout.compact { print("  compact ~\(compact.estimatedMinutes) min: \(compact.groups.map { $0.blocks.map(\.exerciseId).joined(separator: "+") })") }
        }
        for volume in week.volume { print(volume.muscle, volume.band, volume.target, volume.planned, volume.shortfallReasons) }
        print(week.notes, week.tips, week.assumptions)
    }
}
