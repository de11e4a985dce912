@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

/// A day type's `roles` (catalogs/plan-templates.yaml) bind exercise selection: on a pull day the
/// shoulders get rear-delt work only, in the week and in its busy-day variant.
@Suite struct DayRoleTests {
    /// Every block of a role muscle on a day with that role uses one of the role's patterns.
    static func violations(_ week: TrainingWeek, _ planner: TrainingPlanner) -> [String] {
        var out: [String] = []
        let structure = planner.rules.templates[week.split.templateId]?.weeklyStructure ?? []
        for workout in week.workouts where !workout.isRecovery {
            guard workout.day <= structure.count, let dayType = planner.rules.dayTypes[structure[workout.day - 1]] else { continue }
            for (muscle, patterns) in dayType.roles {
                let blocks = workout.blocks + (workout.compact?.groups.flatMap(\.blocks) ?? [])
                for block in blocks where block.muscle == muscle {
                    let pattern = planner.catalog[block.exerciseId]?.pattern ?? "?"
                    if !patterns.contains(pattern) { out.append("day \(workout.day) \(dayType.id): \(block.exerciseId) (\(pattern)) for \(muscle)") }
                }
            }
        }
        return out
    }

    @Test func pullDaysNeverPrescribeAShoulderPress() throws {
        let planner = try #require(TrainingFixtures.planner)
        var failures: [String] = []
        var pullDays = 0
        for days in [3, 5, 6, 7] {
            for experience in Profile.Experience.allCases {
                for equipment in Profile.Equipment.allCases {
                    for goal in TrainingPlanPropertyTests.goals {
                        let profile = Profile(sex: .female, scheduleDays: days, experience: experience, equipment: equipment, goal: goal)
                        let week = try planner.plan(for: profile, options: TrainingPlanOptions(split: days == 3 ? "push_pull_legs_3" : nil))
                        pullDays += week.workouts.filter { $0.focus == "Pull" }.count
                        failures += Self.violations(week, planner)
                        // Independently of the rule file: shoulder work on a pull day is rear-delt work.
                        for workout in week.workouts where workout.focus == "Pull" {
                            for block in workout.blocks + (workout.compact?.groups.flatMap(\.blocks) ?? []) where block.muscle == "shoulders" {
                                if planner.catalog[block.exerciseId]?.pattern != "rear_delt" { failures.append("\(days)d \(equipment): \(block.exerciseId) on a pull day") }
                            }
                        }
                    }
                }
            }
        }
        #expect(pullDays == 288)
        #expect(failures.prefix(10).map { $0 } == [])
    }

    /// With the shoulders listed first on pull days (so they get their share before the rows
    /// count toward it), the pull days carry shoulder work, and all of it is rear-delt work.
    @Test func aPullDayThatTrainsShouldersGivesThemRearDeltWork() throws {
        let files = TrainingFixtures.files(editing: "catalogs/plan-templates.yaml", replacing: "    muscles: [back, biceps, shoulders]", with: "    muscles: [shoulders, back, biceps]")
        let result = TrainingFixtures.load(files)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        let planner = try TrainingPlanner(ruleSet: result.ruleSet)
        for equipment in Profile.Equipment.allCases {
            let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 6, experience: .advanced, equipment: equipment, goal: "lean_mass"))
            let pullShoulders = week.workouts.filter { $0.focus == "Pull" }.flatMap(\.blocks).filter { $0.muscle == "shoulders" }
            #expect(!pullShoulders.isEmpty, "\(equipment)")
            #expect(Self.violations(week, planner) == [])
        }
    }

    @Test func aRoleNamingAPatternNoExerciseHasIsAnError() {
        let files = TrainingFixtures.files(editing: "catalogs/plan-templates.yaml", replacing: "roles: {shoulders: [rear_delt]}", with: "roles: {shoulders: [rear_delts]}")
        let errors = TrainingFixtures.load(files).diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors.contains { $0.hasPrefix("catalogs/plan-templates.yaml:") && $0.contains("roles.shoulders names pattern 'rear_delts', which no catalog exercise has") })
    }
}
