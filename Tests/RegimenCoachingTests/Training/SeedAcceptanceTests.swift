@testable import RegimenCoaching
import Testing

/// The planner's acceptance criteria about training (docs/requirements.md#planner-acceptance-criteria),
/// one test per criterion. (The ingredient criterion is tested in NutritionSeedAcceptanceTests, the
/// readiness and weight-trend ones in AdaptationScenarioTests.)
@Suite struct SeedAcceptanceTests {
    @Test("Minimal input (sex + schedule) yields a plan with clear 'add X' hints")
    func minimalInputYieldsAPlan() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .female, scheduleDays: 3))
        #expect(week.workouts.count == 3)
        #expect(week.workouts.allSatisfy { !$0.blocks.isEmpty })
        #expect(week.assumptions.count == 3)
        #expect(week.assumptions.contains { $0.hasPrefix("experience not given") })
        #expect(week.assumptions.contains { $0.hasPrefix("equipment not given") })
        #expect(week.assumptions.contains { $0.hasPrefix("goal not given") })
    }

    @Test("Age range changes macros appropriately; switching to bodyfat_pct toggles Katch–McArdle (the workouts stay the same)")
    func ageAndBodyFatLeaveTheWorkoutsAlone() throws {
        let planner = try #require(TrainingFixtures.planner)
        let base = Profile(sex: .male, scheduleDays: 4, ageRange: "25-34", experience: .intermediate, equipment: .fullGym)
        var changed = base
        changed.ageRange = "45-54"
        changed.bodyfatPct = 18
        #expect(try planner.plan(for: base).workouts == planner.plan(for: changed).workouts)
    }

    @Test("Schedule change remaps split and weekly sets without exceeding 12–16 / 14–20 caps")
    func scheduleChangeRemapsWithinCaps() throws {
        let planner = try #require(TrainingFixtures.planner)
        for (experience, cap) in [(Profile.Experience.intermediate, 16), (.advanced, 20)] {
            var templates: [String] = []
            for days in 1...7 {
                let week = try planner.plan(for: Profile(sex: .male, scheduleDays: days, experience: experience, equipment: .fullGym, goal: "lean_mass"))
                templates.append(week.split.templateId)
                for volume in week.volume {
                    #expect(volume.planned <= Double(cap), "\(experience.rawValue) \(days)d \(volume.muscle)")
                }
            }
            #expect(Set(templates).count == 6)
        }
    }

    @Test("Equipment = bodyweight_only produces feasible workouts (push-ups, rows, split squats, hip hinges, calf raises, core)")
    func bodyweightOnlyProducesFeasibleWorkouts() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .female, scheduleDays: 4, experience: .novice, equipment: .bodyweightOnly))
        let exercises = week.workouts.flatMap(\.blocks).compactMap { planner.catalog[$0.exerciseId] }
        let patterns = Set(exercises.map(\.pattern))
        #expect(exercises.contains { $0.id.hasSuffix("push_up") }, "push-ups")
        #expect(patterns.contains("horizontal_pull"), "rows")
        #expect(patterns.contains("lunge"), "split squats")
        #expect(patterns.contains("hinge"), "hip hinges")
        #expect(patterns.contains("calf_raise"), "calf raises")
        #expect(exercises.contains { $0.muscles.contains("core") }, "core")
        #expect(exercises.allSatisfy { Set($0.equipment).isSubset(of: ["bodyweight", "household"]) })
        #expect(week.shortfalls.isEmpty, "\(week.shortfalls.map(\.muscle))")
    }
}
