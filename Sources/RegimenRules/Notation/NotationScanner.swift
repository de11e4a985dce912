/// A problem in coach notation, at a Unicode-scalar offset inside the notation text.
package struct NotationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Lower-case, no trailing period.
    package var message: String
    /// Where in the text the problem is (Unicode scalars from the start).
    package var offset: Int

    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    package var description: String { "column \(offset + 1): \(message)" }
}

/// A cursor over notation text with the small lexical pieces every notation shares.
struct NotationScanner {
    let scalars: [Unicode.Scalar]
    var offset = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    var atEnd: Bool { offset >= scalars.count }
    var peek: Unicode.Scalar? { offset < scalars.count ? scalars[offset] : nil }

    func peek(_ ahead: Int) -> Unicode.Scalar? {
        offset + ahead < scalars.count ? scalars[offset + ahead] : nil
    }

    mutating func skipSpaces() {
        while let c = peek, c == " " || c == "\t" { offset += 1 }
    }

    /// Consumes `scalar` if it is next.
    mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        offset += 1
        return true
    }

    /// Consumes `word` case-insensitively if it is next.
    mutating func take(word: String) -> Bool {
        let wordScalars = Array(word.lowercased().unicodeScalars)
        guard offset + wordScalars.count <= scalars.count else { return false }
        for (index, scalar) in wordScalars.enumerated() where String(scalars[offset + index]).lowercased() != String(scalar) {
            return false
        }
        offset += wordScalars.count
        return true
    }

    /// The letters (and `%`) starting here, consumed.
    mutating func takeUnitWord() -> String {
        var word = ""
        while let c = peek, c.properties.isAlphabetic || c == "%" {
            word.unicodeScalars.append(c)
            offset += 1
            if c == "%" { break }
        }
        return word
    }

    static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return ("0"..."9").contains(scalar)
    }

    /// Whether a range separator (`-`, en dash, em dash) is next.
    var atRangeDash: Bool { peek == "-" || peek == "\u{2013}" || peek == "\u{2014}" }

    /// Whether a minus sign (ASCII or U+2212) starts a negative number here.
    var atSignedNumber: Bool {
        if peek == "-" || peek == "\u{2212}" || peek == "+" { return Self.isDigit(peek(1)) || (peek(1) == "." && Self.isDigit(peek(2))) }
        return Self.isDigit(peek) || (peek == "." && Self.isDigit(peek(1)))
    }

    /// A decimal number: optional sign, digits, optional fraction. Returns the value and whether it
    /// was written without a fraction.
    mutating func number(_ what: String) throws(NotationError) -> (value: Double, integral: Bool) {
        let start = offset
        var text = ""
        if peek == "-" || peek == "\u{2212}" {
            text = "-"
            offset += 1
        } else if peek == "+" {
            offset += 1
        }
        var digits = 0
        while Self.isDigit(peek), let c = peek {
            text.unicodeScalars.append(c)
            offset += 1
            digits += 1
        }
        var integral = true
        if peek == ".", Self.isDigit(peek(1)) {
            integral = false
            text += "."
            offset += 1
            while Self.isDigit(peek), let c = peek {
                text.unicodeScalars.append(c)
                offset += 1
                digits += 1
            }
        }
        guard digits > 0, let value = Double(text), value.isFinite else {
            offset = start
            throw NotationError("expected \(what), found \(describeNext())", at: start)
        }
        return (value, integral)
    }

    /// `'x'` for the next character, or `end of text`.
    func describeNext() -> String {
        guard let peek else { return "end of text" }
        return "'\(peek)'"
    }
}
