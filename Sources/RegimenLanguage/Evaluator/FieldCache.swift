import OrderedCollections
import Synchronization

/// Remembers where a member-access site last found its key, so reading the same field of
/// same-shaped maps (every request's `request.auth`, every profile) costs one key comparison
/// instead of a search. Shared by all threads evaluating the expression; a stale hint only
/// costs the ordinary lookup.
///
/// Callers read ``hint`` *before* taking the map out of its value and call ``remember(_:)`` only
/// after they are done with the map: an atomic access between the two would oblige the compiler
/// to retain and release the map's buffers around it, which costs more than the lookup itself.
final class FieldCache: Sendable {
    private let storedHint = Atomic<Int>(-1)

    /// The index where the key was last found (-1 before the first hit).
    @inline(__always)
    var hint: Int { storedHint.load(ordering: .relaxed) }

    @inline(__always)
    func remember(_ index: Int) { storedHint.store(index, ordering: .relaxed) }

    /// The value of `key` in `map` and, when `hint` missed, the index to remember.
    @inline(__always)
    static func lookup(_ map: borrowing Value.Map, _ key: String, hint: Int) -> (value: Value, newHint: Int?)? {
        if hint >= 0, hint < map.count, map.keys[hint] == key { return (map.values[hint], nil) }
        guard let found = map.index(forKey: key) else { return nil }
        return (map.values[found], found)
    }

    /// ``lookup(_:_:hint:)`` on a value that may be a map, read in place.
    @inline(__always)
    static func field(of value: borrowing Value, _ key: String, hint: Int) -> (value: Value, newHint: Int?)? {
        switch value {
        case .map(let map): lookup(map, key, hint: hint)
        default: nil
        }
    }

    /// ``field(of:_:hint:)`` on an evaluated function-frame slot.
    @inline(__always)
    static func field(of slot: borrowing EvaluationContext.LocalSlot, _ key: String, hint: Int) -> (value: Value, newHint: Int?)? {
        switch slot {
        case .value(.map(let map)): lookup(map, key, hint: hint)
        default: nil
        }
    }
}
