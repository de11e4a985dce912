import RegimenLanguage

/// Writes values as JSON text: maps keep their order, timestamps become RFC 3339 strings.
enum JSONWriter {
    /// `value` as JSON; `indent` spaces per level, or one line when `indent` is 0.
    static func write(_ value: Value, indent: Int = 2) -> String {
        var output = ""
        write(value, indent: indent, level: 0, into: &output)
        return output
    }

    private static func write(_ value: Value, indent: Int, level: Int, into output: inout String) {
        let newline = indent > 0 ? "\n" : ""
        let pad = String(repeating: " ", count: indent * (level + 1))
        let closePad = String(repeating: " ", count: indent * level)
        switch value {
        case .null: output += "null"
        case .bool(let b): output += b ? "true" : "false"
        case .int(let i): output += String(i)
        case .float(let f): output += f.isFinite ? String(f) : "null"
        case .string(let s): output += quote(s)
        case .timestamp(let t): output += quote(t.description)
        case .duration(let d): output += quote(d.description)
        case .path(let p): output += quote(p.description)
        case .bytes(let b): output += "[" + b.map(String.init).joined(separator: ",") + "]"
        case .latlng(let l): output += "{\"latitude\":\(l.latitude),\"longitude\":\(l.longitude)}"
        case .set(let s): write(.list(s.elements), indent: indent, level: level, into: &output)
        case .mapDiff: output += "null"
        case .list(let items):
            if items.isEmpty { output += "[]"; return }
            output += "[" + newline
            for (index, item) in items.enumerated() {
                output += pad
                write(item, indent: indent, level: level + 1, into: &output)
                output += (index + 1 < items.count ? "," : "") + newline
            }
            output += closePad + "]"
        case .map(let entries):
            if entries.isEmpty { output += "{}"; return }
            output += "{" + newline
            var index = 0
            for (key, item) in entries {
                output += pad + quote(key) + (indent > 0 ? ": " : ":")
                write(item, indent: indent, level: level + 1, into: &output)
                index += 1
                output += (index < entries.count ? "," : "") + newline
            }
            output += closePad + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

extension Value {
    /// The value as indented JSON text.
    public var jsonText: String { JSONWriter.write(self) }
}
