import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// `regimen adapt`, `regimen supplements` (and `regimen diff`) run in-process from the repository.
@Suite struct AdaptationCommandTests {
    static let repository: URL = RepositoryRoot.url

    /// A two-day plan in the seed's shape with the weekly accounting `regimen plan` writes.
    static let plan = """
    {"idx": {"BMR": 1700, "TDEE": 2400, "method": "mifflin"}, "kcal": 2400,
     "macros": {"protein_g": 160, "fat_g": 70, "carb_g": 283},
     "training": {"weekly_sets": [
        {"muscle": "quads", "band": "6–10", "planned": 8}, {"muscle": "hamstrings", "band": "6–10", "planned": 8},
        {"muscle": "chest", "band": "6–10", "planned": 8}]},
     "workouts": [
       {"day": 1, "blocks": [{"muscle": "chest", "exerciseId": "barbell_bench_press", "sets": 4, "reps": "6–10", "rir": "1–3", "alt_compact": false}]},
       {"day": 2, "blocks": [{"muscle": "quads", "exerciseId": "back_squat", "sets": 4, "reps": "6–10", "rir": "1–3", "alt_compact": false},
                            {"muscle": "hamstrings", "exerciseId": "romanian_deadlift", "sets": 4, "reps": "6–10", "rir": "1–3", "alt_compact": false}]},
       {"day": 3, "blocks": [{"muscle": "chest", "exerciseId": "barbell_bench_press", "sets": 4, "reps": "6–10", "rir": "1–3", "alt_compact": false}]},
       {"day": 4, "blocks": [{"muscle": "quads", "exerciseId": "back_squat", "sets": 4, "reps": "6–10", "rir": "1–3", "alt_compact": false},
                            {"muscle": "hamstrings", "exerciseId": "romanian_deadlift", "sets": 4, "reps": "6–10", "rir": "1–3", "alt_compact": false}]}]}
    """

    private func run(_ arguments: [String]) -> CommandRun { runRegimen(arguments, in: Self.repository) }

    @Test func adaptPrintsTheSeedsChangeLogLines() throws {
        let scratch = try ScratchDirectory(["plan.json": Self.plan])
        defer { scratch.cleanUp() }
        let result = run(["adapt", scratch.url.appendingPathComponent("plan.json").path, "examples/checkins/sore-legs.yaml"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("  Legs -2 sets (soreness 5)   [sore_region]"))
        #expect(result.standardOutput.contains("  Calories -5% (weight above target)   [weight_above_target]"))
    }

    @Test func adaptJSONCarriesThePatchedPlanAndUpdatesTheWeeklyAccounting() throws {
        let scratch = try ScratchDirectory(["plan.json": Self.plan])
        defer { scratch.cleanUp() }
        let result = run(["adapt", scratch.url.appendingPathComponent("plan.json").path, "examples/checkins/sore-legs.yaml", "--format", "json"])
        #expect(result.status == 0)
        let value = try #require(YAMLReader.read(result.standardOutput, file: "out.json").document?.value())
        #expect(value["patched_plan"]?["kcal"] == .int(2280))
        let weekly = value["patched_plan"]?["training"]?["weekly_sets"]?.listValue ?? []
        #expect(weekly.first { $0["muscle"] == .string("quads") }?["planned"] == .int(6))
        #expect(weekly.first { $0["muscle"] == .string("chest") }?["planned"] == .int(8))
        #expect(value["change_log"]?.listValue?.first == .string("Legs -2 sets (soreness 5)"))
    }

    @Test func adaptYAMLReadsBackAsTheJSON() throws {
        let scratch = try ScratchDirectory(["plan.json": Self.plan])
        defer { scratch.cleanUp() }
        let path = scratch.url.appendingPathComponent("plan.json").path
        let json = run(["adapt", path, "examples/checkins/low-week.yaml", "--format", "json"])
        let yaml = run(["adapt", path, "examples/checkins/low-week.yaml", "--format", "yaml"])
        #expect(json.status == 0 && yaml.status == 0)
        let fromJSON = YAMLReader.read(json.standardOutput, file: "a.json").document?.value()
        let fromYAML = YAMLReader.read(yaml.standardOutput, file: "a.yaml").document?.value()
        #expect(fromJSON != nil && fromJSON == fromYAML)
    }

    @Test func adaptRejectsBadCheckInsWithLocatedProblemsAndExitTwo() throws {
        let scratch = try ScratchDirectory([
            "plan.json": Self.plan,
            "checkins.yaml": "checkins:\n  - {sleep_h: 7, stress: 9, motivation: 3, sorenes: {legs: 2}}\nweight_trend_2w: up\n",
        ])
        defer { scratch.cleanUp() }
        let result = runRegimen(["adapt", scratch.url.appendingPathComponent("plan.json").path, "checkins.yaml", "--rules", Self.repository.path], in: scratch.url)
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.contains { $0.hasPrefix("checkins.yaml:2:") && $0.contains("'checkins[0].stress' must be between 1 and 5") })
        #expect(lines.contains { $0.hasPrefix("checkins.yaml:2:") && $0.contains("unknown key 'checkins[0].sorenes'") && $0.contains("soreness") })
        #expect(lines.contains { $0.hasPrefix("checkins.yaml:3:") && $0.contains("'weight_trend_2w' must be one of") })
    }

