import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// What one reload did.
package enum ReloadOutcome: Sendable, Equatable {
    /// The files hash as the serving snapshot: nothing to do.
    case unchanged(revision: String)
    /// A new set was loaded and checked and now serves.
    case loaded(revision: String)
    /// The set did not load; the last good one keeps serving.
    case failed(revision: String?, diagnostics: [String])
}

/// Loads and swaps snapshots, one reload at a time, off the request path: on a poll that sees
/// the files change, on SIGHUP, and on the admin endpoint.
package actor Reloader {
    let store: SnapshotStore
    let loader: SnapshotLoader
    let metrics: ServiceMetrics
    let logger: Logger

    init(store: SnapshotStore, loader: SnapshotLoader, metrics: ServiceMetrics, logger: Logger) {
        self.store = store
        self.loader = loader
        self.metrics = metrics
        self.logger = logger
    }

    /// Reloads when the files changed since the serving snapshot (and since the last failure,
    /// so a broken set is reported once, not on every poll); with `force`, reloads regardless.
    @discardableResult
    package func reload(force: Bool = false, reason: String) async -> ReloadOutcome {
        let serving = store.current
        if !force {
            let revision = SnapshotLoader.revision(of: loader.folders(of: serving))
            if revision == serving.revision { return .unchanged(revision: revision) }
            if let failure = store.lastFailure, failure.revision == revision { return .failed(revision: revision, diagnostics: failure.diagnostics.map(\.description)) }
        }
        let loader = self.loader
        // The load is synchronous work; it runs on a task of its own, never on a request's.
        let result = await Task.detached { loader.load() }.value
        switch result {
        case .success(let snapshot):
            // The same bytes again: the serving snapshot stays (a revision never repeats a swap).
            if snapshot.revision == serving.revision {
                return .unchanged(revision: snapshot.revision)
            }
            store.swap(in: snapshot)
            metrics.reloaded(success: true, revision: snapshot.revision)
            logger.info("rules reloaded", metadata: ["revision": "\(snapshot.revision)", "reason": "\(reason)", "files": "\(snapshot.files.count)"])
            return .loaded(revision: snapshot.revision)
        case .failure(let failure):
            store.record(failure)
            metrics.reloaded(success: false, revision: store.current.revision)
            for diagnostic in failure.diagnostics {
                logger.error("reload failed: \(diagnostic.description)", metadata: ["reason": "\(reason)", "serving": "\(store.current.revision)"])
            }
            return .failed(revision: failure.revision, diagnostics: failure.diagnostics.map(\.description))
        }
    }
}

/// Polls the folders and listens for SIGHUP for as long as the service runs; SIGHUP also
/// reopens the decision log (after rotation).
struct ReloadService: Service {
    let reloader: Reloader
    let pollInterval: Duration?
    let decisionLog: DecisionLog?
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        let reloader = reloader, pollInterval = pollInterval, decisionLog = decisionLog, logger = logger
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in signals {
                        do {
                            try decisionLog?.reopen()
                        } catch {
                            logger.error("the decision log did not reopen; lines go on to the open file", metadata: ["error": "\(error)"])
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
