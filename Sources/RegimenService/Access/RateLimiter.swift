import Synchronization

/// A token bucket per caller key: each request takes one token; a bucket refills at its
/// rate up to its burst. An empty bucket answers how long until the next token.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let buckets = Mutex<[String: Bucket]>([:])

    init() {}

    /// Takes a token from `key`'s bucket at `now`: `nil` when one was there, else the seconds
    /// until one will be.
    package func take(_ key: String, limit: RateLimit, now: ContinuousClock.Instant = .now) -> Double? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: limit.burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(limit.burst, bucket.tokens + max(0, seconds) * limit.perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return (1 - bucket.tokens) / limit.perSecond
        }
    }
}
