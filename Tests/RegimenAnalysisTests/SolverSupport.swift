import Foundation
@testable import RegimenAnalysis
@testable import RegimenLanguage
@testable import RegimenSecurity
import RegimenTestSupport
import Testing

/// The solver for the tests: z3 on PATH. Without it the solver-backed tests print a note and
/// pass, unless `REGIMEN_REQUIRE_SOLVER=1` (CI), where a missing solver fails them.
enum SolverSupport {
    static func analyzer(timeout: Double = 10) -> PolicyAnalyzer? {
        if let solver = SMTSolver.find("z3", timeoutSeconds: timeout) { return PolicyAnalyzer(solver: solver) }
        if ProcessInfo.processInfo.environment["REGIMEN_REQUIRE_SOLVER"] == "1" {
            Issue.record("REGIMEN_REQUIRE_SOLVER=1 but no z3 on PATH (apt-get install -y z3)")
        } else {
            print("note: z3 is not on PATH; the symbolic-analysis test is skipped (set REGIMEN_REQUIRE_SOLVER=1 to fail instead)")
        }
        return nil
    }

    /// A Firestore policy whose matches sit below `/databases/{database}/documents`.
    static func policy(_ body: String, file: String = "test.rules") throws -> SecurityPolicy {
        try PolicyLoader.parse("""
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
        \(body)
          }
        }

        """, file: file)
    }

    static func bundled(_ relative: String) throws -> SecurityPolicy {
        try PolicyLoader.load(file: RepositoryRoot.appending(relative).path)
    }

    static func shape(_ method: AnalysedMethod, _ pattern: String) -> RequestShape {
        RequestShape.shapes(method: method, pattern: pattern)?.first ?? RequestShape(method: method, segments: [])
    }

    /// Runs a counterexample case through the ordinary test runner, independently of the
    /// analysis's own replay: the case must pass against `policy` (its expectation is the
    /// policy's decision).
    static func passes(_ counterexample: Counterexample, against policy: SecurityPolicy) throws -> Bool {
        let text = "kind: security_tests\nversion: 1\nrules: x.rules\ncases:\n" + counterexample.testCase
        let suite = try SecurityTestSuite.parse(text, file: "counterexample.tests.yaml", policy: policy)
        let result = try SecurityTestRunner(suite: suite).run()
        return result.results.count == 1 && result.failed == 0
    }
}
