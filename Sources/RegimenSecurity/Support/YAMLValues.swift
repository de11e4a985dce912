import OrderedCollections
import RegimenLanguage

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
    private static func taggedEntry(_ entries: [(key: YAMLNode, value: YAMLNode)]) -> (key: String, text: String, node: YAMLNode)? {
        guard entries.count == 1, let key = entries[0].key.scalarText, key.hasPrefix("$"),
              case .scalar(let text, _, _) = entries[0].value.kind else { return nil }
        return (key, text, entries[0].value)
    }

    static func writeValue(_ node: YAMLNode, diagnostics: inout DiagnosticCollector) -> WriteValue {
        switch node.kind {
        case .scalar(_, _, let tag?) where tag == "!serverTimestamp":
            return .serverTimestamp
        case .scalar(_, _, let tag?) where tag == "!delete":
            return .deleteField
        case .scalar:
            return .value(value(node, diagnostics: &diagnostics))
        case .sequence(let items):
            let values = items.map { writeValue($0, diagnostics: &diagnostics) }
            for (item, value) in zip(items, values) where value == .serverTimestamp || value == .deleteField {
                // The client SDKs refuse these sentinels inside arrays before sending anything.
                diagnostics.error("tests.value", "!serverTimestamp and !delete cannot appear inside a list", at: item.location)
            }
            return .list(values)
        case .mapping(let entries):
            if let tagged = taggedEntry(entries) {
                if tagged.key == "$serverTimestamp", tagged.text == "true" { return .serverTimestamp }
                if tagged.key == "$delete", tagged.text == "true" { return .deleteField }
                if tagged.key == "$timestamp" { return .value(value(node, diagnostics: &diagnostics)) }
            }
            var out = OrderedDictionary<String, WriteValue>()
            for entry in entries {
                guard let key = entry.key.scalarText else {
                    diagnostics.error("tests.value", "map keys must be strings", at: entry.key.location)
                    continue
                }
                out[key] = writeValue(entry.value, diagnostics: &diagnostics)
            }
            return .map(out)
        }
    }

    static func value(_ node: YAMLNode, diagnostics: inout DiagnosticCollector) -> Value {
        switch node.kind {
        case .sequence(let items):
            return .list(items.map { value($0, diagnostics: &diagnostics) })
        case .mapping(let entries):
            if let tagged = taggedEntry(entries), tagged.key == "$timestamp" {
                if let t = Timestamp(iso8601: tagged.text) { return .timestamp(t) }
                diagnostics.error("tests.value", "'\(tagged.text)' is not an RFC 3339 timestamp for $timestamp", at: tagged.node.location)
                return .null
            }
            var out = OrderedDictionary<String, Value>()
            for entry in entries {
                guard let key = entry.key.scalarText else {
                    diagnostics.error("tests.value", "map keys must be strings", at: entry.key.location)
                    continue
                }
                out[key] = value(entry.value, diagnostics: &diagnostics)
            }
            return .map(out)
        case .scalar(let text, let style, let tag):
            if let tag {
                switch tag {
                case "!timestamp":
                    if let t = Timestamp(iso8601: text) { return .timestamp(t) }
                    diagnostics.error("tests.value", "'\(text)' is not an ISO-8601 timestamp", at: node.location)
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
                    diagnostics.error("tests.value", "\(tag) is only allowed in write data", at: node.location)
                    return .null
                default:
                    diagnostics.error("tests.value", "unknown tag \(tag); expected !serverTimestamp, !delete, !timestamp, !path, !int, !float or !str", at: node.location)
                    return .null
                }
                diagnostics.error("tests.value", "'\(text)' is not a valid \(tag) value", at: node.location)
                return .null
            }
            guard style == .plain else { return .string(text) }
            return plainScalar(text)
        }
    }

    /// YAML 1.2 core-schema resolution of a plain scalar, plus ISO-8601 timestamps.
    static func plainScalar(_ text: String) -> Value {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf": return .float(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .float(-.infinity)
        case ".nan", ".NaN", ".NAN": return .float(.nan)
        default: break
        }
        if let i = Int64(text) { return .int(i) }
        if text.hasPrefix("0x"), let i = Int64(text.dropFirst(2), radix: 16) { return .int(i) }
        if text.hasPrefix("0o"), let i = Int64(text.dropFirst(2), radix: 8) { return .int(i) }
        if text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true,
           text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }), let d = Double(text) {
            return .float(d)
        }
        if text.count >= 10, text.first?.isNumber == true, let t = Timestamp(iso8601: text) { return .timestamp(t) }
        return .string(text)
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
