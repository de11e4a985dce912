import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// `regimen plan` in-process, over a scratch copy of the repository's planner rules and catalogs.
@Suite struct PlanCommandTests {
    static let root = RepositoryRoot.url

    /// The planner's rule and catalog files (top-level YAML of rules/ and catalogs/) plus a profile.
    static func scratch(profile: String) throws -> ScratchDirectory {
        var files: [String: String] = ["profile.yaml": profile]
        for directory in ["rules", "catalogs"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(directory).path)
            for name in names where name.hasSuffix(".yaml") {
                files["planner/\(directory)/\(name)"] = try String(contentsOf: root.appendingPathComponent("\(directory)/\(name)"), encoding: .utf8)
            }
        }
        return try ScratchDirectory(files)
    }

    @Test func jsonIsTheSeedResponse() throws {
        let scratch = try Self.scratch(profile: "sex: male\nschedule_days: 7\nexperience: advanced\nequipment: full_gym\ninjuries: [knee]\n")
        defer { scratch.cleanUp() }
        let run = runRegimen(["plan", "profile.yaml", "--rules", "planner", "--format", "json"], in: scratch.url)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("{"))
        for key in ["\"idx\"", "\"kcal\"", "\"macros\"", "\"workouts\"", "\"ingredients\"", "\"confidence\"", "\"tips\"", "\"alt_compact\"", "\"exerciseId\""] {
            #expect(run.standardOutput.contains(key), "\(key)")
        }
        #expect(!run.standardOutput.contains("back_squat"))
    }

    @Test func textIsAWeekAPersonCanFollow() throws {
        let scratch = try Self.scratch(profile: "sex: female\nschedule_days: 3\nequipment: bodyweight_only\n")
        defer { scratch.cleanUp() }
        let run = runRegimen(["plan", "profile.yaml", "--rules", "planner", "--format", "text"], in: scratch.url)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("Full body ×3 — 3 training day(s)"))
        #expect(run.standardOutput.contains("Day 1 · Full body"))
        #expect(run.standardOutput.contains("Push-up — 2 × 8–15 @ RIR 1–3  [chest]"))
        #expect(run.standardOutput.contains("Busy day (about"))
    }

    @Test func textShowsEveryMealsOptionsWithGrams() throws {
        let scratch = try Self.scratch(profile: "sex: male\nschedule_days: 4\nweight_kg: 80\nexclusions: [vegan]\n")
        defer { scratch.cleanUp() }
        let run = runRegimen(["plan", "profile.yaml", "--rules", "planner", "--format", "text"], in: scratch.url)
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.components(separatedBy: "\n")
        let meals = lines.filter { $0.contains(" — target P ") }
        #expect(meals.count >= 3)
        #expect(lines.filter { $0 == "  pick one from each of protein, carb, veg and fat:" }.count == meals.count)
        #expect(lines.contains { $0.hasPrefix("  protein ") && $0.contains(" g  P ") })
        #expect(!run.standardOutput.contains("ingredient options in --format json"))
    }

    @Test func explainNamesRuleFileLines() throws {
        let scratch = try Self.scratch(profile: "sex: female\nschedule_days: 2\n")
        defer { scratch.cleanUp() }
        let run = runRegimen(["plan", "profile.yaml", "--rules", "planner", "--format", "text", "--explain"], in: scratch.url)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("rule: planner/rules/training-splits.yaml:"))
        #expect(run.standardOutput.contains("rule: planner/rules/training-volume.yaml:"))
    }

    @Test func yamlHasTheSameFields() throws {
        let scratch = try Self.scratch(profile: "sex: female\nschedule_days: 1\n")
        defer { scratch.cleanUp() }
        let yaml = runRegimen(["plan", "profile.yaml", "--rules", "planner", "--format", "yaml"], in: scratch.url)
        let json = runRegimen(["plan", "profile.yaml", "--rules", "planner", "--format", "json"], in: scratch.url)
        #expect(yaml.status == 0, "\(yaml.standardError)")
        #expect(yaml.standardOutput.contains("\nworkouts:\n"))
        // The YAML document reads back to exactly the JSON document (JSON is YAML's flow syntax).
        let fromYAML = YAMLReader.read(yaml.standardOutput, file: "plan.yaml").document?.value()
        let fromJSON = YAMLReader.read(json.standardOutput, file: "plan.json").document?.value()
        #expect(fromYAML != nil)
        #expect(fromYAML == fromJSON)
    }

    @Test func aSplitNotOfferedExitsTwo() throws {
        let scratch = try Self.scratch(profile: "sex: female\nschedule_days: 3\n")
        defer { scratch.cleanUp() }
        let run = runRegimen(["plan", "profile.yaml", "--rules", "planner", "--split", "upper_lower_4"], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.standardError.contains("split: not offered for 3 training days; choose one of push_pull_legs_3, full_body_3"))
    }

    @Test func aBadProfileExitsTwoWithEveryProblem() throws {
        let scratch = try Self.scratch(profile: "sex: robot\nschedule_days: 9\n")
        defer { scratch.cleanUp() }
        let run = runRegimen(["plan", "profile.yaml", "--rules", "planner"], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.standardError.contains("sex"))
        #expect(run.standardError.contains("schedule_days"))
    }
}
