package import RegimenKit
import Synchronization

/// Documents read lately, each usable for a short time (``LiveDocumentSettings/cacheTTL``), at
/// most ``LiveDocumentSettings/cacheEntries`` of them (the oldest read leaves first). A known
/// missing document is cached as such. Bounded both ways, so a flood of distinct paths costs
/// memory no larger than the bound and a changed document is seen within the time to live.
package final class LiveDocumentCache: Sendable {
    private struct Entry {
        var fields: OrderedDictionary<String, Value>?
        var readAt: ContinuousClock.Instant
    }

    private let entries = Mutex<OrderedDictionary<String, Entry>>([:])
    let timeToLive: Duration
    let capacity: Int

    init(timeToLive: Duration, capacity: Int) {
        self.timeToLive = timeToLive
        self.capacity = max(0, capacity)
    }

    /// The cached reads of `paths` still within their time to live, as of `now`.
    func lookUp(_ paths: some Sequence<String>, now: ContinuousClock.Instant = .now) -> [String: OrderedDictionary<String, Value>?] {
        guard timeToLive > .zero, capacity > 0 else { return [:] }
        return entries.withLock { entries in
            var found: [String: OrderedDictionary<String, Value>?] = [:]
            for path in paths {
                guard let entry = entries[path] else { continue }
                if now - entry.readAt < timeToLive {
                    found[path] = .some(entry.fields)
                } else {
                    entries.removeValue(forKey: path)
                }
            }
            return found
        }
    }

    /// Keeps `reads` (made at `now`), dropping the oldest entries beyond the capacity.
    package func store(_ reads: [String: OrderedDictionary<String, Value>?], now: ContinuousClock.Instant = .now) {
        guard timeToLive > .zero, capacity > 0 else { return }
        entries.withLock { entries in
            for (path, fields) in reads {
                // Re-inserted at the end: the order is the order of reading.
                entries.removeValue(forKey: path)
                entries[path] = Entry(fields: fields, readAt: now)
            }
            let excess = entries.count - capacity
            if excess > 0 { entries.removeFirst(excess) }
        }
    }

    /// How many entries are held (expired ones included until looked up or pushed out).
    package var count: Int { entries.withLock { $0.count } }
}
