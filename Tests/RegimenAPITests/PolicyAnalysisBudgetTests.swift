import Foundation
@testable import RegimenKit
import RegimenTestSupport
import Testing
@testable import RegimenAnalysis

/// A caller that stops the analysis (the service's time budget) gets an honest partial answer:
/// every shape it did not reach is "unknown (not asked …)", never a proof.
@Suite struct PolicyAnalysisBudgetTests {
    static func analysis() -> PolicyAnalysis? {
        if let analysis = PolicyAnalysis(solver: "z3", timeoutSeconds: 10) { return analysis }
        if ProcessInfo.processInfo.environment["REGIMEN_REQUIRE_SOLVER"] == "1" {
            Issue.record("REGIMEN_REQUIRE_SOLVER=1 but no z3 on PATH (apt-get install -y z3)")
        } else {
            print("note: z3 is not on PATH; the analysis budget test is skipped (set REGIMEN_REQUIRE_SOLVER=1 to fail instead)")
        }
        return nil
    }

    static let policy = """
    rules_version = '2';
    service cloud.firestore {
      match /databases/{database}/documents {
        match /users/{uid} { allow write: if false; }
      }
    }

    """

    @Test func shapesPastTheStopAreUnknownNotProved() throws {
        guard let analysis = Self.analysis() else { return }
        let policy = try Policy.pasted(Self.policy, syntax: "rules")
        let shapes = try #require(PolicyAnalysis.shapes(inScope: "write /users/{uid}"))
        #expect(shapes.count == 3)
        // Unstopped, every write is denied: proved for each of create, update, delete.
        let unstopped = analysis.ask(.alwaysDenies, of: policy, for: shapes).map(\.first.isProved)
        #expect(unstopped == [true, true, true])
        // Stopped after the first shape: the other two are not asked, and say so.
        var allowed = 1
        let partial = analysis.ask(.alwaysDenies, of: policy, for: shapes) {
            allowed -= 1
            return allowed >= 0
        }
        #expect(partial.map(\.first.isProved) == [true, false, false])
        for entry in partial.dropFirst() {
            guard case .unknown(let reason) = entry.first else {
                Issue.record("\(entry.shape): expected unknown, got \(entry.first)")
                continue
            }
            #expect(reason == PolicyAnalysis.notAsked)
            #expect(entry.second == nil)
        }
        // A comparison stopped at once asks nothing: both directions of each pair are unknown.
        let stopped = analysis.diff(policy, policy) { false }
        #expect(!stopped.isEmpty)
        let askedAny = stopped.contains { $0.first.isProved || $0.second?.isProved != false }
        #expect(!askedAny)
        // The same comparison unstopped proves the policy equivalent to itself.
        let unproved = analysis.diff(policy, policy).filter { !$0.first.isProved || $0.second?.isProved != true }
        #expect(unproved.isEmpty)
    }

    @Test func anAssertionMustBeOneCondition() throws {
        guard let analysis = Self.analysis() else { return }
        let policy = try Policy.pasted(Self.policy, syntax: "rules")
        #expect(throws: (any Error).self) {
            try analysis.prove(policy, scope: "write /users/{uid}", assertion: "true; } match /{rest=**} { allow read: if true")
        }
        let proved = try analysis.prove(policy, scope: "write /users/{uid}", assertion: "request.auth.uid == uid").map(\.first.isProved)
        #expect(proved == [true, true, true])
    }
}
