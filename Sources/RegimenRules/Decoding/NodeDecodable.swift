package import OrderedCollections
import RegimenLanguage

/// A type that can be read from a ``LocatedNode``, reporting what is wrong instead of throwing.
///
/// Conform model types to decode them with ``MappingDecoder/required(_:as:)`` and friends.
/// Implementations report every problem to `context` at the offending node and return `nil`.
///
/// In describing mode (``DecodingContext/describing()``) a leaf type records its shape with
/// ``DecodingContext/describe(_:for:)`` and returns a sample of itself (a word, 1, `false`, the
/// first case, an empty list), so that the decoder reading it goes on as on a real file.
package protocol NodeDecodable {
    /// Decodes a value from `node`; `path` names it in messages.
    static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Self?
}

extension DecodingContext {
    /// Reports that `node` is not what was expected: `'sets' must be an integer, not a string 'x'`.
    package func wrongType(_ node: LocatedNode, expected: String, at path: DecodingPath) {
        var found = node.kindDescription
        if let scalar = node.scalar, !scalar.text.isEmpty, scalar.plainType != .null { found += " '\(scalar.text)'" }
        error("rules.wrong-type", path.message("must be \(expected), not \(found)"), at: node.location)
    }
}

extension String: NodeDecodable {
    /// Any non-null scalar reads as its text, so `id: 12` gives the string `12`.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> String? {
        if context.describe(.text, for: node) { return "sample" }
        guard let scalar = node.scalar, scalar.plainType != .null else {
            context.wrongType(node, expected: "a string", at: path)
            return nil
        }
        return scalar.text
    }
}

extension Bool: NodeDecodable {
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Bool? {
        if context.describe(.boolean, for: node) { return false }
        guard case .bool(let value)? = node.scalar?.plainType else {
            context.wrongType(node, expected: "true or false", at: path)
            return nil
        }
        return value
    }
}

extension Int64: NodeDecodable {
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Int64? {
        if context.describe(.integer(minimum: nil, maximum: nil), for: node) { return 1 }
        switch node.scalar?.plainType {
        case .int(let value)?: return value
        case .float(let value)? where value.rounded() == value && value.magnitude < 9.2e18:
            context.wrongType(node, expected: "an integer (write it without a decimal point)", at: path)
            return nil
        default:
            context.wrongType(node, expected: "an integer", at: path)
            return nil
        }
    }
}

extension Int: NodeDecodable {
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Int? {
        Int64.decode(from: node, at: path, in: context).map { Int($0) }
    }
}

extension Double: NodeDecodable {
    /// Integers are accepted as numbers; NaN is not.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Double? {
        if context.describe(.number(minimum: nil, maximum: nil), for: node) { return 1 }
        switch node.scalar?.plainType {
        case .int(let value)?: return Double(value)
        case .float(let value)? where !value.isNaN: return value
        default:
            context.wrongType(node, expected: "a number", at: path)
            return nil
        }
    }
}

extension Array: NodeDecodable where Element: NodeDecodable {
    /// A list whose elements all decode; any failing element makes the whole list `nil`.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> [Element]? {
        if context.describe(.list(context.shape(of: Element.self, at: path.appending(index: 0))), for: node) { return [] }
        guard let items = node.sequence else {
            context.wrongType(node, expected: "a list", at: path)
            return nil
        }
        var result: [Element] = []
        var failed = false
        for (index, item) in items.enumerated() {
            if let value = Element.decode(from: item, at: path.appending(index: index), in: context) {
                result.append(value)
            } else {
                failed = true
            }
        }
        return failed ? nil : result
    }
}

extension OrderedDictionary: NodeDecodable where Key == String, Value: NodeDecodable {
    /// A mapping from words to values in file order; any failing value makes the whole mapping `nil`.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> OrderedDictionary<String, Value>? {
        if context.describe(.dictionary(context.shape(of: Value.self, at: path)), for: node) { return [:] }
        guard let pairs = node.mapping else {
            context.wrongType(node, expected: "a mapping", at: path)
            return nil
        }
        var result = OrderedDictionary<String, Value>()
        var failed = false
        for pair in pairs {
            guard let key = pair.key.scalar?.text else {
                context.wrongType(pair.key, expected: "a plain key", at: path)
                failed = true
                continue
            }
            if let value = Value.decode(from: pair.value, at: path.appending(key: key), in: context) {
                result[key] = value
            } else {
                failed = true
            }
        }
        return failed ? nil : result
    }
}

extension LocatedNode: NodeDecodable {
    /// The node itself, for callers that inspect it further.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> LocatedNode? {
        if context.describe(.anything(note: "Checked by the loader (regimen check)."), for: node) { return node }
        return node
    }
}

extension DecodingContext {
    /// Decodes `node` as one of `allowed`, the cases of `E` this place accepts (a rule file that
    /// takes only some of them); the schema lists exactly those.
    package func decode<E: NodeEnum>(_ node: LocatedNode, among allowed: [E], at path: DecodingPath) -> E? {
        let words = allowed.map(\.rawValue)
        if describe(.oneOf(words), for: node) { return allowed.first }
        guard let value = decode(node, as: E.self, at: path) else { return nil }
        guard words.contains(value.rawValue) else {
            error("rules.unknown-value", path.message("must be \(words.map { "'\($0)'" }.joined(separator: " or ")) here, not '\(value.rawValue)'"), at: node.location)
            return nil
        }
        return value
    }
}

/// An enumeration spelled in rule files by its raw values; decoding lists the allowed values.
///
/// ```swift
/// enum Goal: String, NodeEnum { case fatLoss = "fat_loss", hypertrophy, strength }
/// ```
package protocol NodeEnum: NodeDecodable, CaseIterable, RawRepresentable where RawValue == String {}

extension NodeEnum {
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Self? {
        if context.describe(.oneOf(allCases.map(\.rawValue)), for: node) { return allCases.first }
        let allowed = allCases.map(\.rawValue)
        guard let text = node.scalar?.text, node.scalar?.plainType != .null else {
            context.wrongType(node, expected: "one of \(allowed.map { "'\($0)'" }.joined(separator: ", "))", at: path)
            return nil
        }
        if let value = Self(rawValue: text) { return value }
        let suggestion = Suggestion.clause(for: text, among: allowed)
        context.error(
            "rules.unknown-value",
            path.message("must be one of \(allowed.map { "'\($0)'" }.joined(separator: ", ")), not '\(text)'\(suggestion)"),
            at: node.location)
        return nil
    }
}
