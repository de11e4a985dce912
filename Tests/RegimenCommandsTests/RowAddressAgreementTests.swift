import Foundation
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// One decision-table row has one address everywhere a coach reads it: `check`'s messages,
/// `test`'s failures and coverage all say `training_volume.bands.rows[1]` (zero-based, the
/// row's index under `rows:`) for the intermediate band, with the row's file:line.
@Suite(.serialized) struct RowAddressAgreementTests {
    /// For every row of the band table, check (a broken `sets:` in that row), test (a failing
    /// expectation the row produces) and coverage name the row by the same address.
    @Test func checkTestAndCoverageNameEveryBandRowAlike() throws {
        let experiences = ["novice", "intermediate", "advanced"]
        let bands = ["8-12", "12-16", "14-20"]
        for (index, experience) in experiences.enumerated() {
            let address = "training_volume.bands.rows[\(index)]"
            let copy = try ExpressionTypeCheckTests.rulesCopy(editing: "training_volume") { text in
                text.replacingOccurrences(of: "      sets: \(bands[index])", with: "      sets: 30-1")
            }
            defer { copy.scratch.cleanUp() }
            let check = runRegimen(["check", "--rules", "rules", "--catalogs", "catalogs"], in: copy.scratch.url)
            #expect(check.status == 1)
            #expect(check.standardError.contains("'bands.rows[\(index)].sets' must be a range"), "\(check.standardError)")

            let tests = """
                kind: plan_tests
                version: 1
                cases:
                  - name: band of \(experience)
                    profile: {sex: female, schedule_days: 3, experience: \(experience)}
                    expect: {weekly_band: {chest: 1-2}}
                """
            let scratch = try ScratchFolder(["plan-tests-band.yaml": tests])
            defer { scratch.cleanUp() }
            let run = runRegimen(["test", scratch.path("plan-tests-band.yaml"), "--rules", RepositoryRoot.url.path, "--coverage", "--coverage-output", scratch.path("coverage")], in: scratch.url)
            #expect(run.status == 1)
            #expect(run.standardOutput.contains("(rule: \(address) at \(RepositoryRoot.url.path)/rules/training-volume.yaml:"), "\(run.standardOutput)")
            let lcov = try String(contentsOf: scratch.url.appendingPathComponent("coverage/lcov.info"), encoding: .utf8)
            #expect(!lcov.contains("training_volume.bands["), "\(lcov)")
            let html = try FileManager.default.contentsOfDirectory(atPath: scratch.path("coverage"))
                .filter { $0.hasSuffix(".html") }
                .map { try String(contentsOf: scratch.url.appendingPathComponent("coverage/\($0)"), encoding: .utf8) }
                .joined()
            #expect(html.contains(address), "coverage pages do not name \(address)")
        }
    }
}
