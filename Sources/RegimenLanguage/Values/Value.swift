import Foundation
public import OrderedCollections

/// A value of the rules language: what an expression evaluates to and what documents, profiles
/// and variables are made of.
///
/// Maps keep insertion order because Firestore's `values()` returns a literal's own order, while
/// `keys()` is sorted. `Hashable` is strict structural identity (`.int(1)` differs from
/// `.float(1)`); the language's `==` is ``Value/languageEquals(_:)``, which equates them only at
/// top level, as the emulator does.
public enum Value: Sendable, Hashable {
    /// The null value.
    case null
    /// A boolean.
    case bool(Bool)
    /// A 64-bit signed integer.
    case int(Int64)
    /// A 64-bit floating-point number.
    case float(Double)
    /// A string.
    case string(String)
    /// Raw bytes.
    case bytes([UInt8])
    /// A list of values, in order.
    case list([Value])
    /// A map from string keys to values, in insertion order.
    indirect case map(OrderedDictionary<String, Value>)
    // Rare, large payloads are boxed so every Value stays small and cheap to copy. A path (one
    // array reference) and a timestamp (12 bytes) fit inline: every security request has both.
    /// A set of unique values (the language's `toSet()` and set literals).
    indirect case set(ValueSet)
    /// A document path.
    case path(PathValue)
    /// A point in time.
    case timestamp(Timestamp)
    /// A signed length of time.
    indirect case duration(DurationValue)
    /// A geographic point.
    indirect case latlng(LatLng)
    /// The result of comparing two maps with `diff`.
    indirect case mapDiff(MapDiff)
    /// `resource.data.f` in a list request: what the query's filters say about the field.
    indirect case constraint(QueryConstraint)

    /// The type name as the language spells it (`is` tests and error messages).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .string: "string"
        case .bytes: "bytes"
        case .list: "list"
        case .map: "map"
        case .set: "set"
        case .path: "path"
        case .timestamp: "timestamp"
        case .duration: "duration"
        case .latlng: "latlng"
        case .mapDiff: "map_diff"
        case .constraint: "constraint"
        }
    }

    /// The boolean, or `nil` for any other kind of value.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The integer, or `nil` for any other kind of value (a float is not converted).
    public var intValue: Int64? { if case .int(let i) = self { i } else { nil } }
    /// The string, or `nil` for any other kind of value.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The list's elements, or `nil` for any other kind of value.
    public var listValue: [Value]? { if case .list(let l) = self { l } else { nil } }
    /// The map's entries, or `nil` for any other kind of value.
    public var mapValue: OrderedDictionary<String, Value>? { if case .map(let m) = self { m } else { nil } }

    /// The numeric value of an int or float, as a Double.
    public var numberValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .float(let f): f
        default: nil
        }
    }

    /// Whether this is the null value.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// Looks up a key of a map value; `nil` for a missing key or a non-map.
    public subscript(key: String) -> Value? {
        if case .map(let m) = self { m[key] } else { nil }
    }
}

