import Foundation
import Synchronization

/// The snapshot requests are answered with, and the last failed reload. A request reads
/// ``current`` once and uses that snapshot for everything it does; a reload replaces it whole.
package final class SnapshotStore: Sendable {
    private struct State: Sendable {
        var current: RuleSnapshot
        var lastFailure: LoadFailure?
    }

    private let state: Mutex<State>

    init(_ snapshot: RuleSnapshot) {
        state = Mutex(State(current: snapshot, lastFailure: nil))
    }

    /// The snapshot to answer a request with.
    package var current: RuleSnapshot { state.withLock { $0.current } }

    /// The diagnostics of the last reload that failed since the last one that succeeded.
    var lastFailure: LoadFailure? { state.withLock { $0.lastFailure } }

    func swap(in snapshot: RuleSnapshot) {
        state.withLock {
            $0.current = snapshot
            $0.lastFailure = nil
        }
    }

    func clearFailure() {
        state.withLock { $0.lastFailure = nil }
    }

    func record(_ failure: LoadFailure) {
        state.withLock { $0.lastFailure = failure }
    }
}
