import Synchronization

/// Runs a request's work against its time budget: the answer is whichever comes first, the
/// work's result or a 503 when the budget runs out. Abandoned work finishes in the background
/// (the evaluation limits bound it); nothing waits for it.
enum TimeBudget {
    /// Resumes its continuation once, whoever gets there first.
    private final class Once<Value: Sendable>: Sendable {
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

    static func run<Value: Sendable>(
        _ budget: Duration, onTimeout timeout: @escaping @Sendable () -> any Error, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let once = Once(continuation)
            let deadline = ContinuousClock.now.advanced(by: budget)
            let timer = Task {
                do { try await Task.sleep(for: budget) } catch { return }
                once.resume(with: .failure(timeout()))
            }
            Task {
                // Work that would start past its deadline (queued behind others) never starts.
                guard ContinuousClock.now < deadline else {
                    timer.cancel()
                    once.resume(with: .failure(timeout()))
                    return
                }
                let result: Result<Value, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                timer.cancel()
                once.resume(with: result)
            }
        }
    }
}
