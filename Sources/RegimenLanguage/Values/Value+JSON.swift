import Foundation
import OrderedCollections

extension Value: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// JSON form: timestamps as RFC 3339 strings, durations as `"90s"`, paths as strings, bytes as
    /// base64, sets as arrays, latlng as `{latitude, longitude}`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .float(let f):
            var c = encoder.singleValueContainer()
            try c.encode(f)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .bytes(let b):
            var c = encoder.singleValueContainer()
            try c.encode(Data(b).base64EncodedString())
        case .list(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .set(let set):
            var c = encoder.unkeyedContainer()
            for item in set.elements { try c.encode(item) }
        case .map(let map):
            var c = encoder.container(keyedBy: Key.self)
            for (key, value) in map { try c.encode(value, forKey: Key(stringValue: key)) }
        case .path(let p):
            var c = encoder.singleValueContainer()
            try c.encode(p.description)
        case .timestamp(let t):
            var c = encoder.singleValueContainer()
            try c.encode(t.description)
        case .duration(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d.description)
        case .latlng(let p):
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(p.latitude, forKey: Key(stringValue: "latitude"))
            try c.encode(p.longitude, forKey: Key(stringValue: "longitude"))
        case .mapDiff(let d):
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(Value.set(d.addedKeys), forKey: Key(stringValue: "addedKeys"))
            try c.encode(Value.set(d.removedKeys), forKey: Key(stringValue: "removedKeys"))
            try c.encode(Value.set(d.changedKeys), forKey: Key(stringValue: "changedKeys"))
        case .constraint:
            var c = encoder.singleValueContainer()
            try c.encode("constraint")
        }
    }

    /// Deterministic JSON text: sorted keys, non-finite floats as strings.
    public func jsonString(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8) else { return "null" }
        guard pretty else { return text }
        return Self.collapsingEmptyContainers(text)
    }

    /// Foundation on Linux pretty-prints an empty list or map as a bracket, a blank line and a
    /// bracket (`[`, line break, spaces, line break, spaces, `]`). A raw line break only ever
    /// appears between tokens (strings escape theirs), so the empty containers are written `[]`
    /// and `{}` as on every other platform. One pass over the bytes: every response goes
    /// through here, and a regular expression built per call cost more than the encoding.
    static func collapsingEmptyContainers(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        while index < bytes.count {
            let open = bytes[index]
            let close: UInt8 = open == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
            guard open == UInt8(ascii: "[") || open == UInt8(ascii: "{"), let end = emptyContainerEnd(bytes, after: index, close: close) else {
                index += 1
                continue
            }
            output.append(contentsOf: bytes[copied...index])
            output.append(close)
            index = end + 1
            copied = index
        }
        guard copied > 0 else { return text }
        output.append(contentsOf: bytes[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    /// Where the closing bracket is when `bytes[open]` starts a line break, spaces, a line break,
    /// spaces and `close`.
    private static func emptyContainerEnd(_ bytes: [UInt8], after open: Int, close: UInt8) -> Int? {
        var index = open + 1
        for _ in 0..<2 {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { return nil }
            index += 1
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        }
        return index < bytes.count && bytes[index] == close ? index : nil
    }
}

extension Value: CustomStringConvertible {
    /// The value written as a rules-language literal where one exists (`'a'`, `[1, 2.0]`, `{'k': true}`).
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return Builtin.formatFloat(f)
        case .string(let s): return "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        case .bytes(let b): return "b'" + b.map { String(format: "\\x%02X", $0) }.joined() + "'"
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .set(let s): return "[" + s.elements.map(\.description).joined(separator: ", ") + "].toSet()"
        case .map(let m): return "{" + m.map { "'\($0.key)': \($0.value.description)" }.joined(separator: ", ") + "}"
        case .path(let p): return "path('\(p.description)')"
        case .timestamp(let t): return "timestamp('\(t.description)')"
        case .duration(let d): return "duration('\(d.description)')"
        case .latlng(let p): return "latlng.value(\(p.latitude), \(p.longitude))"
        case .mapDiff(let d): return "\(Value.map(d.left)).diff(\(Value.map(d.right)))"
        case .constraint: return "constraint"
        }
    }
}
