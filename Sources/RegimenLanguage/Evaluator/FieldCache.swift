import Synchronization

/// Remembers where a member-access site last found its key, so reading the same field of
/// same-shaped maps (every request's `request.auth`, every profile) costs one key comparison
/// instead of a search. Shared by all threads evaluating the expression; a stale hint only
/// costs the ordinary lookup.
final class FieldCache: Sendable {
    private let hint = Atomic<Int>(-1)

    @inline(__always)
    func lookup(_ map: borrowing Value.Map, _ key: String) -> Value? {
        let index = hint.load(ordering: .relaxed)
        if index >= 0, index < map.count, map.keys[index] == key { return map.values[index] }
        guard let found = map.index(forKey: key) else { return nil }
        hint.store(found, ordering: .relaxed)
        return map.values[found]
    }
}
