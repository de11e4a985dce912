#if REGIMEN_COUNT_WORK
/// Counts the element comparisons and hashes values really do, independently of the cost the
/// evaluator charges (``Cost``), so the structure-aware fuzz target `FuzzCost` can check that
/// the charge covers the work. Compiled only into fuzz builds (`REGIMEN_FUZZ=1`): the counter
/// is process-global and unsynchronized, and a fuzz target runs one input at a time.
package enum WorkCounter {
    nonisolated(unsafe) package static var units = 0
}
#endif
