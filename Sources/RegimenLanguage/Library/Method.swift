import Foundation
import OrderedCollections

/// Every method the language knows, resolved at compile time and dispatched on the receiver's
/// type at run time.
enum Method: String, Sendable, CaseIterable {
    // string
    case size, matches, lower, upper, trim, split, replace, toUtf8
    // bytes
    case toBase64, toHexString
    // list and set
    case hasAll, hasAny, hasOnly, concat, join, removeAll, toSet, difference, intersection, union
    // map
    case keys, values, get, diff
    // map_diff
    case addedKeys, removedKeys, changedKeys, unchangedKeys, affectedKeys
    // timestamp and duration
    case date, year, month, day, hours, minutes, seconds, nanos, dayOfWeek, dayOfYear, time, toMillis
    // latlng
    case distance, latitude, longitude
    // path
    case bind

    /// Accepted argument counts.
    var arity: ClosedRange<Int> {
        switch self {
        case .matches, .split, .hasAll, .hasAny, .hasOnly, .concat, .removeAll, .difference, .intersection,
             .union, .diff, .distance, .bind:
            1...1
        case .replace, .get:
            2...2
        case .join:
            1...1
        default:
            0...0
        }
    }

    /// Whether the method exists on the value's type (no allocation: this runs on every call).
    func applies(to value: Value) -> Bool {
        switch (self, value) {
        case (.size, .string), (.size, .bytes), (.size, .list), (.size, .set), (.size, .map): true
        case (.matches, .string), (.lower, .string), (.upper, .string), (.trim, .string), (.split, .string),
             (.replace, .string), (.toUtf8, .string): true
        case (.toBase64, .bytes), (.toHexString, .bytes): true
        case (.hasAll, .list), (.hasAny, .list), (.hasOnly, .list), (.hasAll, .set), (.hasAny, .set), (.hasOnly, .set): true
        case (.hasAny, .constraint): true
        case (.concat, .list), (.join, .list), (.removeAll, .list), (.toSet, .list): true
        case (.difference, .set), (.intersection, .set), (.union, .set): true
        case (.keys, .map), (.values, .map), (.get, .map), (.diff, .map): true
        case (.addedKeys, .mapDiff), (.removedKeys, .mapDiff), (.changedKeys, .mapDiff), (.unchangedKeys, .mapDiff),
             (.affectedKeys, .mapDiff): true
        case (.date, .timestamp), (.year, .timestamp), (.month, .timestamp), (.day, .timestamp), (.hours, .timestamp),
             (.minutes, .timestamp), (.dayOfWeek, .timestamp), (.dayOfYear, .timestamp), (.time, .timestamp),
             (.toMillis, .timestamp), (.seconds, .timestamp), (.nanos, .timestamp): true
        case (.seconds, .duration), (.nanos, .duration): true
        case (.distance, .latlng), (.latitude, .latlng), (.longitude, .latlng): true
        case (.bind, .path): true
        default: false
        }
    }

    /// Receiver types the method applies to (type names as the language spells them), for the
    /// compiler's static check.
    var receivers: Set<String> {
        switch self {
        case .size: ["string", "bytes", "list", "set", "map"]
        case .matches, .lower, .upper, .trim, .split, .replace, .toUtf8: ["string"]
        case .toBase64, .toHexString: ["bytes"]
        case .hasAll, .hasAny, .hasOnly: ["list", "set"]
        case .concat, .join, .removeAll, .toSet: ["list"]
        case .difference, .intersection, .union: ["set"]
        case .keys, .values, .get, .diff: ["map"]
        case .addedKeys, .removedKeys, .changedKeys, .unchangedKeys, .affectedKeys: ["map_diff"]
        case .date, .year, .month, .day, .hours, .minutes, .dayOfWeek, .dayOfYear, .time, .toMillis: ["timestamp"]
        case .seconds, .nanos: ["timestamp", "duration"]
        case .distance, .latitude, .longitude: ["latlng"]
        case .bind: ["path"]
        }
    }

