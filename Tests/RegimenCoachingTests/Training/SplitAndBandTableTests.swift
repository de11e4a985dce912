@testable import RegimenCoaching
import Testing

/// The split by training days and the weekly set bands with their goal modifiers
/// (docs/requirements.md#training-split and #training-volume), row by row.
@Suite struct SplitAndBandTableTests {
    struct SplitCase: Sendable, CustomStringConvertible {
        var days: Int
        var template: String
        var structure: [String]
        var recoveryDays: Int
        var description: String { "\(days) days → \(template)" }
    }

    static let splits: [SplitCase] = [
        SplitCase(days: 1, template: "full_body_1", structure: ["Full body"], recoveryDays: 0),
        SplitCase(days: 2, template: "upper_lower_2", structure: ["Upper body", "Lower body"], recoveryDays: 0),
        // The 3-day row chooses among its templates by band coverage (`choose: most_band_minimums`).
        SplitCase(days: 3, template: "full_body_3", structure: ["Full body", "Full body", "Full body"], recoveryDays: 0),
        SplitCase(days: 4, template: "upper_lower_4", structure: ["Upper body", "Lower body", "Upper body", "Lower body"], recoveryDays: 0),
        SplitCase(days: 5, template: "ppl_upper_lower_5", structure: ["Push", "Pull", "Legs", "Upper body", "Lower body"], recoveryDays: 0),
        SplitCase(days: 6, template: "push_pull_legs_6", structure: ["Push", "Pull", "Legs", "Push", "Pull", "Legs"], recoveryDays: 0),
        SplitCase(days: 7, template: "push_pull_legs_6", structure: ["Push", "Pull", "Legs", "Push", "Pull", "Legs", "Active recovery"], recoveryDays: 1),
    ]

    @Test(arguments: splits)
    func splitByDays(_ row: SplitCase) throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .female, scheduleDays: row.days, experience: .intermediate, equipment: .fullGym))
        #expect(week.split.templateId == row.template)
        #expect(week.workouts.map(\.focus) == row.structure)
        #expect(week.split.recoveryDays == row.recoveryDays)
        #expect(week.split.trainingDays == min(row.days, 6))
    }

    @Test(arguments: [(3, "full_body_3", ["Full body", "Full body", "Full body"]),
                      (5, "upper_bias_5", ["Upper body", "Lower body", "Upper body", "Lower body", "Upper body"]),
                      (6, "upper_lower_6", ["Upper body", "Lower body", "Upper body", "Lower body", "Upper body", "Lower body"])])
    func namedSplitOptions(days: Int, option: String, structure: [String]) throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: days), options: TrainingPlanOptions(split: option))
        #expect(week.split.templateId == option)
        #expect(week.workouts.map(\.focus) == structure)
    }

    @Test func splitOptionNotOfferedForTheDaysIsATypedError() throws {
        let planner = try #require(TrainingFixtures.planner)
        #expect(throws: TrainingPlanError.self) {
            try planner.plan(for: Profile(sex: .male, scheduleDays: 2), options: TrainingPlanOptions(split: "full_body_3"))
        }
    }

    @Test(arguments: [0, 8, -1])
    func daysOutsideOneToSevenAreATypedError(_ days: Int) throws {
        let planner = try #require(TrainingFixtures.planner)
        do {
            _ = try planner.plan(for: Profile(sex: .male, scheduleDays: days))
            Issue.record("expected an error for \(days) days")
        } catch {
            #expect(error.field == "schedule_days")
        }
    }

    struct BandCase: Sendable, CustomStringConvertible {
        var experience: Profile.Experience
        var goal: String
        var band: ClosedRange<Int>
        var reps: String
        var rir: String
        var description: String { "\(experience.rawValue) \(goal) → \(band)" }
    }

    // Hypertrophy bands are the seed's; strength is −20% and fat loss −15%, rounded to the nearest set.
    static let bands: [BandCase] = [
        BandCase(experience: .novice, goal: "lean_mass", band: 8...12, reps: "6–10", rir: "1–3"),
        BandCase(experience: .intermediate, goal: "lean_mass", band: 12...16, reps: "6–10", rir: "1–3"),
        BandCase(experience: .advanced, goal: "lean_mass", band: 14...20, reps: "6–10", rir: "1–3"),
        BandCase(experience: .intermediate, goal: "recomp", band: 12...16, reps: "6–10", rir: "1–3"),
        BandCase(experience: .novice, goal: "strength", band: 6...10, reps: "3–6", rir: "1–2"),
        BandCase(experience: .intermediate, goal: "strength", band: 10...13, reps: "3–6", rir: "1–2"),
        BandCase(experience: .advanced, goal: "strength", band: 11...16, reps: "3–6", rir: "1–2"),
        BandCase(experience: .novice, goal: "fat_loss", band: 7...10, reps: "5–8", rir: "1–3"),
        BandCase(experience: .intermediate, goal: "fat_loss", band: 10...14, reps: "5–8", rir: "1–3"),
        BandCase(experience: .advanced, goal: "fat_loss", band: 12...17, reps: "5–8", rir: "1–3"),
    ]

    @Test(arguments: bands)
    func bandByExperienceAndGoal(_ row: BandCase) throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 4, experience: row.experience, equipment: .fullGym, goal: row.goal))
        for volume in week.volume { #expect(volume.band == row.band, "\(volume.muscle)") }
        let compounds = week.workouts.flatMap(\.blocks).filter { $0.movement == .compound && $0.kind == .strength && $0.rir != nil }
        #expect(!compounds.isEmpty)
        for block in compounds {
            #expect(block.reps == row.reps, "\(block.exerciseId)")
            #expect(block.rir == row.rir, "\(block.exerciseId)")
        }
    }

    @Test func fatLossAddsALowIntensityFinisherToEveryTrainingDay() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .female, scheduleDays: 3, experience: .novice, equipment: .bodyweightOnly, goal: "fat_loss"))
        for workout in week.workouts {
            #expect(workout.blocks.last?.kind == .conditioning, "day \(workout.day)")
        }
    }

    @Test func injuryCutsLowerTheLocalBand() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 4, experience: .intermediate, equipment: .fullGym, injuries: [.knee]))
        let quads = try #require(week.volume.first { $0.muscle == "quads" })
        #expect(quads.band == 8...11)  // 12-16 −30%
        #expect(quads.injuryAdjustment == "knee −30%")
        let chest = try #require(week.volume.first { $0.muscle == "chest" })
        #expect(chest.band == 12...16)
    }
}
