import Foundation
import RegimenAnalysis
import Testing

/// The solver runs as a child process per query: a long run of queries (the mutant script asks
/// thousands) must not accumulate open descriptors.
@Suite struct SolverProcessTests {
    @Test func repeatedQueriesLeaveNoDescriptorsOpen() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        // Linux lists a process's open descriptors in /proc/self/fd; elsewhere there is nothing to count.
        guard let before = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count else { return }
        for _ in 0..<150 {
            #expect(analyzer.solver.run("(declare-const x Int)\n(assert (> x 1))\n(check-sat)\n(get-value (x))\n") != .unsat)
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        // Other tests run in parallel and hold a few descriptors for a moment; two leaked per
        // query would be 300.
        #expect(after - before < 60, "\(before) open descriptors before 150 queries, \(after) after")
    }
}
