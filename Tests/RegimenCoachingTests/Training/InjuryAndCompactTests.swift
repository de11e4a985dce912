@testable import RegimenCoaching
import Testing

@Suite struct InjuryAndCompactTests {
    @Test func kneeInjuryRegressesTheSquatAndSaysSo() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 3, experience: .intermediate, equipment: .fullGym, injuries: [.knee]),
                                     options: TrainingPlanOptions(split: "push_pull_legs_3"))
        let legs = try #require(week.workouts.first { $0.focus == "Legs" })
        let quads = try #require(legs.blocks.first { $0.muscle == "quads" })
        #expect(quads.exerciseId == "box_squat")
        #expect(quads.notes == ["Box squat to a chair regresses Barbell back squat (knee)"])
        #expect(week.notes.contains("quads: weekly sets cut for injury (knee −30%), band 8–11"))
    }

    @Test func shoulderInjurySwapsPressingForAShoulderFriendlyVariant() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .female, scheduleDays: 3, experience: .novice, equipment: .dumbbellsOnly, injuries: [.shoulder]),
                                     options: TrainingPlanOptions(split: "push_pull_legs_3"))
        let push = try #require(week.workouts.first { $0.focus == "Push" })
        #expect(push.blocks.first { $0.muscle == "chest" }?.exerciseId == "dumbbell_floor_press")
    }

    @Test func oneDayAdvancedPlanStatesShortfallsAndSuggestsMoreDays() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 1, experience: .advanced, equipment: .fullGym))
        #expect(week.workouts[0].workingSets <= 30)
        #expect(!week.shortfalls.isEmpty)
        for muscle in week.shortfalls {
            #expect(muscle.shortfallReasons.contains { $0.contains("session") }, "\(muscle.muscle): \(muscle.shortfallReasons)")
        }
        try SplitChoiceTests.expectTheDaysTipHolds(week, Profile(sex: .male, scheduleDays: 1, experience: .advanced, equipment: .fullGym), planner)
    }

    @Test func compactBlocksAreMarkedOnTheFullSession() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 4, experience: .intermediate, equipment: .fullGym))
        for workout in week.workouts {
            let compact = try #require(workout.compact)
            let kept = Set(compact.groups.flatMap(\.blocks).map { "\($0.muscle)/\($0.exerciseId)" })
            for block in workout.blocks {
                #expect(block.altCompact == kept.contains("\(block.muscle)/\(block.exerciseId)"))
            }
            #expect(compact.estimatedMinutes <= 25)
            #expect(compact.groups.allSatisfy { $0.blocks.count <= 3 })
        }
    }

    @Test func sevenDaysEndWithAnActiveRecoveryDay() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .female, scheduleDays: 7, experience: .novice, equipment: .bandsOnly))
        let last = try #require(week.workouts.last)
        #expect(last.isRecovery)
        #expect(last.day == 7)
        #expect(last.blocks.map(\.exerciseId) == ["zone2_walk", "hip_mobility_flow", "thoracic_mobility_flow", "ankle_calf_mobility"])
        #expect(last.workingSets == 0)
        #expect(week.notes.contains { $0.contains("active recovery") })
    }
}
