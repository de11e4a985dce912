import Foundation

/// An external SMT-LIB 2 solver (z3 by default, cvc5 works too) run as a separate process that
/// reads one script on standard input. The package never links a solver: without one on `PATH`
/// the analysis reports that it cannot run, and builds and tests still pass.
package struct SMTSolver: Sendable {
    /// The executable's full path.
    var executable: String
    /// The wall-clock limit of one query; past it the process is ended and the answer is unknown.
    var timeoutSeconds: Double

    init(executable: String, timeoutSeconds: Double = 10) {
        self.executable = executable
        self.timeoutSeconds = timeoutSeconds
    }

    /// The solver named `name` (a path, or a name looked up on `PATH`); `nil` when none is found.
    package static func find(_ name: String = "z3", timeoutSeconds: Double = 10) -> SMTSolver? {
        let manager = FileManager.default
        if name.contains("/") {
            return manager.isExecutableFile(atPath: name) ? SMTSolver(executable: name, timeoutSeconds: timeoutSeconds) : nil
        }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if manager.isExecutableFile(atPath: candidate) { return SMTSolver(executable: candidate, timeoutSeconds: timeoutSeconds) }
        }
        return nil
    }

    /// The solver's answer to `check-sat`, with the rest of its output (the model values).
    package enum Answer: Sendable, Equatable {
        case sat(String)
        case unsat
        /// The solver gave up, or ran out of time (`reason` says which).
        case unknown(reason: String)
    }

    /// Runs `script` (which ends in `(check-sat)` and, when a model is wanted, `(get-value …)`).
    ///
    /// The script and the answer go through temporary files, not pipes: every descriptor this
    /// opens is closed here (Foundation's `Pipe` ends leaked two descriptors per query, and a
    /// long run of queries crashed `Process.run()` past about 1,300 of them).
    ///
    /// `searchingStrings`: z3's other string solver (z3str3), which finds long texts the default
    /// one runs out of time on (a 501-character text against a `size() <= 500` bound: 0.06 s
    /// against more than 10 s). Callers use its answers only as candidate counterexamples,
    /// never its `unsat` as a proof. Other solvers run as they are.
    package func run(_ script: String, searchingStrings: Bool = false) -> Answer {
        let manager = FileManager.default
        let base = manager.temporaryDirectory.appendingPathComponent("regimen-smt-\(UUID().uuidString)")
        let scriptFile = base.appendingPathExtension("smt2")
        let answerFile = base.appendingPathExtension("out")
        defer {
            try? manager.removeItem(at: scriptFile)
            try? manager.removeItem(at: answerFile)
        }
        guard (try? Data(script.utf8).write(to: scriptFile)) != nil, manager.createFile(atPath: answerFile.path, contents: nil),
              let answer = FileHandle(forWritingAtPath: answerFile.path) else {
            return .unknown(reason: "cannot write the query to \(manager.temporaryDirectory.path)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let isZ3 = (executable as NSString).lastPathComponent.hasPrefix("z3")
        let milliseconds = max(1, Int(timeoutSeconds * 1000))
        process.arguments = isZ3
            ? ["-smt2", "-t:\(milliseconds)"] + (searchingStrings ? ["smt.string_solver=z3str3"] : []) + [scriptFile.path]
            : ["--lang=smt2", "--produce-models", "--tlimit=\(milliseconds)", scriptFile.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = answer
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            try? answer.close()
            return .unknown(reason: "cannot run \(executable)")
        }
        // The solver's own limit bounds the search; this bounds everything else (a stuck
        // process): past twice the limit it is asked to end (SIGTERM), and killed (SIGKILL) a
        // second later. z3's -t is not checked inside every nonlinear-arithmetic step: a query
        // with a quotient of two unknowns ran on for minutes past it, and past SIGTERM.
        let started = Date()
        let deadline = started.addingTimeInterval(timeoutSeconds * 2 + 1)
        var ended = false
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                ended = true
                break
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        if ended {
            let killAt = Date().addingTimeInterval(1)
            while process.isRunning, Date() < killAt { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? answer.close()
        if ended { return .unknown(reason: "timeout") }
        let text = (try? String(contentsOf: answerFile, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true)
        let first = lines.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        switch first {
        case "sat": return .sat(lines.count > 1 ? String(lines[1]) : "")
        case "unsat": return .unsat
        case "unknown", "timeout":
            // z3 answers a plain `unknown` when its -t limit ends the search.
            let timedOut = first == "timeout" || text.contains("timeout") || Date().timeIntervalSince(started) >= timeoutSeconds * 0.9
            return .unknown(reason: timedOut ? "timeout" : "the solver answered unknown")
        default: return .unknown(reason: first.isEmpty ? "timeout" : "solver error: \(first.prefix(200))")
        }
    }
}