    @Test func supplementsJSONListsLeftOutItemsWithTheirRule() throws {
        let result = run(["supplements", "examples/supplements-hypertension.yaml", "--goal", "fat_loss", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let value = try #require(YAMLReader.read(result.standardOutput, file: "out.json").document?.value())
        let caffeine = value["left_out"]?.listValue?.first { $0["id"] == .string("caffeine") }
        #expect(caffeine?["reasons"]?.listValue?.first?["rule"] == .string("hypertension_stimulant"))
        #expect(value["goal"] == .string("fat_loss"))
        #expect(value["shortlist"]?.listValue?.contains { $0["id"] == .string("caffeine") } == false)
    }

    @Test func supplementsAcceptsAGoalAliasAndRejectsAnUnknownGoal() {
        let alias = run(["supplements", "examples/complete.yaml", "--goal", "hypertrophy", "--format", "json"])
        #expect(alias.status == 0)
        #expect(alias.standardOutput.contains("\"goal\" : \"lean_mass\""))
        let unknown = run(["supplements", "examples/complete.yaml", "--goal", "bulking_season"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("'bulking_season' is not a known goal"))
    }

    @Test func supplementsRejectsABadProfileWithExitTwo() throws {
        let scratch = try ScratchDirectory(["p.yaml": "sex: male\nschedule_days: 4\nweight_kg: 500\npregnant: maybe\n"])
        defer { scratch.cleanUp() }
        let result = runRegimen(["supplements", "p.yaml", "--rules", Self.repository.path], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.standardError.contains("weight_kg"))
        #expect(result.standardError.contains("pregnant"))
    }

    @Test func diffPrintsEachChangedOutputWithTheMatrixReason() throws {
        let complete = try String(contentsOf: Self.repository.appendingPathComponent("examples/complete.yaml"), encoding: .utf8)
        let scratch = try ScratchDirectory([
            "lighter.yaml": complete.replacingOccurrences(of: "weight_kg: 84.5", with: "weight_kg: 80"),
            "waist.yaml": complete.replacingOccurrences(of: "waist_cm: 86", with: "waist_cm: 95"),
        ])
        defer { scratch.cleanUp() }
        let lighter = run(["diff", "examples/complete.yaml", scratch.url.appendingPathComponent("lighter.yaml").path])
        #expect(lighter.status == 0, "\(lighter.standardError)")
        #expect(lighter.standardOutput.contains("  weight_kg: 84.5 → 80"))
        #expect(lighter.standardOutput.contains("  idx.BMR: 1867 → 1787   (Size drives energy needs)"))
        #expect(!lighter.standardOutput.contains("weekly_sets."))
        let waist = run(["diff", "examples/complete.yaml", scratch.url.appendingPathComponent("waist.yaml").path, "--format", "json"])
        #expect(waist.status == 0)
        let value = try #require(YAMLReader.read(waist.standardOutput, file: "out.json").document?.value())
        let keys = (value["changes"]?.listValue ?? []).compactMap { $0["key"]?.stringValue }
        #expect(keys == ["idx.WHtR", "idx.context"])  // 0.52: the risk screen changes band
        #expect(value["recomputed"] == .list([.string("body_indexes"), .string("accuracy")]))
    }
}
