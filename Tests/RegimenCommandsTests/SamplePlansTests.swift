import Foundation
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// The plans the docs show are the command's real output (`scripts/sample-plans.sh` writes them):
/// README's example for `examples/minimal.yaml` and the ten sample plans the coach's checklist
/// (docs/coach-checklist.md) walks through. A change to the rules that alters a plan fails here
/// until the script is rerun, so the docs never show a plan the rules no longer make.
@Suite struct SamplePlansTests {
    static let root = RepositoryRoot.url
    private func plan(_ profile: String) -> CommandRun { runRegimen(["plan", profile], in: Self.root) }

    @Test func readmeShowsTheCurrentPlanForTheMinimalProfile() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = "<!-- plan-example:start -->\n```text\n$ swift run regimen plan examples/minimal.yaml\n"
        let end = "\n```\n<!-- plan-example:end -->"
        let shown = try #require(readme.components(separatedBy: start).dropFirst().first?.components(separatedBy: end).first,
                                 "README.md has no plan example between its markers")
        let run = plan("examples/minimal.yaml")
        #expect(run.status == 0, "\(run.standardError)")
        // The script stores the output without its trailing newlines (the shell's `$(...)` drops them).
        var output = Substring(run.standardOutput)
        while output.last == "\n" { output = output.dropLast() }
        #expect(shown == String(output), "README's plan example is stale: run scripts/sample-plans.sh")
    }

    @Test func everySamplePlanIsTheCommandsOutputForItsProfile() throws {
        let folder = Self.root.appendingPathComponent("docs/sample-plans")
        let profiles = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("profiles").path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(profiles.count == 10)
        for profile in profiles {
            let name = String(profile.dropLast(".yaml".count))
            let stored = try String(contentsOf: folder.appendingPathComponent("\(name).txt"), encoding: .utf8)
            let run = plan("docs/sample-plans/profiles/\(profile)")
            #expect(run.status == 0, "\(profile): \(run.standardError)")
            #expect(stored == run.standardOutput, "docs/sample-plans/\(name).txt is stale: run scripts/sample-plans.sh")
        }
    }
}