extension Value {
    /// Structural identity: maps compare as unordered key sets (`{'a':1,'b':2} == {'b':2,'a':1}`),
    /// ints and floats are distinct (the language's `==` relaxes that at top level only).
    public static func == (lhs: Value, rhs: Value) -> Bool {
        #if REGIMEN_COUNT_WORK
        WorkCounter.units &+= 1
        #endif
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.float(a), .float(b)): return a == b
        // Exact scalars, as Java compares strings (Swift's `==` would equate é and e + ◌́).
        case let (.string(a), .string(b)): return Value.sameScalars(a, b)
        case let (.bytes(a), .bytes(b)): return a == b
        case let (.list(a), .list(b)): return a == b
        case let (.map(a), .map(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], other == value else { return false }
            }
            return true
        case let (.set(a), .set(b)): return a == b
        case let (.path(a), .path(b)): return a == b
        case let (.timestamp(a), .timestamp(b)): return a == b
        case let (.duration(a), .duration(b)): return a == b
        case let (.latlng(a), .latlng(b)): return a == b
        case let (.mapDiff(a), .mapDiff(b)): return a == b
        case let (.constraint(a), .constraint(b)): return a == b
        default: return false
        }
    }

    /// Exact UTF-8 equality. Swift's `==` would equate canonically equivalent strings, and walking
    /// two `UTF8View`s costs a bounds-checked step per byte; native strings compare as buffers.
    @inline(__always)
    static func sameScalars(_ a: String, _ b: String) -> Bool {
        // Identical representations (one small string, or one shared buffer) hold the same bytes:
        // the usual case of a field equal to the rule's constant, answered without a call.
        if MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size,
           unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self) {
            return true
        }
        let count = a.utf8.count
        guard count == b.utf8.count else { return false }
        #if REGIMEN_COUNT_WORK
        WorkCounter.units &+= count / 8
        #endif
        let compared = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right -> Bool in
                guard let l = left.baseAddress, let r = right.baseAddress else { return true }
                return memcmp(l, r, count) == 0
            }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        #if REGIMEN_COUNT_WORK
        WorkCounter.units &+= 1
        if case .string(let s) = self { WorkCounter.units &+= s.utf8.count / 8 }
        #endif
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(i)
        case .float(let f): hasher.combine(f)
        case .string(let s): hasher.combine(s)
        case .bytes(let b): hasher.combine(b)
        case .list(let l): hasher.combine(l)
        case .map(let m):
            // Order-independent: combine per-entry hashes commutatively.
            var combined = 0
            for (key, value) in m {
                var entry = Hasher()
                entry.combine(key)
                entry.combine(value)
                combined ^= entry.finalize()
            }
            hasher.combine(m.count)
            hasher.combine(combined)
        case .set(let s): hasher.combine(s)
        case .path(let p): hasher.combine(p)
        case .timestamp(let t): hasher.combine(t)
        case .duration(let d): hasher.combine(d)
        case .latlng(let p): hasher.combine(p)
        case .mapDiff(let d): hasher.combine(d)
        case .constraint(let c): hasher.combine(c)
        }
    }
}

/// A set: unique elements in first-seen order. Equality ignores order.
///
/// Membership is hashed: every element is indexed by its ``Value/setKey`` (1 and 1.0 are one
/// key, as the emulator's sets treat them), so `contains`, `hasAll`, `intersection` and
/// `difference` are linear in the sizes involved, never a product of them.
public struct ValueSet: Sendable, Hashable {
    /// The elements, each once, in the order first seen.
    public private(set) var elements: [Value]
    /// The elements' set keys, for hashed membership.
    private var keys: Set<Value>

    /// A set of the given values; later duplicates are dropped.
    public init<S: Sequence>(_ values: S) where S.Element == Value {
        var seen = Set<Value>()
        var out: [Value] = []
        for value in values where seen.insert(value.setKey).inserted {
            out.append(value)
        }
        elements = out
        keys = seen
    }

    /// Whether the set holds an element equal to `value` the way the emulator's sets compare
    /// (1 equals 1.0; inside lists and maps comparison is strict).
    public func contains(_ value: Value) -> Bool { keys.contains(value.setKey) }

    /// The number of elements.
    public var count: Int { elements.count }

    public static func == (lhs: ValueSet, rhs: ValueSet) -> Bool {
        lhs.keys == rhs.keys
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
    }
}

/// A document path such as `/databases/(default)/documents/users/alice`.
public struct PathValue: Sendable, Hashable, CustomStringConvertible {
    /// The path's segments, without slashes.
    public var segments: [String]

    /// A path of the given segments.
    public init(segments: [String]) { self.segments = segments }

    /// Parses `/a/b/c` (a leading slash is optional; empty segments are dropped).
    public init(parsing text: String) {
        segments = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    public var description: String { "/" + segments.joined(separator: "/") }
}

/// A geographic point.
public struct LatLng: Sendable, Hashable {
    /// Degrees north of the equator, -90 to 90.
    public var latitude: Double
    /// Degrees east of the prime meridian, -180 to 180.
    public var longitude: Double

