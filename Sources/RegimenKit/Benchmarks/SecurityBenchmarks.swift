import Foundation
import RegimenSecurity

/// `regimen bench` cases for security decisions: the 1,000 fixed write requests of
/// ``SecurityBenchmark`` against Appendix A's sets path (target: median under 1 µs), answered
/// allow/deny only, and with the record of every evaluated statement that `regimen test` and
/// `--explain` print.
///
/// The second case is sensitive to the size of `AllowEvaluation`: at 136 bytes (an error inline,
/// the branch and culprit beside it) the compiler built each record twice and copied one of them,
/// about 300 instructions a record; at four words it is a few register moves.
enum SecurityBenchmarks {
    static var cases: [BenchmarkCase] {
        guard let policy = try? CompiledPolicy(try PolicyLoader.load(file: "rules/security/workout-tracker/appendix-a.rules")) else { return [] }
        let workload = SecurityBenchmark()
        return [
            BenchmarkCase(name: "security decision (Appendix A sets path, 1,000 mixed writes, allow/deny)", targetNanoseconds: 1_000) { count in
                var allowed = 0
                for index in 0..<count where policy.isAllowed(workload.requests[index % workload.requests.count], store: workload.store) {
                    allowed += 1
                }
                return allowed
            },
            BenchmarkCase(name: "security decision with statement records (same requests, decide)", targetNanoseconds: nil) { count in
                var allowed = 0
                for index in 0..<count where policy.decide(workload.requests[index % workload.requests.count], store: workload.store).allowed {
                    allowed += 1
                }
                return allowed
            },
        ]
    }
}
