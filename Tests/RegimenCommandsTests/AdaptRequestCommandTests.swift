import Foundation
import RegimenLanguage
import RegimenRules
import Testing
@testable import RegimenCommands

/// `regimen adapt REQUEST`: the seed's adaptPlan request (§8.3) as one file, with the plan under
/// `current_plan`, gives what the two-file form gives.
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

    @Test func theTwoFileFormStillRejectsAPlanInsideTheCheckIns() throws {
        let scratch = try ScratchDirectory(["request.json": Self.request, "plan.json": AdaptationCommandTests.plan])
        defer { scratch.cleanUp() }
        let result = run(["adapt", scratch.url.appendingPathComponent("plan.json").path, scratch.url.appendingPathComponent("request.json").path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("unknown key 'current_plan'"))
    }
}
