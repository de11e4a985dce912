import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// `regimen adapt REQUEST`: the adaptPlan request (docs/requirements.md#adaptplan) as one file,
/// with the plan under `current_plan`, gives what the two-file form gives.
@Suite struct AdaptRequestCommandTests {
    private func run(_ arguments: [String]) -> CommandRun { runRegimen(arguments, in: AdaptationCommandTests.repository) }

    static let request = """
    { "current_plan": \(AdaptationCommandTests.plan),
      "readiness": { "sleep_h": 7, "soreness": { "chest": 5 }, "stress": 3, "motivation": 3 },
      "last_week_adherence_pct": 80, "weight_trend_2w": "above" }
    """

    static let checkins = """
    { "readiness": { "sleep_h": 7, "soreness": { "chest": 5 }, "stress": 3, "motivation": 3 },
      "last_week_adherence_pct": 80, "weight_trend_2w": "above" }
    """

    @Test func theSeedsSingleRequestIsAcceptedAndMatchesTheTwoFileForm() throws {
        let scratch = try ScratchDirectory(["request.json": Self.request, "plan.json": AdaptationCommandTests.plan, "checkins.json": Self.checkins])
        defer { scratch.cleanUp() }
        let one = run(["adapt", scratch.url.appendingPathComponent("request.json").path, "--format", "json"])
        let two = run(["adapt", scratch.url.appendingPathComponent("plan.json").path, scratch.url.appendingPathComponent("checkins.json").path, "--format", "json"])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardOutput == two.standardOutput)
        let value = try #require(YAMLReader.read(one.standardOutput, file: "out.json").document?.value())
        #expect(value["change_log"]?.listValue?.first == .string("Chest -2 sets (soreness 5)"))
        #expect(value["change_log"]?.listValue?.contains(.string("Calories -5% (weight above target)")) == true)
    }

    @Test func theRequestMayComeOnStandardInput() throws {
        let scratch = try ScratchDirectory(["request.json": Self.request])
        defer { scratch.cleanUp() }
        let fromFile = run(["adapt", scratch.url.appendingPathComponent("request.json").path, "--format", "json"])
        let fromStdin = runRegimen(["adapt", "-", "--format", "json"], in: AdaptationCommandTests.repository, input: Self.request)
        #expect(fromStdin.status == 0, "\(fromStdin.standardError)")
        #expect(fromStdin.standardOutput == fromFile.standardOutput)
        let broken = runRegimen(["adapt", "-"], in: AdaptationCommandTests.repository, input: "{ \"readiness\": ")
        #expect(broken.status == 2)
        #expect(broken.standardError.hasPrefix("<stdin>:"))
    }

    @Test func aRequestWithoutThePlanSaysWhatIsMissing() throws {
        let scratch = try ScratchDirectory(["request.json": Self.checkins])
        defer { scratch.cleanUp() }
        let result = run(["adapt", scratch.url.appendingPathComponent("request.json").path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("request.json:1:1: error: 'current_plan' is missing"))
    }

    /// The two-file form places a refused plan's problem in the plan's file, at the field's
    /// value, with the field after the place (issue 33; before: `plan.yaml: error: plan.…`).
    @Test func aRefusedPlanFileIsPlacedAtTheField() throws {
        let plan = "kcal: 2400\nworkouts:\n  - day: 1\n    blocks:\n      - {muscle: chest, exerciseId: bench_press, sets: 101}\n"
        let scratch = try ScratchDirectory(["plan.yaml": plan, "checkins.json": Self.checkins])
        defer { scratch.cleanUp() }
        let result = run(["adapt", scratch.url.appendingPathComponent("plan.yaml").path, scratch.url.appendingPathComponent("checkins.json").path])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("plan.yaml:5:56: error: plan.workouts[0].blocks[0].sets: must be a whole number"), "\(result.standardError)")
    }

    /// The help promises "Running it again on its own output changes nothing": adapt's response
    /// (`patched_plan`, `change_log`, …) in JSON or YAML is accepted as the plan.
    @Test(arguments: ["json", "yaml"])
    func adaptsItsOwnOutputAgainWithoutChanges(format: String) throws {
        let scratch = try ScratchDirectory(["plan.json": AdaptationCommandTests.plan, "checkins.json": Self.checkins])
        defer { scratch.cleanUp() }
        let checkins = scratch.url.appendingPathComponent("checkins.json").path
        let first = run(["adapt", scratch.url.appendingPathComponent("plan.json").path, checkins, "--format", format])
        #expect(first.status == 0, "\(first.standardError)")
        let output = scratch.url.appendingPathComponent("adapted.\(format)")
        try first.standardOutput.write(to: output, atomically: true, encoding: .utf8)
        let second = run(["adapt", output.path, checkins])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput.hasPrefix("No changes."), "\(second.standardOutput)")
        #expect(second.standardOutput.contains("was already applied"), "\(second.standardOutput)")
    }

    @Test func theTwoFileFormStillRejectsAPlanInsideTheCheckIns() throws {
        let scratch = try ScratchDirectory(["request.json": Self.request, "plan.json": AdaptationCommandTests.plan])
        defer { scratch.cleanUp() }
        let result = run(["adapt", scratch.url.appendingPathComponent("plan.json").path, scratch.url.appendingPathComponent("request.json").path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("unknown key 'current_plan'"))
    }
}
