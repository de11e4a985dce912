import Foundation
import RegimenKit
import Logging
import ServiceLifecycle
import UnixSignals

/// What one reload did.
enum ReloadOutcome: Sendable, Equatable {
    /// The files hash as the serving snapshot: nothing to do.
    case unchanged(revision: String)
    /// A new set was loaded and checked and now serves.
    case loaded(revision: String)
    /// The set did not load; the last good one keeps serving.
    case failed(revision: String?, diagnostics: [String])
}

/// Loads and swaps snapshots, one reload at a time, off the request path: on a poll that sees
/// the files change, on SIGHUP, and on the admin endpoint.
actor Reloader {
    let store: SnapshotStore
    let loader: SnapshotLoader
    let metrics: ServiceMetrics
    let logger: Logger

    init(store: SnapshotStore, loader: SnapshotLoader, metrics: ServiceMetrics, logger: Logger) {
        self.store = store
        self.loader = loader
        self.metrics = metrics
        self.logger = logger
        settle = loader.configuration.reloadSettle
        maximumRowLoss = loader.configuration.maximumRowLoss
    }

    /// How long the files must stay the same before a set is loaded.
    let settle: Duration
    /// The share of a table's rows a reload may drop; more is refused unless allowed.
    let maximumRowLoss: Double
    /// Waits out the settle interval; a test replaces it to act within the interval.
    private var settleWait: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }

    /// Lets a test act during the settle interval (finish writing a file, say).
    func setSettleWait(_ wait: @escaping @Sendable (Duration) async -> Void) {
        settleWait = wait
    }

    /// The revision of the files once they have stayed the same across the settle interval:
    /// a set written in several steps (an editor's save, a `git checkout`) is loaded when the
    /// writer is done, never half-way. Gives up (`nil`) when the files keep changing.
    private func settledRevision(of folders: [URL]) async -> String? {
        var previous = SnapshotLoader.revision(of: folders)
        for _ in 0..<20 {
            await settleWait(settle)
            let next = SnapshotLoader.revision(of: folders)
            if next == previous { return next }
            previous = next
        }
        return nil
    }

    /// Reloads when the files changed since the serving snapshot (and since the last failure,
    /// so a broken set is reported once, not on every poll: it is tried again when a file
    /// changes); with `force`, reloads regardless. A set is loaded only once it has settled,
    /// and refused when a table lost more than ``maximumRowLoss`` of its rows, unless
    /// `allowRowLoss`.
    @discardableResult
    func reload(force: Bool = false, allowRowLoss: Bool = false, reason: String) async -> ReloadOutcome {
        let serving = store.current
        let folders = loader.folders(of: serving)
        let located = ServedPaths(folders: folders)
        let now = SnapshotLoader.revision(of: folders)
        if !force {
            if now == serving.revision {
                // Back to the served bytes (an edit reverted): nothing failed any more.
                store.clearFailure()
                return .unchanged(revision: now)
            }
            if let failure = store.lastFailure, failure.revision == now { return .failed(revision: now, diagnostics: failure.diagnostics.map(\.description)) }
        }
        guard let settled = await settledRevision(of: folders) else {
            return fail(LoadFailure(revision: now, diagnostics: [
                .error("reload.unsettled", "the files kept changing for \(20) settle intervals (\(settle) each); the served set stays until they are still", at: nil),
            ], failedAt: Date()), reason: reason)
        }
        let loader = self.loader
        // The load is synchronous work; it runs on a task of its own, never on a request's.
        let result = await Task.detached { loader.load() }.value
        switch result {
        case .success(let snapshot):
            // The same bytes again: the serving snapshot stays (a revision never repeats a swap).
            if snapshot.revision == serving.revision {
                store.clearFailure()
                return .unchanged(revision: snapshot.revision)
            }
            if !allowRowLoss {
                let losses = RowCounts.losses(from: serving.rowCounts, to: snapshot.rowCounts, maximumShare: maximumRowLoss)
                if !losses.isEmpty {
                    return fail(LoadFailure(revision: snapshot.revision, diagnostics: losses, failedAt: Date()), reason: reason)
                }
            }
            store.swap(in: snapshot)
            metrics.reloaded(success: true, revision: snapshot.revision)
            logger.info("rules reloaded", metadata: ["revision": "\(snapshot.revision)", "reason": "\(reason)", "files": "\(snapshot.files.count)"])
            return .loaded(revision: snapshot.revision)
        case .failure(var failure):
            // A set that does not load at all (a folder gone) is still named by its bytes, so
            // the poll does not try it again until a file changes.
            if failure.revision == nil { failure.revision = settled }
            failure.diagnostics = failure.diagnostics.map(located.relative)
            return fail(failure, reason: reason)
        }
    }

    private func fail(_ failure: LoadFailure, reason: String) -> ReloadOutcome {
        store.record(failure)
        metrics.reloaded(success: false, revision: store.current.revision)
        for diagnostic in failure.diagnostics {
            logger.error("reload failed: \(diagnostic.description)", metadata: ["reason": "\(reason)", "serving": "\(store.current.revision)"])
        }
        return .failed(revision: failure.revision, diagnostics: failure.diagnostics.map(\.description))
    }
}

/// Polls the folders and listens for SIGHUP for as long as the service runs; SIGHUP also
/// reopens the decision log (after rotation) and reads the TLS certificate again.
struct ReloadService: Service {
    let reloader: Reloader
    let pollInterval: Duration?
    let decisionLog: DecisionLog?
    var tls: ReloadableTLS? = nil
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        let reloader = reloader, pollInterval = pollInterval, decisionLog = decisionLog, tls = tls, logger = logger
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in signals {
                        do {
                            try decisionLog?.reopen()
                        } catch {
                            logger.error("the decision log did not reopen; lines go on to the open file", metadata: ["error": "\(error)"])
                        }
                        do {
                            try tls?.reload()
                        } catch {
                            logger.error("the TLS certificate did not reload; the last good one serves", metadata: ["error": "\(error)"])
                        }
                        await reloader.reload(force: true, reason: "SIGHUP")
                    }
                }
                if let pollInterval {
                    group.addTask {
                        while !Task.isCancelled {
                            do { try await Task.sleep(for: pollInterval) } catch { return }
                            await reloader.reload(reason: "poll")
                        }
                    }
                }
            }
        }
    }
}
