import ArgumentParser
import Foundation
import RegimenKit

/// `regimen bench-security`: decision speed on a fixed workload (not a unit test).
struct SecurityBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-security",
        abstract: "Measure security decisions per second and median latency on 1,000 fixed write requests against Appendix A's sets path."
    )

    @Option(help: "The policy to measure (default: the workout tracker's policy, Appendix A as shipped).")
    var rules = "rules/security/workout-tracker/appendix-a.rules"

    @Option(parsing: .unconditional, help: "Passes over the 1,000 requests.")
    var iterations = 200

    @Option(help: "Also write the workload as a security test file (for timing `regimen test` and replaying it on the emulator).")
    var writeTests: String?

    init() {}

    package func validate() throws {
        guard iterations > 0 else { throw ValidationError("--iterations: must be 1 or more, not \(iterations)") }
    }

    package func run() throws {
        let workload: PolicyBenchmark
        do { workload = PolicyBenchmark(policy: try Policy(file: rules)) } catch {
            CommandContext.current.standardError.write(DiagnosticPrinter.lines(error.diagnostics) + "\n")
            throw CommandFailure.usage
        }
        // Warm-up pass; also the decisions the test file records.
        let decisions = workload.requests.map(workload.decidesAllowed)
        var out = "workload: \(workload.requests.count) write requests × \(iterations) passes against \(rules)\n"
        out += "allowed: \(decisions.filter { $0 }.count) of \(decisions.count) per pass\n"
        out += "allow/deny only (CompiledPolicy.isAllowed):\n"
        out += measure(workload, workload.isAllowed)
        out += "with the record of every evaluated statement (CompiledPolicy.decide):\n"
        out += measure(workload, workload.decidesAllowed)
        CommandContext.current.standardOutput.write(out)
        if let writeTests {
            let absolute = (rules as NSString).isAbsolutePath ? rules : FileManager.default.currentDirectoryPath + "/" + rules
            do { try workload.testFile(rules: absolute, decisions: decisions).write(toFile: writeTests, atomically: true, encoding: .utf8) } catch {
                CommandContext.current.standardError.write("error: cannot write \(writeTests)\n")
                throw CommandFailure.usage
            }
        }
    }

    /// Times each decision of `iterations` passes; the report's lines.
    private func measure(_ workload: PolicyBenchmark, _ decide: (SecurityRequest) -> Bool) -> String {
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(workload.requests.count * iterations)
        var allowed = 0
        let total = clock.measure {
            for _ in 0..<iterations {
                for request in workload.requests {
                    let start = clock.now
                    let granted = decide(request)
                    samples.append(Double((clock.now - start).nanoseconds))
                    if granted { allowed += 1 }
                }
            }
        }
        samples.sort()
        let seconds = Double(total.nanoseconds) / 1e9
        let count = Double(samples.count)
        func percentile(_ p: Double) -> Double { samples.isEmpty ? 0 : samples[min(samples.count - 1, Int(count * p))] }
        // Keep the answers observable so the work cannot be optimised away.
        if allowed < 0 { return "" }
        return String(format: "  decisions per second: %.0f (including timer reads)\n", count / max(seconds, 1e-9))
            + String(format: "  latency: median %.0f ns, p90 %.0f ns, p99 %.0f ns\n", percentile(0.5), percentile(0.9), percentile(0.99))
    }
}
