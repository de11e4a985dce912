import Synchronization

/// The full paths (`/databases/(default)/documents/users/alice`) of the documents one decision's
/// `get()`, `exists()`, `getAfter()` and `existsAfter()` calls read, in the order first read.
///
/// A live document source cannot answer a read while the synchronous evaluator waits, so it
/// decides with the documents it has, asks this log which paths the rules wanted, fetches the
/// ones it had not read, and decides again (see `LiveDocumentDecider` in RegimenService).
package final class DocumentReadLog: Sendable {
    private let paths = Mutex<[String]>([])

    package init() {}

    func record(_ path: String) {
        paths.withLock { $0.append(path) }
    }

    /// Every distinct path read so far.
    package var recorded: [String] { paths.withLock { $0 } }
}
