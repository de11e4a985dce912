/// One operation `regimen bench` times: run `count` times, it returns a number that depends on
/// every result, so the optimizer cannot drop the work.
package struct BenchmarkCase {
    /// What is measured (`plan.generatePlan 6-day advanced full gym`).
    package var name: String
    /// The per-operation time the issues set for it, in nanoseconds, when they set one.
    package var targetNanoseconds: Double?
    /// Runs the operation `count` times.
    package var run: (_ count: Int) -> Int

}
