/// String helpers that follow Java's `String`, which the emulator runs on: UTF-16 code units for
/// size, indexing and ordering; ASCII-only case mapping; `trim()` of characters up to U+0020.
enum Strings {
    /// A string from UTF-16 code units; a lone surrogate (half of an emoji) becomes U+FFFD because
    /// a Swift string cannot hold it.
    static func fromUTF16<C: Collection>(_ units: C) -> String where C.Element == UInt16 {
        String(decoding: units, as: UTF16.self)
    }

    static func lowercasedASCII(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32) ?? $0 : $0 }))
    }

    static func uppercasedASCII(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { ("a"..."z").contains($0) ? Unicode.Scalar($0.value - 32) ?? $0 : $0 }))
    }

    static func trimmedJava(_ s: String) -> String {
        let scalars = Array(s.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, scalars[start].value <= 0x20 { start += 1 }
        while end > start, scalars[end - 1].value <= 0x20 { end -= 1 }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    /// Java's `Double.toString`: plain notation for 1e-3 ≤ |x| < 1e7, otherwise `d.dddE±n`, always
    /// with a fractional digit, using the shortest digits that round-trip.
    static func javaDouble(_ x: Double) -> String {
        if x.isNaN { return "NaN" }
        if x.isInfinite { return x < 0 ? "-Infinity" : "Infinity" }
        if x == 0 { return x.sign == .minus ? "-0.0" : "0.0" }
        let magnitude = Swift.abs(x)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            let text = "\(x)"
            if text.contains("e") {
                // Swift may use exponent form inside Java's plain range (e.g. 1e-03); expand it.
                return plainDecimal(x)
            }
            return text.contains(".") ? text : text + ".0"
        }
        // Shortest round-trip digits and exponent from Swift's description.
        let (digits, exponent) = decimalDigits(magnitude)
        var mantissa = String(digits.prefix(1)) + "."
        let rest = digits.dropFirst()
        mantissa += rest.isEmpty ? "0" : String(rest)
        return (x < 0 ? "-" : "") + mantissa + "E" + String(exponent)
    }

    /// The shortest significant digits of `x` (> 0) and its decimal exponent (x = d.ddd × 10^e).
    private static func decimalDigits(_ x: Double) -> (String, Int) {
        let text = "\(x)"
        var mantissa = text
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = String(text[..<e])
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integer = parts.first.map(String.init) ?? "0"
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = integer + fraction
        var pointExponent = integer.count - 1 + exponent
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            pointExponent -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        return (digits, pointExponent)
    }

    private static func plainDecimal(_ x: Double) -> String {
        let (digits, exponent) = decimalDigits(Swift.abs(x))
        var text: String
        if exponent < 0 {
            text = "0." + String(repeating: "0", count: -exponent - 1) + digits
        } else if digits.count > exponent + 1 {
            let index = digits.index(digits.startIndex, offsetBy: exponent + 1)
            text = String(digits[..<index]) + "." + String(digits[index...])
        } else {
            text = digits + String(repeating: "0", count: exponent + 1 - digits.count) + ".0"
        }
        return (x < 0 ? "-" : "") + text
    }
}
