import NIOPosix
import Synchronization
import HTTPTypes

/// Where CPU-heavy work runs (plans, batches, impact, the playground, the simulator): threads
/// of its own, never the cooperative pool that answers `/healthz`, reads bodies and fires
/// timers. At most `concurrency` jobs run and at most `queue` wait; a job beyond that is refused
/// at once (503 with `Retry-After`), and a job past its budget is cancelled: its caller is
/// answered 503 and the job stops at its next checkpoint (between clients, plans, batch
/// elements), releasing its thread.
package final class WorkExecutor: Sendable {
    /// How many jobs run at once and how many may wait.
    package struct Limits: Sendable, Equatable {
        /// Jobs running at once (threads of the executor).
        var concurrency: Int
        /// Jobs waiting for a thread; one more is refused.
        var queue: Int

        package init(concurrency: Int, queue: Int) {
            self.concurrency = max(1, concurrency)
            self.queue = max(0, queue)
        }
    }

    /// What the executor has done, for `/metrics` and for tests that count steps.
    package struct Counts: Sendable, Equatable {
        /// Jobs admitted and not yet finished (running or waiting).
        var admitted = 0
        /// Jobs refused because the queue was full.
        package var refused = 0
        /// Jobs cancelled past their budget.
        var cancelled = 0
        /// Checkpoints passed: units of work begun (a client, a plan, a batch element). A
        /// cancelled job passes none.
        package var steps = 0
    }

    package let limits: Limits
    private let pool: NIOThreadPool
    private let counts = Mutex(Counts())

    init(_ limits: Limits) {
        self.limits = limits
        pool = NIOThreadPool(numberOfThreads: limits.concurrency)
        pool.start()
    }

    deinit {
        // The pool's threads finish the jobs they hold, then exit; nothing waits for them.
        pool.shutdownGracefully { _ in }
    }

    package var current: Counts { counts.withLock { $0 } }

    /// Runs `work` on the executor within `budget`.
    /// - Throws: 503 at once when the queue is full; 503 when the budget runs out first (the
    ///   work is cancelled); otherwise whatever `work` throws.
    package func run<T: Sendable>(budget: Duration, _ work: @escaping @Sendable (WorkToken) throws -> T) async throws -> T {
        // No time at all: nothing may start.
        guard budget > .zero else { throw ServiceError.timeBudget(budget) }
        let capacity = limits.concurrency + limits.queue
        let admitted = counts.withLock { counts in
            guard counts.admitted < capacity else {
                counts.refused += 1
                return false
            }
            counts.admitted += 1
            return true
        }
        guard admitted else { throw ServiceError.busy(limits) }
        let token = WorkToken(executor: self)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let once = ResumeOnce(continuation)
                // The timer runs on the cooperative pool, which heavy work never occupies: it fires on time.
                let timer = Task {
                    do { try await Task.sleep(for: budget) } catch { return }
                    if token.cancel() { self.counts.withLock { $0.cancelled += 1 } }
                    once.resume(with: .failure(ServiceError.timeBudget(budget)))
                }
                pool.submit { state in
                    defer { self.counts.withLock { $0.admitted -= 1 } }
                    guard state == .active else {
                        once.resume(with: .failure(ServiceError.busy(self.limits)))
                        return
                    }
                    var result: Result<T, any Error>
                    do {
                        // Work that waited past its budget never starts.
                        try token.checkpoint()
                        result = .success(try work(token))
                    } catch {
                        result = .failure(error)
                    }
                    // A cancelled job may get here before its timer resumes the caller: the caller
                    // is answered as the timer would answer (a departed caller reads nothing).
                    if token.isCancelled { result = .failure(ServiceError.timeBudget(budget)) }
                    timer.cancel()
                    once.resume(with: result)
                }
            }
        } onCancel: {
            // The client went away: nobody will read the answer.
            _ = token.cancel()
        }
    }

    fileprivate func step() {
        counts.withLock { $0.steps += 1 }
    }
}

extension ServiceError {
    /// Every thread of the executor is busy and its queue is full: try again shortly.
    static func busy(_ limits: WorkExecutor.Limits) -> ServiceError {
        ServiceError(
            .serviceUnavailable, "service.busy",
            "the service is busy (\(limits.concurrency) requests running, \(limits.queue) waiting); retry after the time in Retry-After")
    }
}

/// A job's cancellation flag: the job calls ``checkpoint()`` between units of work, and stops
/// (throws) once the job is cancelled.
package final class WorkToken: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let executor: WorkExecutor?

    fileprivate init(executor: WorkExecutor?) {
        self.executor = executor
    }

    /// A token for work small enough to run where it arrived: never cancelled, counts nothing.
    static var unbounded: WorkToken { WorkToken(executor: nil) }

    /// Whether the job was cancelled (past its budget, or its caller gone).
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Whether a new unit of work may begin: `false` once cancelled. Counts the unit it allows.
    func proceed() -> Bool {
        guard !isCancelled else { return false }
        executor?.step()
        return true
    }

    /// Throws once the job is cancelled; otherwise counts one unit of work begun.
    func checkpoint() throws(WorkCancelled) {
        guard proceed() else { throw WorkCancelled() }
    }

    /// Cancels the job; `true` when this call did (not an earlier one).
    @discardableResult
    func cancel() -> Bool {
        !cancelled.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// Thrown at a checkpoint of a cancelled job; its caller has already been answered.
struct WorkCancelled: Error, Sendable {
    init() {}
}

/// Resumes a continuation once, whoever gets there first: the work or its timer.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<Value, any Error>) {
        continuation.withLock { stored in
            stored?.resume(with: result)
            stored = nil
        }
    }
}
