/// Small text helpers that several readers and writers share: hexadecimal digits for the escape
/// readers (regular expressions, JSON) and markup escaping for the HTML and XML reports.
extension Unicode.Scalar {
    /// The value of this scalar as a hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), else `nil`.
    package var hexDigitValue: UInt32? {
        switch self {
        case "0"..."9": value - 48
        case "a"..."f": value - 87
        case "A"..."F": value - 55
        default: nil
        }
    }
}

package enum MarkupText {
    /// `text` safe inside HTML or XML content and double-quoted attribute values: `&`, `<`, `>`
    /// and `"` become entities (a `'` needs none there, and reports keep it readable).
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
