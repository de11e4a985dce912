import ArgumentParser
import RegimenLanguage

/// `--format json|yaml|text`: how a command prints its result.
enum ProfileOutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case json, yaml, text
}

/// Renders a ``Value`` as block-style YAML with sorted keys, the same content as its JSON.
enum YAMLRenderer {
    static func render(_ value: Value) -> String {
        var lines: [String] = []
        emit(value, indent: 0, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func emit(_ value: Value, indent: Int, into lines: inout [String]) {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .map(let map) where !map.isEmpty:
            for key in map.keys.sorted() {
                guard let child = map[key] else { continue }
                if isBlock(child) {
                    lines.append("\(pad)\(scalar(.string(key))):")
                    emit(child, indent: indent + 2, into: &lines)
                } else {
                    lines.append("\(pad)\(scalar(.string(key))): \(scalar(child))")
                }
            }
        case .list(let items) where !items.isEmpty:
            for item in items {
                if isBlock(item) {
                    var nested: [String] = []
                    emit(item, indent: indent + 2, into: &nested)
                    if let first = nested.first {
                        lines.append("\(pad)- " + first.dropFirst(indent + 2))
                        lines.append(contentsOf: nested.dropFirst())
                    }
                } else {
                    lines.append("\(pad)- \(scalar(item))")
                }
            }
        default:
            lines.append(pad + scalar(value))
        }
    }

    private static func isBlock(_ value: Value) -> Bool {
        switch value {
        case .map(let map): !map.isEmpty
        case .list(let items): !items.isEmpty
        default: false
        }
    }

    private static func scalar(_ value: Value) -> String {
        switch value {
        case .map: return "{}"
        case .list: return "[]"
        case .string(let text): return plainIsSafe(text) ? text : Value.string(text).jsonString()
        default: return value.jsonString()
        }
    }

    /// Plain scalars that YAML would read back as the same string.
    private static func plainIsSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !text.hasSuffix(" ") else { return false }
        let reserved = ["true", "false", "null", "~", "yes", "no", "on", "off"]
        if reserved.contains(text.lowercased()) || Double(text) != nil { return false }
        if "-?:,[]{}#&*!|>'\"%@`<= ".unicodeScalars.contains(first) { return false }
        return !text.contains(": ") && !text.contains(" #") && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\u{7F}" }
    }
}
