import Foundation
@testable import RegimenKit
import Testing

/// One engine, loaded once, shared by concurrent tasks: every task gets what a serial call gets.
@Suite struct EngineSharingTests {
    /// `bundled` loads the rules once: every access is the same engine, not a fresh load.
    @Test func bundledIsLoadedOnceAndShared() throws {
        let first = try RegimenEngine.bundled
        let second = try RegimenEngine.bundled
        #expect(first === second, "RegimenEngine.bundled read the rules from disk again")
    }

    @Test func concurrentCallsAnswerAsSerialOnes() async throws {
        let engine = try ReadmeExamplesTests.loaded()
        let profiles = (2...7).map { #"{"sex": "\#($0 % 2 == 0 ? "female" : "male")", "schedule_days": \#($0)}"# }
        let serial = try profiles.map { try engine.generatePlan(Data($0.utf8)).json() }
        let policy = try engine.policy(named: "workout-tracker/corrected")
        let concurrent = try await withThrowingTaskGroup(of: (Int, String, Bool).self) { group in
            for round in 0..<8 {
                let index = round % profiles.count
                group.addTask {
                    let plan = try engine.generatePlan(Data(profiles[index].utf8)).json()
                    let owner = round % 2 == 0 ? "alice" : "bob"
                    let decision = try policy.decide(.get("users/alice", auth: .uid(owner)))
                    return (index, plan, decision.allowed == (owner == "alice"))
                }
            }
            var results: [(Int, String, Bool)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(concurrent.count == 8)
        for (index, plan, decided) in concurrent {
            #expect(plan == serial[index])
            #expect(decided)
        }
    }
}