    /// A point at the given latitude and longitude in degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The result of `a.diff(b)`: the two maps, compared on demand.
public struct MapDiff: Sendable, Hashable {
    /// The map `diff` was called on.
    public var left: OrderedDictionary<String, Value>
    /// The map it was compared with.
    public var right: OrderedDictionary<String, Value>

    /// The comparison of `left` with `right`.
    public init(left: OrderedDictionary<String, Value>, right: OrderedDictionary<String, Value>) {
        self.left = left
        self.right = right
    }

    /// Keys present in `left` but not in `right`.
    public var addedKeys: ValueSet { ValueSet(left.keys.filter { right[$0] == nil }.map(Value.string)) }
    /// Keys present in `right` but not in `left`.
    public var removedKeys: ValueSet { ValueSet(right.keys.filter { left[$0] == nil }.map(Value.string)) }
    /// Values compare as stored values (``Value/storedEquals(_:)``: 1 and 1.0 are unchanged, also
    /// inside lists and maps), as the emulator's diff.
    public var changedKeys: ValueSet {
        ValueSet(left.keys.filter { key in
            guard let r = right[key], let l = left[key] else { return false }
            return !l.storedEquals(r)
        }.map(Value.string))
    }
    /// Keys present in both maps with equal values.
    public var unchangedKeys: ValueSet {
        ValueSet(left.keys.filter { key in
            guard let r = right[key], let l = left[key] else { return false }
            return l.storedEquals(r)
        }.map(Value.string))
    }
    /// Keys added, removed or changed.
    public var affectedKeys: ValueSet {
        ValueSet(addedKeys.elements + removedKeys.elements + changedKeys.elements)
    }
}

extension Value {
    /// Identity used for set membership: a float that is exactly an int is that int, at every
    /// depth, as the emulator's sets decide (`[1.0] in [[1]].toSet()` is true, while
    /// `9007199254740993 in [9007199254740992.0].toSet()` is false: no rounding through double).
    var setKey: Value {
        switch self {
        case .float(let f):
            if let i = Int64(exactly: f) { return .int(i) }
            return self
        case .list(let items):
            return .list(items.map(\.setKey))
        case .map(let map):
            var keyed = map
            for index in keyed.values.indices { keyed.values[index] = keyed.values[index].setKey }
            return .map(keyed)
        default:
            return self
        }
    }

    /// Firestore's equality of stored values, which `diff()` uses: numbers compare by value at
    /// every depth (`{'a': [1.0]}.diff({'a': [1]})` changes nothing, though `[1.0] == [1]` is
    /// false); everything else compares as ``languageEquals(_:)`` does.
    public func storedEquals(_ other: Value) -> Bool {
        switch (self, other) {
        case let (.list(a), .list(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.storedEquals($1) }
        case let (.map(a), .map(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let theirs = b[key], value.storedEquals(theirs) else { return false }
            }
            return true
        default:
            return languageEquals(other)
        }
    }

    /// The language's `==`: int and float compare numerically at top level; inside lists and maps
    /// comparison is strict (`[1] == [1.0]` is false in the emulator); sets ignore order; values of
    /// different types are simply unequal. Returns `nil` never; kept optional-free for speed.
    public func languageEquals(_ other: Value) -> Bool {
        // The shapes rules compare most, decided without building the pair below.
        switch self {
        case .string(let a): if case .string(let b) = other { return Value.sameScalars(a, b) }
        case .bool(let a): if case .bool(let b) = other { return a == b }
        case .int(let a): if case .int(let b) = other { return a == b }
        case .null: if case .null = other { return true }
        default: break
        }
        switch (self, other) {
        case let (.int(a), .float(b)): return Double(a) == b
        case let (.float(a), .int(b)): return a == Double(b)
        default: return self == other
        }
    }
}
