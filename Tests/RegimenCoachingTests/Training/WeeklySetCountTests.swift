@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import Foundation

/// One weekly-set count: `set_credit` of rules/training-volume.yaml, the same in the plan, its
/// bands, `diff` and `adapt`, with its direct and indirect parts reported.
@Suite struct WeeklySetCountTests {
    static let grid: [Profile] = (1...7).flatMap { days in
        Profile.Experience.allCases.flatMap { experience in
            TrainingPlanPropertyTests.goals.flatMap { goal in
                Profile.Equipment.allCases.map { equipment in
                    Profile(sex: .male, scheduleDays: days, experience: experience, equipment: equipment, goal: goal)
                }
            }
        }
    }

    /// Direct and indirect sets per muscle, counted here from the blocks and the catalog.
    static func parts(_ week: TrainingWeek, _ catalog: ExerciseCatalog) -> [String: (direct: Int, indirect: Int)] {
        var parts: [String: (direct: Int, indirect: Int)] = [:]
        for block in week.workouts.flatMap(\.blocks) where block.kind == .strength {
            guard let exercise = catalog[block.exerciseId] else { continue }
            for muscle in exercise.muscles { parts[muscle, default: (0, 0)].direct += block.sets }
            for muscle in exercise.secondaryMuscles { parts[muscle, default: (0, 0)].indirect += block.sets }
        }
        return parts
    }

    /// For every profile of the grid: each muscle's planned sets are its direct sets times the
    /// direct credit plus its indirect sets times the indirect credit, and both parts are the
    /// blocks' own.
    @Test func plannedIsDirectPlusIndirectCreditForEveryPlan() throws {
        let planner = try #require(TrainingFixtures.planner)
        let credit = planner.rules.setCredit.value
        var failures: [String] = []
        for profile in Self.grid {
            let week = try planner.plan(for: profile)
            let counted = Self.parts(week, planner.catalog)
            for volume in week.volume {
                let expected = counted[volume.muscle] ?? (0, 0)
                if volume.directSets != expected.direct || volume.indirectSets != expected.indirect
                    || abs(volume.planned - (Double(volume.directSets) * credit.direct + Double(volume.indirectSets) * credit.indirect)) > 1e-9 {
                    failures.append("\(profile.scheduleDays)d \(profile.experience?.rawValue ?? "") \(volume.muscle): \(volume.planned) from \(volume.directSets)+\(volume.indirectSets), blocks \(expected)")
                }
            }
        }
        #expect(Self.grid.count == 336)
        #expect(failures.prefix(10).map { $0 } == [])
    }

    @Test func aCoachCanCountDirectSetsOnly() throws {
        let files = TrainingFixtures.files(editing: "rules/training-volume.yaml", replacing: "  indirect: 0.5", with: "  indirect: 0")
        let result = TrainingFixtures.load(files)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        let planner = try TrainingPlanner(ruleSet: result.ruleSet)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 4, experience: .intermediate, equipment: .fullGym, goal: "lean_mass"))
        for volume in week.volume {
            #expect(volume.planned == Double(volume.directSets), "\(volume.muscle)")
        }
    }

    @Test func anIndirectCreditAboveTheDirectOneIsALocatedError() {
        let files = TrainingFixtures.files(editing: "rules/training-volume.yaml", replacing: "  indirect: 0.5", with: "  indirect: 1\n")
            .map { $0.path == "rules/training-volume.yaml" ? ($0.path, $0.text.replacingOccurrences(of: "  direct: 1\n", with: "  direct: 0.8\n")) : $0 }
        let errors = TrainingFixtures.load(files).diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors.contains { $0.hasPrefix("rules/training-volume.yaml:20:3: error:") && $0.contains("'set_credit.indirect' must not exceed 'direct' (0.8)") })
    }

    /// The intermediate 4-day full-gym plan of the report: shoulders and core count mostly
    /// indirect sets, and the JSON says so.
    @Test func theContractReportsBothParts() throws {
        let generator = try #require(TrainingFixtures.generator)
        let plan = try generator.generatePlan(Profile(sex: .male, scheduleDays: 4, weightKg: 80, experience: .intermediate, equipment: .fullGym, goal: "lean_mass"))
        let weekly = plan.jsonValue()["training"]?["weekly_sets"]?.listValue ?? []
        let shoulders = try #require(weekly.first { $0["muscle"] == .string("shoulders") })
        let direct = try #require(shoulders["direct_sets"]?.intValue)
        let indirect = try #require(shoulders["indirect_sets"]?.intValue)
        #expect(shoulders["planned"]?.numberValue == Double(direct) + Double(indirect) * 0.5)
        #expect(indirect > direct)
    }
}
