import Foundation
@testable import RegimenAnalysis
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

    /// Before: a solver that outlived its limit was sent SIGTERM and then waited for, however
    /// long it ran; z3 deep in nonlinear arithmetic ignored both its own `-t` and SIGTERM, and a
    /// mutant run stood for minutes on one query. Now it is killed a second after SIGTERM.
    /// The stand-in solver ignores SIGTERM and, if it is still alive three seconds later, leaves
    /// a marker file.
    @Test func aSolverThatIgnoresTerminationIsKilled() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-stuck-solver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("still-running").path
        let script = folder.appendingPathComponent("stuck-solver").path
        try "#!/bin/sh\ntrap '' TERM\nsleep 3\ntouch '\(marker)'\necho sat\n".write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let solver = SMTSolver(executable: script, timeoutSeconds: 0.1)
        #expect(solver.run("(check-sat)\n") == .unknown(reason: "timeout"))
        Thread.sleep(forTimeInterval: 4)
        #expect(!FileManager.default.fileExists(atPath: marker), "the solver ran on after SIGTERM until it finished")
    }
}
