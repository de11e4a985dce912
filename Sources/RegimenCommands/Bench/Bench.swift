import ArgumentParser
import Foundation
import RegimenKit

/// `regimen bench`: measures the targets the issues set, in process. Run it on a release build
/// (`swift run -c release regimen bench`); debug builds are many times slower.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure compile, evaluation, decision and plan-generation speed against their targets."
    )

    @Option(name: .long, help: "Only run benchmarks whose name contains this text.")
    var filter: String?

    @Option(name: .long, parsing: .unconditional, help: "Timed samples per benchmark (the median is reported).")
    var samples: Int = 31

    @Option(name: .long, parsing: .unconditional, help: "Run exactly this many operations of each benchmark without timing (for instruction counting under valgrind).")
    var operations: Int?

    func validate() throws {
        guard samples > 0 else { throw ValidationError("--samples: must be 1 or more, not \(samples)") }
        if let operations, operations < 0 { throw ValidationError("--operations: must be 0 or more, not \(operations)") }
    }

    func run() throws {
        let runner = BenchmarkRunner(samples: max(3, samples))
        let context = CommandContext.current
        var cases = RegimenBenchmarks.cases(currentDirectory: context.currentDirectory, executable: context.executable)
        if let filter { cases = cases.filter { $0.name.contains(filter) } }
        if let operations {
            for benchmark in cases { print("\(benchmark.name): ran \(benchmark.run(max(0, operations))) of \(operations)") }
            return
        }
        #if DEBUG
        print("note: this is a debug build; use `swift run -c release regimen bench` for meaningful figures")
        #endif
        for benchmark in cases {
            let result = runner.measure(benchmark)
            var line = "\(result.name): median \(Self.format(result.medianNanoseconds)) per operation, \(Int(result.operationsPerSecond)) per second"
            if let target = result.targetNanoseconds, let met = result.meetsTarget {
                line += " (target \(Self.format(target)): \(met ? "met" : "MISSED"))"
            }
            print(line)
        }
    }

    static func format(_ nanoseconds: Double) -> String {
        if nanoseconds < 1_000 { return String(format: "%.0f ns", nanoseconds) }
        if nanoseconds < 1_000_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
        return String(format: "%.2f ms", nanoseconds / 1_000_000)
    }
}
