import RegimenLanguage
import Synchronization

/// Records the text of every rule expression that compiles while a rule set loads, with its
/// place in the file, so a test can mutate each name an expression reads and check that the
/// loader then reports the mutation where it is written (the near-miss property).
///
/// Recording is off unless a test installs a recorder with `ExpressionRecorder.$current.withValue`;
/// loading then pays one task-local read per expression.
package final class ExpressionRecorder: Sendable {
    /// The recorder of the running task, if a test installed one.
    @TaskLocal package static var current: ExpressionRecorder?

    private let recorded = Mutex<[ExpressionSource]>([])

    init() {}

    /// Notes an expression that compiled.
    package func record(_ source: ExpressionSource) {
        recorded.withLock { $0.append(source) }
    }

    /// Every expression recorded so far, in load order.
    var expressions: [ExpressionSource] { recorded.withLock { $0 } }
}
