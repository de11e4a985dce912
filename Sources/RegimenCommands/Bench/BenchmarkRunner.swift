import RegimenKit

/// Measures operations the way the issues state their targets: the median time of one operation
/// over many timed batches, after a warm-up.
struct BenchmarkRunner {
    struct Result {
        var name: String
        var medianNanoseconds: Double
        var targetNanoseconds: Double?

        var operationsPerSecond: Double { medianNanoseconds > 0 ? 1e9 / medianNanoseconds : 0 }
        var meetsTarget: Bool? { targetNanoseconds.map { medianNanoseconds <= $0 } }
    }

    var samples = 31
    /// Wall time each sample aims for, in nanoseconds.
    var sampleBudget: Double = 20_000_000

    func measure(_ benchmark: BenchmarkCase) -> Result {
        let clock = ContinuousClock()
        var sink = benchmark.run(16)
        // Size a batch so one sample takes about `sampleBudget`.
        var batch = 1
        while batch < 1 << 26 {
            let elapsed = clock.measure { sink &+= benchmark.run(batch) }
            if Double(elapsed.nanoseconds) >= sampleBudget / 4 { break }
            batch *= 2
        }
        var perOperation: [Double] = []
        for _ in 0..<samples {
            let elapsed = clock.measure { sink &+= benchmark.run(batch) }
            perOperation.append(Double(elapsed.nanoseconds) / Double(batch))
        }
        perOperation.sort()
        let median = perOperation[perOperation.count / 2]
        // Keep `sink` observable so the optimizer keeps the work.
        if sink == Int.min { print("") }
        return Result(name: benchmark.name, medianNanoseconds: median, targetNanoseconds: benchmark.targetNanoseconds)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
