import OrderedCollections
import RegimenLanguage
import RegimenRules
import Foundation

/// Converts YAML data (documents, tokens, query values) to rule values.
///
/// Plain scalars follow the YAML 1.2 core schema (`null`, `true`, ints, floats) plus ISO-8601
/// date-times, which become `timestamp`; quoted scalars are always strings. Tags:
/// `!serverTimestamp` (the request time), `!delete` (remove the field in an update),
/// `!timestamp '…'`, `!path '/…'`, `!float 1`, `!int '2'`. JSON has no tags, so the tagged maps
/// of the typed JSON the emulator tools write are read too: `{"$timestamp": "…"}`,
/// `{"$serverTimestamp": true}`, `{"$delete": true}`.
enum YAMLValues {
    /// The single key and scalar text of a one-entry map such as `{"$timestamp": "…"}`.
    private static func taggedEntry(_ pairs: [LocatedPair]) -> (key: String, text: String, node: LocatedNode)? {
        guard pairs.count == 1, let key = pairs[0].key.scalar?.text, key.hasPrefix("$"),
              let text = pairs[0].value.scalar?.text else { return nil }
        return (key, text, pairs[0].value)
    }

    static func writeValue(_ node: LocatedNode, in context: DecodingContext) -> WriteValue {
        switch node.content {
        case .scalar where node.tag == "!serverTimestamp":
            return .serverTimestamp
        case .scalar where node.tag == "!delete":
            return .deleteField
        case .scalar:
            return .value(value(node, in: context))
        case .sequence(let items):
            let values = items.map { writeValue($0, in: context) }
            for (item, value) in zip(items, values) where value == .serverTimestamp || value == .deleteField {
                // The client SDKs refuse these sentinels inside arrays before sending anything.
                context.error("tests.value", "!serverTimestamp and !delete cannot appear inside a list", at: item.location)
            }
            return .list(values)
        case .mapping(let pairs):
            if let tagged = taggedEntry(pairs) {
                if tagged.key == "$serverTimestamp", tagged.text == "true" { return .serverTimestamp }
                if tagged.key == "$delete", tagged.text == "true" { return .deleteField }
                if tagged.key == "$timestamp" || tagged.key == "$float" { return .value(value(node, in: context)) }
            }
            var out = OrderedDictionary<String, WriteValue>()
            for pair in pairs {
                guard let key = pair.key.scalar?.text else {
                    context.error("tests.value", "map keys must be strings", at: pair.key.location)
                    continue
                }
                out[key] = writeValue(pair.value, in: context)
            }
            return .map(out)
        }
    }

    static func value(_ node: LocatedNode, in context: DecodingContext) -> Value {
        switch node.content {
        case .sequence(let items):
            return .list(items.map { value($0, in: context) })
        case .mapping(let pairs):
            if let tagged = taggedEntry(pairs), tagged.key == "$timestamp" {
                if let t = Timestamp(iso8601: tagged.text) { return .timestamp(t) }
                context.error("tests.value", "'\(tagged.text)' is not an RFC 3339 timestamp for $timestamp", at: tagged.node.location)
                return .null
            }
            // `{"$float": 2}`: JSON has one number type, and `regimen test --with-requests` writes a
            // whole float this way so that a replayed request keeps it a float.
            if let tagged = taggedEntry(pairs), tagged.key == "$float" {
                switch tagged.text {
                case "NaN": return .float(.nan)
                case "Infinity": return .float(.infinity)
                case "-Infinity": return .float(-.infinity)
                default:
                    if let number = Double(tagged.text), number.isFinite { return .float(number) }
                    context.error("tests.value", "'\(tagged.text)' is not a number for $float", at: tagged.node.location)
                    return .null
                }
            }
            var out = OrderedDictionary<String, Value>()
            for pair in pairs {
                guard let key = pair.key.scalar?.text else {
                    context.error("tests.value", "map keys must be strings", at: pair.key.location)
                    continue
                }
                out[key] = value(pair.value, in: context)
            }
            return .map(out)
        case .scalar(let scalar):
            let text = scalar.text
            if let tag = node.tag {
                switch tag {
                case "!timestamp":
                    if let t = Timestamp(iso8601: text) { return .timestamp(t) }
                    context.error("tests.value", "'\(text)' is not an ISO-8601 timestamp", at: node.location)
                    return .null
                case "!path":
                    return .path(PathValue(parsing: text))
                case "!float":
                    if let d = Double(text) { return .float(d) }
                case "!int":
                    if let i = Int64(text) { return .int(i) }
                case "!str", "tag:yaml.org,2002:str":
                    return .string(text)
                case "!serverTimestamp", "!delete":
                    context.error("tests.value", "\(tag) is only allowed in write data", at: node.location)
                    return .null
                default:
                    context.error("tests.value", "unknown tag \(tag); expected !serverTimestamp, !delete, !timestamp, !path, !int, !float or !str", at: node.location)
                    return .null
                }
                context.error("tests.value", "'\(text)' is not a valid \(tag) value", at: node.location)
                return .null
            }
            guard scalar.style.isPlain else { return .string(text) }
            return plainScalar(text)
        }
    }

    /// A plain scalar under the YAML 1.2 core schema (``PlainScalarType``), plus ISO-8601
    /// date-times, which a test file writes bare.
    static func plainScalar(_ text: String) -> Value {
        switch PlainScalarType(classifying: text) {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .float(let d): return .float(d)
        case .string:
            if text.count >= 10, text.first?.isNumber == true, let t = Timestamp(iso8601: text) { return .timestamp(t) }
            return .string(text)
        }
    }

    /// Values back to YAML text for the converter and reports: flow style, one line.
    static func render(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let d): return d.isNaN ? ".nan" : d.isInfinite ? (d > 0 ? ".inf" : "-.inf") : "\(d)"
        case .string(let s): return quote(s)
        case .list(let items): return "[" + items.map(render).joined(separator: ", ") + "]"
        case .map(let m): return "{" + m.map { "\(quote($0.key)): \(render($0.value))" }.joined(separator: ", ") + "}"
        case .timestamp(let t): return t.description
        case .path(let p): return "!path '\(p)'"
        default: return quote("\(value)")
        }
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
}
