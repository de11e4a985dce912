import Foundation
@testable import RegimenKit
import RegimenTestSupport
import Testing

/// `regimen rules prove` and `rules diff` through RegimenKit's PolicyAnalysis: exit statuses,
/// what they print, and their usage errors. With no z3 on PATH only the usage errors run (CI
/// installs z3 and runs the rest).
@Suite struct RulesAnalysisCommandTests {
    static let repository = RepositoryRoot.url
    static let solverFound = PolicyAnalysis(solver: "z3", timeoutSeconds: 10) != nil

    @Test func diffOfTheWorkoutTrackersTwoVersionsReportsConfirmedDifferences() throws {
        guard Self.solverFound else { return }
        let run = runRegimen(["rules", "diff", "rules/security/workout-tracker/appendix-a.rules", "rules/security/workout-tracker/corrected.rules"], in: Self.repository)
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardOutput.contains("confirmed by replay"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("expect: "), "a counterexample is a test case")
        let same = runRegimen(["rules", "diff", "rules/security/workout-tracker/corrected.rules", "rules/security/workout-tracker/corrected.rules"], in: Self.repository)
        #expect(same.status == 0, "\(same.standardOutput)")
        #expect(!same.standardOutput.contains("newly"), "\(same.standardOutput)")
    }

    @Test func proveAnswersAQueryAndAnAssertion() throws {
        guard Self.solverFound else { return }
        let proved = runRegimen(["rules", "prove", "rules/security/workout-tracker/corrected.rules", "--for", "get /users/{uid}", "--query", "never-errors"], in: Self.repository)
        #expect(proved.status == 0, "\(proved.standardOutput)\(proved.standardError)")
        #expect(proved.standardOutput.hasSuffix("proved for every request above\n"), "\(proved.standardOutput)")
        let broken = runRegimen(["rules", "prove", "rules/security/workout-tracker/corrected.rules", "--for", "get /users/{uid}", "--assert", "false"], in: Self.repository)
        #expect(broken.status == 1, "\(broken.standardOutput)")
        #expect(broken.standardOutput.contains("does not hold"), "\(broken.standardOutput)")
    }

    @Test(arguments: [
        (["--for", "get /users/{uid}", "--query", "sometimes"], "--query must be"),
        (["--for", "get", "--query", "never-errors"], "--for needs"),
        (["--for", "get /users/{uid}"], "exactly one of --assert and --query"),
        (["--for", "get /users/{uid}", "--query", "never-errors", "--solver", "no-such-solver-here"], "no SMT solver"),
    ])
    func usageErrorsExitTwo(_ arguments: [String], _ message: String) {
        let run = runRegimen(["rules", "prove", "rules/security/workout-tracker/corrected.rules"] + arguments, in: Self.repository)
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }
}
