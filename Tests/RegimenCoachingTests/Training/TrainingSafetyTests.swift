@testable import RegimenCoaching
import RegimenTestSupport
import Testing

/// `safety_screens` in rules/training-selection.yaml: pregnancy, high blood pressure and 65+
/// change the training, not only the supplements (issue 31).
@Suite struct TrainingSafetyTests {
    /// For every pregnant profile of a grid (trimester 1–3 or unknown × equipment × experience ×
    /// goal × days): the week carries the pregnancy caution; no block is a `max_effort` lift, and
    /// from the second trimester (or unknown) none lies supine; every lifting block keeps at least
    /// 2 reps in reserve; no session is planned longer than 60 minutes. On main a pregnant client
    /// got RIR 1–3 work, 65–78-minute sessions and no caution.
    @Test func aPregnantClientTrainsModeratelyWithACaution() throws {
        let planner = try #require(TrainingFixtures.planner)
        var rng = SeededGenerator(seed: 0x9E6)
        var checked = 0
        for trimester in [nil, 1, 2, 3] as [Int?] {
            for equipment in Profile.Equipment.allCases {
                for experience in Profile.Experience.allCases {
                    let goal = ["fat_loss", "lean_mass", "strength", "recomp"].randomElement(using: &rng) ?? "lean_mass"
                    var profile = Profile(
                        sex: .female, scheduleDays: Int.random(in: 1...6, using: &rng), age: 31, weightKg: 70,
                        experience: experience, equipment: equipment, goal: goal, pregnant: true)
                    profile.trimester = trimester
                    let week = try planner.plan(for: profile)
                    #expect(week.cautions.contains { $0.hasPrefix("Pregnancy:") }, "\(profile)")
                    for workout in week.workouts where !workout.isRecovery {
                        #expect(workout.estimatedMinutes <= 60, "\(workout.estimatedMinutes) min: \(profile)")
                        for block in workout.blocks {
                            let flags = planner.catalog[block.exerciseId]?.flags ?? []
                            #expect(!flags.contains("max_effort"), "\(block.exerciseId): \(profile)")
                            if (trimester ?? 2) >= 2 { #expect(!flags.contains("supine"), "\(block.exerciseId): \(profile)") }
                            if let rir = block.rir, let low = Int(rir.prefix { $0.isNumber }) {
                                #expect(low >= 2, "\(block.exerciseId) @RIR \(rir): \(profile)")
                            }
                        }
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 48)
    }

    @Test func highBloodPressureAndAge65GetTheirCautionsInTraining() throws {
        let planner = try #require(TrainingFixtures.planner)
        let hypertensive = try planner.plan(for: Profile(
            sex: .male, scheduleDays: 4, age: 50, weightKg: 90, experience: .advanced, equipment: .fullGym, goal: "strength", hypertension: true))
        #expect(hypertensive.cautions.contains { $0.hasPrefix("High blood pressure:") })
        for block in hypertensive.workouts.flatMap(\.blocks) {
            let flags = planner.catalog[block.exerciseId]?.flags ?? []
            #expect(!flags.contains("max_effort"), "\(block.exerciseId)")
        }
        let older = try planner.plan(for: Profile(sex: .female, scheduleDays: 3, age: 70, weightKg: 60, equipment: .dumbbellsOnly))
        #expect(older.cautions.contains { $0.hasPrefix("65 and over:") })
        let younger = try planner.plan(for: Profile(sex: .female, scheduleDays: 3, age: 40, weightKg: 60, equipment: .dumbbellsOnly))
        #expect(younger.cautions.isEmpty)
    }
}
