import OrderedCollections
package import RegimenLanguage

/// How YAML scalars become language values.
package struct ValueConversionOptions: Sendable, Hashable {
    /// Turn string scalars (plain or quoted, so JSON strings too) that are ISO-8601 dates or
    /// date-times (`2024-05-01`, `2024-05-01T07:30:00Z`) into `.timestamp` values.
    var timestamps: Bool

    package init(timestamps: Bool = false) {
        self.timestamps = timestamps
    }
}

extension LocatedNode {
    /// The node as a language ``Value``: mappings keep their order, integers stay `.int` and
    /// decimals `.float`, quoted and block scalars are strings, plain scalars follow the YAML 1.2
    /// core schema (see ``LocatedScalar/plainType``).
    ///
    /// A mapping key that is not a scalar is written as its YAML-ish text; use the decoding
    /// conformance (`Value.decode`) to have it reported instead.
    package func value(options: ValueConversionOptions = ValueConversionOptions()) -> Value {
        switch content {
        case .scalar(let scalar):
            return scalar.value(options: options)
        case .sequence(let items):
            return .list(items.map { $0.value(options: options) })
        case .mapping(let pairs):
            var map = OrderedDictionary<String, Value>()
            for pair in pairs {
                map[pair.key.scalar?.text ?? pair.key.description] = pair.value.value(options: options)
            }
            return .map(map)
        }
    }
}

extension LocatedNode {
    /// String scalars written like an ISO-8601 date (`YYYY-MM-DD`, optionally `T…`) that are not
    /// a real date or date-time (`2025-02-30`, `2025-01-01T24:00:00Z`). With
    /// ``ValueConversionOptions/timestamps`` they would stay strings, so a caller asking for
    /// timestamps reports them instead of letting them pass as text.
    package var invalidTimestamps: [LocatedNode] {
        switch content {
        case .scalar(let scalar):
            guard case .string = scalar.plainType, Self.looksLikeDate(scalar.text), Timestamp(iso8601: scalar.text) == nil else { return [] }
            return [self]
        case .sequence(let items):
            return items.flatMap(\.invalidTimestamps)
        case .mapping(let pairs):
            return pairs.flatMap(\.value.invalidTimestamps)
        }
    }

    private static func looksLikeDate(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars.prefix(11))
        guard scalars.count >= 10 else { return false }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { ("0"..."9").contains(scalars[$0]) }
        return digits && scalars[4] == "-" && scalars[7] == "-" && (scalars.count == 10 || scalars[10] == "T" || scalars[10] == "t" || scalars[10] == " ")
    }
}

extension LocatedScalar {
    /// The scalar as a language value (see ``LocatedNode/value(options:)``).
    package func value(options: ValueConversionOptions = ValueConversionOptions()) -> Value {
        switch plainType {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .float(let value): return .float(value)
        case .string:
            if options.timestamps, let timestamp = Timestamp(iso8601: text) {
                return .timestamp(timestamp)
            }
            return .string(text)
        }
    }
}

extension Value: NodeDecodable {
    /// Any YAML node as a value; a non-scalar mapping key is reported.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Value? {
        if context.describe(.anything(note: nil), for: node) { return .null }
        var failed = false
        func check(_ node: LocatedNode, _ path: DecodingPath) {
            switch node.content {
            case .scalar: break
            case .sequence(let items):
                for (index, item) in items.enumerated() { check(item, path.appending(index: index)) }
            case .mapping(let pairs):
                for pair in pairs {
                    guard let key = pair.key.scalar?.text else {
                        context.wrongType(pair.key, expected: "a plain key", at: path)
                        failed = true
                        continue
                    }
                    check(pair.value, path.appending(key: key))
                }
            }
        }
        check(node, path)
        return failed ? nil : node.value()
    }
}
