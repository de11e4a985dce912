import ArgumentParser
import Foundation
import RegimenLanguage
import RegimenSecurity

/// `regimen bench-security`: decision speed on a fixed workload (not a unit test).
public struct SecurityBenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bench-security",
        abstract: "Measure security decisions per second and median latency on 1,000 fixed write requests against Appendix A's sets path."
    )

    @Option(help: "The policy to measure (default: Appendix A of seed 000).")
    var rules = "rules/security/workout-tracker/appendix-a.rules"

    @Option(help: "Passes over the 1,000 requests.")
    var iterations = 200

    @Option(help: "Also write the workload as a security test file (for timing `regimen test` and replaying it on the emulator).")
    var writeTests: String?

    public init() {}

    public func run() throws {
        let policy: CompiledPolicy
        do { policy = try CompiledPolicy(try PolicyLoader.load(file: rules)) } catch {
            CommandContext.current.standardError.write(error.description + "\n")
            throw CommandFailure.usage
        }
        let workload = SecurityBenchmark()
        let clock = ContinuousClock()
        // Warm-up pass; also the decisions the test file records.
        let decisions = workload.requests.map { policy.decide($0, store: workload.store).allowed }
        var samples: [Double] = []
        samples.reserveCapacity(workload.requests.count * iterations)
        var allowed = 0
        let total = clock.measure {
            for _ in 0..<iterations {
                for request in workload.requests {
                    let start = clock.now
                    let decision = policy.decide(request, store: workload.store)
                    samples.append(Double((clock.now - start).components.attoseconds) / 1e9 + Double((clock.now - start).components.seconds) * 1e9)
                    if decision.allowed { allowed += 1 }
                }
            }
        }
        samples.sort()
        let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        let count = Double(samples.count)
        func percentile(_ p: Double) -> Double { samples.isEmpty ? 0 : samples[min(samples.count - 1, Int(count * p))] }
        var out = "workload: \(workload.requests.count) write requests × \(iterations) passes against \(rules)\n"
        out += "allowed: \(decisions.filter { $0 }.count) of \(decisions.count) per pass\n"
        out += String(format: "decisions per second: %.0f (including timer reads)\n", count / seconds)
        out += String(format: "latency: median %.0f ns, p90 %.0f ns, p99 %.0f ns\n", percentile(0.5), percentile(0.9), percentile(0.99))
        CommandContext.current.standardOutput.write(out)
        if let writeTests {
            let absolute = (rules as NSString).isAbsolutePath ? rules : FileManager.default.currentDirectoryPath + "/" + rules
            do { try workload.testFile(rules: absolute, decisions: decisions).write(toFile: writeTests, atomically: true, encoding: .utf8) } catch {
                CommandContext.current.standardError.write("error: cannot write \(writeTests)\n")
                throw CommandFailure.usage
            }
        }
        _ = allowed
    }
}
