import Foundation
@testable import RegimenCommands
@testable import RegimenKit
import Testing

/// The commands are clients of the engine: each asks ``RegimenEngine`` and only formats the
/// answer. This suite checks that formatting on every example in examples/ and every policy
/// under rules/security/: what `regimen … --format json` prints is byte for byte the engine's
/// result encoded by its own `json()` (no field added, dropped, reordered or re-rounded on the
/// way out), and a request the engine refuses fails the command with the engine's own words.
/// A service that encodes the same results therefore answers exactly as the command line does.
@Suite struct EngineMatchesCommandTests {
    static let root = ReadmeExamplesTests.root

    /// The profiles of examples/ (paths relative to the repository root), sorted.
    static let profiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("examples").path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map { "examples/\($0)" }
    }()

    static let checkIns: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("examples/checkins").path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "examples/checkins/\($0)" }
    }()

    /// Every auditor test file under rules/security/, as a policy name (`workout-tracker/corrected`).
    static let testedPolicies: [String] = {
        let directory = root.appendingPathComponent("rules/security")
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".tests.yaml") }.map { String($0.dropLast(".tests.yaml".count)) }.sorted()
    }()

    /// `regimen ARGUMENTS` in-process from the repository root.
    static func regimen(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let output = TextOutput.buffer()
        let error = TextOutput.buffer()
        let context = CommandContext(standardOutput: output, standardError: error, currentDirectory: root, executable: nil)
        let status = CommandContext.$current.withValue(context) { RegimenCommand.run(arguments: arguments) }
        return (status, output.text, error.text)
    }

    static func profile(_ path: String) throws -> Profile {
        try ReadmeExamplesTests.loaded().profile(from: Data(contentsOf: root.appendingPathComponent(path)), name: path)
    }

    @Test func theExamplesAreAllThere() {
        #expect(Self.profiles.count >= 10)
        #expect(Self.checkIns.count >= 3)
        #expect(Self.testedPolicies.contains("workout-tracker/corrected"))
    }

    @Test(arguments: profiles) func planIndexesNutritionAndSupplements(_ path: String) throws {
        let engine = try ReadmeExamplesTests.loaded()
        let profile = try Self.profile(path)
        let results: [(command: String, json: String)] = [
            ("plan", try engine.generatePlan(profile).json()),
            ("indexes", try engine.indexes(profile).json()),
            ("nutrition", try engine.nutrition(profile).json()),
            ("supplements", try engine.supplements(for: profile).json()),
        ]
        for (command, json) in results {
            let run = Self.regimen([command, path, "--format", "json"])
            #expect(run.status == 0, "\(command) \(path): \(run.error)")
            #expect(run.output == json, "regimen \(command) \(path) --format json differs from the engine")
        }
        // The profile given as JSON data reads the same as the file.
        #expect(try engine.generatePlan(Data(contentsOf: Self.root.appendingPathComponent(path))).json() == results[0].json)
    }

    /// Each example profile against the next (and the last against the first).
    @Test(arguments: profiles.indices) func diff(_ index: Int) throws {
        let old = Self.profiles[index]
        let new = Self.profiles[(index + 1) % Self.profiles.count]
        let json = try ReadmeExamplesTests.loaded().diff(old: Self.profile(old), new: Self.profile(new)).json()
        let run = Self.regimen(["diff", old, new, "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == json, "regimen diff \(old) \(new) differs from the engine")
    }

    /// Each check-ins example on the plan of examples/complete.yaml and of one other example
    /// profile, in the seed's single-request form (the check-ins beside `current_plan`) and in
    /// the two-file form. A request the plan does not fit fails with the same problems.
    @Test(arguments: checkIns.indices) func adapt(_ index: Int) throws {
        let engine = try ReadmeExamplesTests.loaded()
        for profile in ["examples/complete.yaml", Self.profiles[index * 3 % Self.profiles.count]] {
            let planJSON = try engine.generatePlan(Self.profile(profile)).json()
            let checkIns = try String(contentsOf: Self.root.appendingPathComponent(Self.checkIns[index]), encoding: .utf8)
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-api-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let request = checkIns + "\ncurrent_plan: " + planJSON.replacingOccurrences(of: "\n", with: " ") + "\n"
            let requestFile = scratch.appendingPathComponent("request.yaml")
            let planFile = scratch.appendingPathComponent("plan.json")
            try request.write(to: requestFile, atomically: true, encoding: .utf8)
            try planJSON.write(to: planFile, atomically: true, encoding: .utf8)

            let single = Self.regimen(["adapt", requestFile.path, "--format", "json"])
            let twoFiles = Self.regimen(["adapt", planFile.path, Self.checkIns[index], "--format", "json"])
            let what = "\(Self.checkIns[index]) on the plan of \(profile)"
            do {
                let json = try engine.adaptPlan(AdaptPlanRequest(json: Data(request.utf8), name: requestFile.path)).json()
                #expect(single.status == 0, "\(single.error)")
                #expect(single.output == json, "regimen adapt REQUEST (\(what)) differs from the engine")
                #expect(twoFiles.output == json, "regimen adapt PLAN CHECKINS (\(what)) differs from the engine")
            } catch {
                #expect(error.isInputError)
                #expect(single.status == 2)
                #expect(single.error == error.description + "\n", "regimen adapt REQUEST (\(what)) fails otherwise than the engine")
            }
        }
    }

    /// `regimen test FILE --format json` and `regimen audit FILE` against the engine's policy.
    @Test(arguments: testedPolicies) func policyTestsAndAudit(_ name: String) throws {
        let policy = try ReadmeExamplesTests.loaded().policy(named: name)
        let testsFile = try #require(policy.testsFile)
        let result = try policy.test()
        let run = Self.regimen(["test", testsFile.path, "--format", "json"])
        #expect(run.output == SecurityTestReport.json([result]), "regimen test \(name).tests.yaml differs from the engine")
        #expect(run.status == (result.failed == 0 ? 0 : 1))

        let audit = Self.regimen(["audit", policy.file.path])
        let findings = policy.audit().map { $0.rendered + "\n" }.joined()
        #expect(audit.output.hasPrefix(findings), "regimen audit \(name) differs from the engine")
        // What follows the findings is the one summary line.
        #expect(audit.output.dropFirst(findings.count).filter { $0 == "\n" }.count == 1)
    }
}