    func apply(to receiver: Value, _ args: [Value], _ span: SourceSpan, _ limits: EvaluationLimits) throws(EvaluationError) -> Value {
        func unsupported() -> EvaluationError {
            EvaluationError.unsupported("\(receiver.typeName).\(rawValue)(\(args.map(\.typeName).joined(separator: ", ")))", span)
        }
        func checkSize(_ count: Int) throws(EvaluationError) {
            guard count <= limits.maxCollectionSize else {
                throw EvaluationError(.limitExceeded, "Collection exceeds the maximum size of \(limits.maxCollectionSize).", span: span)
            }
        }
        if case .null = receiver { throw EvaluationError.nullValue(span) }
        // A method called on a type that lacks it is "not found", as in the emulator.
        guard applies(to: receiver) else { throw EvaluationError.functionNotFound(rawValue, span) }
        guard arity.contains(args.count) else {
            throw EvaluationError(.invalidArgument, "Incorrect number of arguments. Received: \(args.count).", span: span)
        }
        switch (self, receiver) {
        // MARK: string
        case (.size, .string(let s)): return .int(Int64(s.utf16.count))
        case (.size, .bytes(let b)): return .int(Int64(b.count))
        case (.size, .list(let l)): return .int(Int64(l.count))
        case (.size, .set(let s)): return .int(Int64(s.count))
        case (.size, .map(let m)): return .int(Int64(m.count))
        case (.lower, .string(let s)): return .string(Strings.lowercasedASCII(s))
        case (.upper, .string(let s)): return .string(Strings.uppercasedASCII(s))
        case (.trim, .string(let s)): return .string(Strings.trimmedJava(s))
        case (.toUtf8, .string(let s)): return .bytes(Array(s.utf8))
        case (.matches, .string(let s)):
            guard case .string(let pattern) = args[0] else { throw unsupported() }
            return .bool(try Patterns.wholeMatch(s, pattern, budget: limits.maxPatternSteps, span))
        case (.split, .string(let s)):
            guard case .string(let pattern) = args[0] else { throw unsupported() }
            let parts = try Patterns.split(s, pattern, maxParts: limits.maxCollectionSize, budget: limits.maxPatternSteps, span)
            return .list(parts.map(Value.string))
        case (.replace, .string(let s)):
            guard case .string(let pattern) = args[0], case .string(let replacement) = args[1] else { throw unsupported() }
            return .string(try Patterns.replace(s, pattern, replacement, maxLength: limits.maxStringLength, budget: limits.maxPatternSteps, span))
        // MARK: bytes
        case (.toBase64, .bytes(let b)):
            let standard = Data(b).base64EncodedString()
            return .string(standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
        case (.toHexString, .bytes(let b)):
            return .string(b.map { String(format: "%02X", $0) }.joined())
        // MARK: list
        // Lists compare elements strictly (1 and 1.0 differ), as the emulator does.
        // Membership is hashed once both sides are more than a handful: linear, not n × m.
        case (.hasAll, .list(let l)):
            guard case .list(let other) = args[0] else { throw unsupported() }
            let members = StrictMembers(l, probes: other.count)
            return .bool(other.allSatisfy { members.contains($0) })
        case (.hasAny, .constraint(let c)):
            // A list query's array field: only an `array-contains` value proves membership; the
            // emulator answers false (not an error) otherwise.
            guard case .list(let other) = args[0] else { throw unsupported() }
            return .bool(other.contains { c.containsElement($0) == true })
        case (.hasAny, .list(let l)):
            guard case .list(let other) = args[0] else { throw unsupported() }
            let members = StrictMembers(l, probes: other.count)
            return .bool(other.contains { members.contains($0) })
        case (.hasOnly, .list(let l)):
            guard case .list(let other) = args[0] else { throw unsupported() }
            let members = StrictMembers(other, probes: l.count)
            return .bool(l.allSatisfy { members.contains($0) })
        case (.concat, .list(let l)):
            guard case .list(let other) = args[0] else { throw unsupported() }
            try checkSize(l.count + other.count)
            return .list(l + other)
        case (.join, .list(let l)):
            guard case .string(let separator) = args[0] else { throw unsupported() }
            var parts: [String] = []
            for item in l {
                // Non-strings are written as `string()` writes them (`[1, null]` → "1,null").
                parts.append(try Builtin.render(item, unsupported))
            }
            let joined = parts.joined(separator: separator)
            guard joined.utf8.count <= limits.maxStringLength else {
                throw EvaluationError(.limitExceeded, "String exceeds the maximum length of \(limits.maxStringLength) bytes.", span: span)
            }
            return .string(joined)
        case (.removeAll, .list(let l)):
            guard case .list(let other) = args[0] else { throw unsupported() }
            let members = StrictMembers(other, probes: l.count)
            return .list(l.filter { !members.contains($0) })
        case (.toSet, .list(let l)):
            return .set(ValueSet(l))
        // MARK: set
        case (.hasAll, .set(let s)):
            let other = try Self.elements(args[0], unsupported)
            return .bool(other.allSatisfy { s.contains($0) })
        case (.hasAny, .set(let s)):
            let other = try Self.elements(args[0], unsupported)
            return .bool(other.contains { s.contains($0) })
        case (.hasOnly, .set(let s)):
            let other = ValueSet(try Self.elements(args[0], unsupported))
            return .bool(s.elements.allSatisfy { other.contains($0) })
        case (.difference, .set(let s)):
            guard case .set(let other) = args[0] else { throw unsupported() }
            return .set(ValueSet(s.elements.filter { !other.contains($0) }))
        case (.intersection, .set(let s)):
            guard case .set(let other) = args[0] else { throw unsupported() }
            return .set(ValueSet(s.elements.filter { other.contains($0) }))
        case (.union, .set(let s)):
            guard case .set(let other) = args[0] else { throw unsupported() }
            try checkSize(s.count + other.count)
            return .set(ValueSet(s.elements + other.elements))
        // MARK: map
        case (.keys, .map(let m)):
            return .list(m.keys.sorted().map(Value.string))
        case (.values, .map(let m)):
            return .list(Array(m.values))
        case (.get, .map(let m)):
            switch args[0] {
            case .string(let key):
                return m[key] ?? args[1]
            case .list(let keys):
                var current = Value.map(m)
                for key in keys {
                    guard case .string(let k) = key else { throw unsupported() }
                    guard case .map(let inner) = current, let next = inner[k] else { return args[1] }
                    current = next
                }
                return current
            default:
                throw unsupported()
            }
        case (.diff, .map(let m)):
            guard case .map(let other) = args[0] else { throw unsupported() }
            return .mapDiff(MapDiff(left: m, right: other))
        // MARK: map_diff
        case (.addedKeys, .mapDiff(let d)): return .set(d.addedKeys)
        case (.removedKeys, .mapDiff(let d)): return .set(d.removedKeys)
        case (.changedKeys, .mapDiff(let d)): return .set(d.changedKeys)
        case (.unchangedKeys, .mapDiff(let d)): return .set(d.unchangedKeys)
        case (.affectedKeys, .mapDiff(let d)): return .set(d.affectedKeys)
        // MARK: timestamp
        case (.date, .timestamp(let t)):
            let days = t.seconds >= 0 ? t.seconds / 86_400 : (t.seconds - 86_399) / 86_400
            return .timestamp(Timestamp(seconds: days * 86_400))
        case (.year, .timestamp(let t)): return .int(t.components.year)
        case (.month, .timestamp(let t)): return .int(t.components.month)
        case (.day, .timestamp(let t)): return .int(t.components.day)
        case (.hours, .timestamp(let t)): return .int(t.components.hour)
        case (.minutes, .timestamp(let t)): return .int(t.components.minute)
        case (.seconds, .timestamp(let t)): return .int(t.components.second)
        case (.nanos, .timestamp(let t)): return .int(Int64(t.nanos))
        case (.dayOfWeek, .timestamp(let t)):
            let days = t.seconds >= 0 ? t.seconds / 86_400 : (t.seconds - 86_399) / 86_400
            // 1970-01-01 was a Thursday; Monday is 1 and Sunday 7.
            let mondayBased = ((days + 3) % 7 + 7) % 7
            return .int(mondayBased + 1)
        case (.dayOfYear, .timestamp(let t)):
            let c = t.components
            let days = t.seconds >= 0 ? t.seconds / 86_400 : (t.seconds - 86_399) / 86_400
            return .int(days - Timestamp.days(year: c.year, month: 1, day: 1) + 1)
        case (.time, .timestamp(let t)):
            let days = t.seconds >= 0 ? t.seconds / 86_400 : (t.seconds - 86_399) / 86_400
            return .duration(DurationValue(seconds: t.seconds - days * 86_400, nanos: t.nanos))
        case (.toMillis, .timestamp(let t)):
            return .int(t.seconds * 1000 + Int64(t.nanos) / 1_000_000)
        // MARK: duration
        case (.seconds, .duration(let d)): return .int(d.seconds)
        case (.nanos, .duration(let d)): return .int(Int64(d.nanos))
        // MARK: latlng
        case (.latitude, .latlng(let p)): return .float(p.latitude)
        case (.longitude, .latlng(let p)): return .float(p.longitude)
        case (.distance, .latlng(let p)):
            guard case .latlng(let q) = args[0] else { throw unsupported() }
            return .float(Self.haversineMetres(p, q))
        // MARK: path
        case (.bind, .path(let p)):
            guard case .map(let values) = args[0] else { throw unsupported() }
            return .path(try PathTemplate.bind(p, values, span))
        default:
            throw unsupported()
        }
    }

    private static func elements(_ value: Value, _ unsupported: () -> EvaluationError) throws(EvaluationError) -> [Value] {
        switch value {
        case .list(let l): return l
        case .set(let s): return s.elements
        default: throw unsupported()
        }
    }

    private static func haversineMetres(_ a: LatLng, _ b: LatLng) -> Double {
        let radius = 6_371_010.0
        let dLat = (b.latitude - a.latitude) * .pi / 180
        let dLng = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * .pi / 180) * cos(b.latitude * .pi / 180) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * radius * asin(Swift.min(1, h.squareRoot()))
    }
}

/// Elements of a list for membership tests by the list's strict equality (1 and 1.0 differ,
/// as the emulator's `hasAll`, `hasOnly` and `removeAll` on lists decide): hashed when more than
/// a few probes meet more than a few elements, so a call is linear in the sizes, never their
/// product.
struct StrictMembers {
    private let elements: [Value]
    private let hashed: Set<Value>?

    init(_ elements: [Value], probes: Int) {
        self.elements = elements
        hashed = elements.count > 8 && probes > 1 ? Set(elements) : nil
    }

    func contains(_ value: Value) -> Bool {
        if let hashed { return hashed.contains(value) }
        return elements.contains(value)
    }
}
