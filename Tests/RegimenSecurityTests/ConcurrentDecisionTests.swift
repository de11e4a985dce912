import Foundation
import Testing
@testable import RegimenSecurity

/// A compiled policy is built once and shared by every request a service handles, on whatever
/// threads they arrive: deciding from many tasks at once gives exactly the decisions made one
/// after another. (scripts/sanitize.sh thread runs this suite under ThreadSanitizer.)
@Suite struct ConcurrentDecisionTests {
    @Test("every shipped policy decides its test cases alike from 8 concurrent tasks", arguments: shippedTestFiles)
    func sharedPolicy(file: String) async throws {
        let suite = try SecurityTestSuite.load(file: file)
        let policy = try CompiledPolicy(suite.policy)
        let store = suite.documents
        let requests = suite.cases.map(\.request)
        let serial = requests.map { policy.decide($0, store: store).allowed }
        let concurrent = await withTaskGroup(of: (task: Int, decisions: [Int: Bool]).self) { group in
            for task in 0..<8 {
                group.addTask {
                    // Each task walks the requests from a different start, so the tasks are on
                    // different statements at any moment; half of them explain as well.
                    var decisions: [Int: Bool] = [:]
                    for offset in 0..<requests.count {
                        let index = (offset + task * 7) % requests.count
                        let options = DecisionOptions(explain: task.isMultiple(of: 2), evaluateAll: task.isMultiple(of: 2))
                        decisions[index] = policy.decide(requests[index], store: store, options: options).allowed
                    }
                    return (task, decisions)
                }
            }
            var runs: [(task: Int, decisions: [Int: Bool])] = []
            for await run in group { runs.append(run) }
            return runs
        }
        #expect(concurrent.count == 8)
        for run in concurrent {
            let decisions = requests.indices.map { run.decisions[$0] }
            #expect(decisions == serial.map(Optional.some), "task \(run.task)")
        }
    }
}
