import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// The Epley estimate of rules/indexes.yaml is reachable: `regimen one-rep-max`, and beside every
/// load `regimen adapt` changes.
@Suite struct OneRepMaxCommandTests {
    private func run(_ arguments: [String]) -> CommandRun { runRegimen(arguments, in: AdaptationCommandTests.repository) }

    @Test func oneRepMaxPrintsTheEpleyEstimate() {
        let result = run(["one-rep-max", "--load", "100", "--reps", "5"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "Estimated 1RM 116.7 kg from 100 kg × 5 (rules/indexes.yaml one_rep_max)\n")
    }

    /// For loads and reps over a grid: the JSON estimate is load × (1 + reps/30), one rep the load.
    @Test func theEstimateFollowsTheFormulaOverAGrid() throws {
        for load in [20.0, 62.5, 100, 142.5] {
            for reps in [1, 3, 5, 8, 12] {
                let result = run(["one-rep-max", "--load", String(load), "--reps", String(reps), "--format", "json"])
                let value = try #require(YAMLReader.read(result.standardOutput, file: "out.json").document?.value())
                let expected = reps == 1 ? load : load * (1 + Double(reps) / 30)
                #expect(abs((value["one_rep_max_kg"]?.numberValue ?? 0) - (expected * 10).rounded() / 10) < 1e-9, "\(load) × \(reps)")
            }
        }
    }

    @Test func outOfRangeOptionsAreUsageErrors() {
        #expect(run(["one-rep-max", "--load", "100", "--reps", "0"]).status == 2)
        #expect(run(["one-rep-max", "--load", "-5", "--reps", "5"]).status == 2)
    }

    @Test func adaptNamesTheEstimateBesideALoadChange() throws {
        let scratch = try ScratchDirectory([:])
        defer { scratch.cleanUp() }
        let planPath = scratch.url.appendingPathComponent("plan.json").path
        let plan = run(["plan", "examples/complete.yaml", "--format", "json"])
        try plan.standardOutput.write(toFile: planPath, atomically: true, encoding: .utf8)
        let result = run(["adapt", planPath, "examples/checkins/progression.yaml"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Barbell back squat +2.5 kg to 102.5 kg (4x10 reached at RIR 1; est. 1RM 133.3 kg)"))
    }
}
