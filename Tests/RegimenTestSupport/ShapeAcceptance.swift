import Foundation
package import OrderedCollections
package import RegimenLanguage
package import RegimenRules

/// What a described shape accepts, as a JSON Schema (2020-12) validator reads the shape's schema
/// (integers are written without a decimal point, as the YAML reader types them), so a test can
/// compare a loader with its schema on many variants without a validator of its own.
package enum ShapeAcceptance {
    /// Whether `shape` accepts `value`; `root` resolves ``NodeShape/reference(_:)`` pointers.
    package static func accepts(_ shape: NodeShape, _ value: Value, root: NodeShape? = nil) -> Bool {
        let root = root ?? shape
        func accepts(_ shape: NodeShape, _ value: Value) -> Bool { Self.accepts(shape, value, root: root) }
        switch shape {
        case .anything: return true
        case .null: return value == .null
        case .boolean: if case .bool = value { return true } else { return false }
        case .string: if case .string = value { return true } else { return false }
        case .text, .expression, .vocabulary:  // a vocabulary without its words is any text
            switch value {
            case .string, .int, .float, .bool: return true
            default: return false
            }
        case .pattern(let pattern):
            guard case .string(let text) = value else { return false }
            return matches(pattern, text)
        case .oneOf(let words): if case .string(let text) = value { return words.contains(text) } else { return false }
        case .integer(let minimum, let maximum):
            guard case .int(let number) = value else { return false }
            return within(Double(number), minimum, maximum)
        case .number(let minimum, let maximum):
            switch value {
            case .int(let number): return within(Double(number), minimum, maximum)
            case .float(let number): return within(number, minimum, maximum)
            default: return false
            }
        case .list(let element):
            guard case .list(let items) = value else { return false }
            return items.allSatisfy { accepts(element, $0) }
        case .distinctList(let element):
            guard case .list(let items) = value else { return false }
            return items.allSatisfy { accepts(element, $0) } && Set(items).count == items.count
        case .tuple(let element, let count):
            guard case .list(let items) = value else { return false }
            return items.count == count && items.allSatisfy { accepts(element, $0) }
        case .record(let elements):
            guard case .list(let items) = value, items.count == elements.count else { return false }
            return zip(elements, items).allSatisfy { accepts($0, $1) }
        case .dictionary(let element):
            guard case .map(let map) = value else { return false }
            return map.values.allSatisfy { accepts(element, $0) }
        case .mapping(let mapping):
            guard case .map(let map) = value else { return false }
            guard mapping.required.allSatisfy({ map[$0] != nil }) else { return false }
            guard !mapping.nonEmpty || !map.isEmpty, map.count <= mapping.maximumKeys ?? .max else { return false }
            for (key, needed) in mapping.dependentRequired where map[key] != nil {
                guard needed.allSatisfy({ map[$0] != nil }) else { return false }
            }
            if let keyPattern = mapping.keyPattern, !map.keys.allSatisfy({ matches(keyPattern, $0) }) { return false }
            if let excluded = mapping.excluded, accepts(excluded, value) { return false }
            return map.allSatisfy { key, item in
                if let property = mapping.properties[key] { return accepts(property, item) }
                return mapping.otherKeys.map { accepts($0, item) } ?? false
            }
        case .anyOf(let shapes): return shapes.contains { accepts($0, value) }
        case .reference(let pointer):
            guard let target = resolve(pointer, in: root) else { return false }
            return accepts(target, value)
        case .deprecated(let shape, _), .noted(let shape, _): return accepts(shape, value)
        }
    }

    /// The shape at a JSON pointer (`#/properties/match/items`) inside `root`.
    package static func resolve(_ pointer: String, in root: NodeShape) -> NodeShape? {
        var shape = root
        var parts = pointer.split(separator: "/").map(String.init).dropFirst()
        while let part = parts.first {
            parts = parts.dropFirst()
            switch (part, shape) {
            case ("properties", .mapping(let mapping)):
                guard let name = parts.first, let next = mapping.properties[name] else { return nil }
                parts = parts.dropFirst()
                shape = next
            case ("items", .list(let element)), ("items", .distinctList(let element)), ("items", .tuple(let element, _)):
                shape = element
            default:
                return nil
            }
        }
        return shape
    }

    /// Whether `text` has a match of `pattern` (unanchored, as JSON Schema's `pattern`).
    package static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static func within(_ number: Double, _ minimum: Double?, _ maximum: Double?) -> Bool {
        minimum.map { number >= $0 } ?? true && maximum.map { number <= $0 } ?? true
    }

    /// Variants of a mapping for comparing a loader with its schema: `base` unchanged, without
    /// each key `removable` allows, with an unknown key `zz_extra_field` holding `unknown`, and
    /// with each key of `replacements` set to each of its values. Each is named for messages.
    package static func variants(
        of base: OrderedDictionary<String, Value>, removable: (String) -> Bool = { _ in true }, unknown: Value = .int(1),
        replacements: [(key: String, values: [Value])]
    ) -> [(what: String, document: OrderedDictionary<String, Value>)] {
        var variants: [(what: String, document: OrderedDictionary<String, Value>)] = [("unchanged", base)]
        for key in base.keys where removable(key) {
            var removed = base
            removed.removeValue(forKey: key)
            variants.append(("without \(key)", removed))
        }
        var extra = base
        extra["zz_extra_field"] = unknown
        variants.append(("with an unknown key", extra))
        for (key, values) in replacements {
            for value in values {
                var changed = base
                changed[key] = value
                variants.append(("\(key): \(value)", changed))
            }
        }
        return variants
    }
}
