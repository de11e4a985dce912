import RegimenLanguage

/// What JSON and libyaml read differently inside a JSON document's strings, rewritten before
/// parsing so that JSON means what RFC 8259 says it means.
///
/// Regimen reads JSON through its YAML reader (JSON is YAML 1.2), but libyaml follows YAML 1.1 in
/// two places a JSON client meets:
/// - a character outside the Basic Multilingual Plane escaped as a UTF-16 surrogate pair
///   (`"\ud83d\udcaa"`, what Python's `json.dumps` writes by default) is refused, because YAML
///   escapes name code points and a surrogate is not one;
/// - a raw U+0085, U+2028 or U+2029 inside a string is taken for a line break and folded away.
///
/// In a document that is valid JSON, a pair becomes the 8-digit escape of its code point and the
/// three raw characters become YAML's escapes for themselves (`\N`, `\L`, `\P`). Only strings are
/// touched (valid JSON has no other place for a backslash or those characters), and locations stay
/// true to the original text through the column shifts recorded on each line.
enum JSONStringEscapes {
    /// Where a rewrite moved the columns after it: from `column` (1-based, in the rewritten line)
    /// on, the original column is `column + delta`.
    struct ColumnShift: Sendable, Equatable {
        var column: Int
        var delta: Int
    }

    /// The rewritten text and each line's shifts (1-based line numbers), or `nil` when `text` is
    /// not a JSON document or needs no rewrite (the common case, decided by one scan).
    static func rewrite(_ text: String) -> (text: String, shifts: [Int: [ColumnShift]])? {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first(where: { !" \t\r\n\u{FEFF}".unicodeScalars.contains($0) }),
              first == "{" || first == "[",
              needsRewrite(scalars), isJSONLexically(scalars)
        else { return nil }

        var output = String.UnicodeScalarView()
        output.reserveCapacity(scalars.count)
        var shifts: [Int: [ColumnShift]] = [:]
        var line = 1
        var column = 1  // in the rewritten line
        var delta = 0   // original column minus rewritten column, on this line
        var inString = false
        var index = 0
        func emit(_ scalar: Unicode.Scalar) {
            output.append(scalar)
            column += 1
        }
        func shift(by amount: Int) {
            delta += amount
            shifts[line, default: []].append(ColumnShift(column: column, delta: delta))
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if !inString {
                if scalar == "\"" { inString = true }
                // A line ends at LF, CRLF or a lone CR, as libyaml counts lines outside strings.
                if scalar == "\n" || (scalar == "\r" && (index + 1 >= scalars.count || scalars[index + 1] != "\n")) {
                    output.append(scalar)
                    line += 1
                    column = 1
                    delta = 0
                } else {
                    emit(scalar)
                }
                index += 1
                continue
            }
            switch scalar {
            case "\"":
                inString = false
                emit(scalar)
                index += 1
            case "\\":
                if let pair = surrogatePair(scalars, at: index) {
                    let hex = String(pair.value, radix: 16, uppercase: true)
                    for s in ("\\U" + String(repeating: "0", count: 8 - hex.count) + hex).unicodeScalars { emit(s) }
                    index += 12
                    shift(by: 2)
                } else {
                    // Any other escape is copied whole (its second character may be a quote).
                    emit(scalar)
                    if index + 1 < scalars.count { emit(scalars[index + 1]) }
                    index += 2
                }
            case "\u{85}", "\u{2028}", "\u{2029}":
                emit("\\")
                emit(scalar == "\u{85}" ? "N" : scalar == "\u{2028}" ? "L" : "P")
                index += 1
                shift(by: -1)
            default:
                emit(scalar)
                index += 1
            }
        }
        return (String(output), shifts)
    }

    /// Whether `scalars` are JSON tokens: outside strings only structure, whitespace, numbers and
    /// the three literals; every string closed. That is all the rewrite needs (string boundaries
    /// are then unambiguous); values and nesting are the reader's to check, with locations.
    private static func isJSONLexically(_ scalars: [Unicode.Scalar]) -> Bool {
        let outside = Set("{}[]:,-+.0123456789eE truefalsnl\t\r\n\u{FEFF}".unicodeScalars)
        var inString = false
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if inString {
                if scalar == "\\" { index += 1 } else if scalar == "\"" { inString = false }
            } else if scalar == "\"" {
                inString = true
            } else if !outside.contains(scalar) {
                return false
            }
            index += 1
        }
        return !inString
    }

    /// Whether any string could hold a surrogate escape or a raw line-break-like character.
    private static func needsRewrite(_ scalars: [Unicode.Scalar]) -> Bool {
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\u{85}", "\u{2028}", "\u{2029}": return true
            case "\\" where surrogatePair(scalars, at: index) != nil: return true
            default: continue
            }
        }
        return false
    }

    /// The code point of a `\uD8xx\uDCxx` pair starting at `index`, if one does.
    private static func surrogatePair(_ scalars: [Unicode.Scalar], at index: Int) -> Unicode.Scalar? {
        guard let high = escapedUnit(scalars, at: index), (0xD800...0xDBFF).contains(high),
              let low = escapedUnit(scalars, at: index + 6), (0xDC00...0xDFFF).contains(low)
        else { return nil }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    /// The UTF-16 unit of a `\u` escape (four hexadecimal digits) starting at `index`.
    private static func escapedUnit(_ scalars: [Unicode.Scalar], at index: Int) -> UInt32? {
        guard index + 6 <= scalars.count, scalars[index] == "\\", scalars[index + 1] == "u" else { return nil }
        var value: UInt32 = 0
        for scalar in scalars[(index + 2)..<(index + 6)] {
            guard let digit = scalar.hexDigitValue else { return nil }
            value = value * 16 + digit
        }
        return value
    }
}
