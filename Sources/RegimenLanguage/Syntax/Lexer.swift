/// Turns rules-language source into tokens on demand.
///
/// The parser drives the lexer one token at a time because `/` starts a path literal where an
/// operand is expected and means division elsewhere; path segments are scanned raw through
/// ``scanPathSegment()``. Offsets are Unicode-scalar offsets, matching ``SourceSpan``.
package struct Lexer: Sendable {
    package let scalars: [Unicode.Scalar]
    private(set) var position: Int

    init(_ text: String, startingAt offset: Int = 0) {
        scalars = Array(text.unicodeScalars)
        position = offset
    }

    var isAtEnd: Bool { position >= scalars.count }

    private func peekScalar(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = position + ahead
        return index >= 0 && index < scalars.count ? scalars[index] : nil
    }

    /// Moves to `offset` (used by a parser that backtracks or resumes after an embedded expression).
    package mutating func reset(to offset: Int) { position = offset }

    mutating func skipTrivia() {
        while let c = peekScalar() {
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                position += 1
            } else if c == "/", peekScalar(1) == "/" {
                while let d = peekScalar(), d != "\n" { position += 1 }
            } else if c == "/", peekScalar(1) == "*" {
                position += 2
                while position < scalars.count, !(peekScalar() == "*" && peekScalar(1) == "/") { position += 1 }
                position = Swift.min(position + 2, scalars.count)
            } else {
                return
            }
        }
    }

    /// The next token, consuming it.
    package mutating func next() -> Token {
        skipTrivia()
        let start = position
        guard let c = peekScalar() else { return Token(kind: .endOfInput, span: SourceSpan(start: start, end: start)) }
        func make(_ kind: Token.Kind) -> Token { Token(kind: kind, span: SourceSpan(start: start, end: position)) }

        if c.properties.isAlphabetic || c == "_" {
            // Prefixed literals: b'..' bytes, r'..' raw strings.
            if (c == "b" || c == "B"), let q = peekScalar(1), q == "'" || q == "\"" {
                position += 1
                return make(scanString(raw: false, bytes: true, start: start))
            }
            if (c == "r" || c == "R"), let q = peekScalar(1), q == "'" || q == "\"" {
                position += 1
                return make(scanString(raw: true, bytes: false, start: start))
            }
            var name = String.UnicodeScalarView()
            while let d = peekScalar(), d.properties.isAlphabetic || d == "_" || ("0"..."9").contains(d) {
                name.append(d)
                position += 1
            }
            return make(.identifier(String(name)))
        }
        if ("0"..."9").contains(c) { return make(scanNumber()) }
        if c == "'" || c == "\"" { return make(scanString(raw: false, bytes: false, start: start)) }

        position += 1
        let next = peekScalar()
        func two(_ symbol: Token.Symbol) -> Token {
            position += 1
            return make(.symbol(symbol))
        }
        switch c {
        case "(": return make(.symbol(.leftParen))
        case ")": return make(.symbol(.rightParen))
        case "[": return make(.symbol(.leftBracket))
        case "]": return make(.symbol(.rightBracket))
        case "{": return make(.symbol(.leftBrace))
        case "}": return make(.symbol(.rightBrace))
        case ",": return make(.symbol(.comma))
        case ".": return make(.symbol(.dot))
        case ":": return make(.symbol(.colon))
        case ";": return make(.symbol(.semicolon))
        case "?": return make(.symbol(.question))
        case "+": return make(.symbol(.plus))
        case "-": return make(.symbol(.minus))
        case "*": return make(.symbol(.star))
        case "/": return make(.symbol(.slash))
        case "%": return make(.symbol(.percent))
        case "!": return next == "=" ? two(.bangEqual) : make(.symbol(.bang))
        case "<": return next == "=" ? two(.lessEqual) : make(.symbol(.less))
        case ">": return next == "=" ? two(.greaterEqual) : make(.symbol(.greater))
        case "=": return next == "=" ? two(.equalEqual) : make(.symbol(.equal))
        case "&": return next == "&" ? two(.ampAmp) : make(.invalid("unexpected character '&' (did you mean '&&'?)"))
        case "|": return next == "|" ? two(.pipePipe) : make(.invalid("unexpected character '|' (did you mean '||'?)"))
        case "$": return next == "(" ? two(.dollarParen) : make(.invalid("unexpected character '$'"))
        default: return make(.invalid("unexpected character '\(c.escaped(asASCII: false))'"))
        }
    }

    private mutating func scanNumber() -> Token.Kind {
        var text = ""
        if peekScalar() == "0", let x = peekScalar(1), x == "x" || x == "X" {
            position += 2
            while let d = peekScalar(), d.properties.isASCIIHexDigit {
                text.unicodeScalars.append(d)
                position += 1
            }
            guard let value = UInt64(text, radix: 16), value <= UInt64(Int64.max) else {
                return .invalid("invalid hexadecimal integer literal")
            }
            if peekScalar() == "u" || peekScalar() == "U" { position += 1 }
            return .int(Int64(value))
        }
        var isFloat = false
        while let d = peekScalar(), ("0"..."9").contains(d) {
            text.unicodeScalars.append(d)
            position += 1
        }
        if peekScalar() == ".", let d = peekScalar(1), ("0"..."9").contains(d) {
            isFloat = true
            text.append(".")
            position += 1
            while let d = peekScalar(), ("0"..."9").contains(d) {
                text.unicodeScalars.append(d)
                position += 1
            }
        }
        if let e = peekScalar(), e == "e" || e == "E" {
            var lookahead = 1
            if let s = peekScalar(1), s == "+" || s == "-" { lookahead = 2 }
            if let d = peekScalar(lookahead), ("0"..."9").contains(d) {
                // Firestore rejects exponents in number literals (emulator 1.19.9: `1e3` is
                // "Unexpected 'e3'"), so a rule that works here would fail to deploy; and in a
                // coach formula `bmr * 1e18` is more likely a slip than a wish. Refused, located.
                for _ in 0..<lookahead { position += 1 }
                while let d = peekScalar(), ("0"..."9").contains(d) { position += 1 }
                return .invalid("number literals have no exponent in Firestore rules ('\(text)e…'); write the number out in full")
            }
        }
        if isFloat {
            guard let value = Double(text) else { return .invalid("invalid float literal '\(text)'") }
            return .float(value)
        }
        if peekScalar() == "u" || peekScalar() == "U" { position += 1 }
        guard let value = Int64(text) else { return .invalid("integer literal '\(text)' is out of the 64-bit range") }
        return .int(value)
    }

    private mutating func scanString(raw: Bool, bytes: Bool, start: Int) -> Token.Kind {
        guard let quote = peekScalar() else { return .invalid("unterminated string literal") }
        position += 1
        var out = String.UnicodeScalarView()
        var byteValues: [UInt8] = []
        func append(_ scalar: Unicode.Scalar) {
            if bytes { byteValues.append(contentsOf: Array(String(scalar).utf8)) } else { out.append(scalar) }
        }
        while true {
            guard let c = peekScalar(), c != "\n" else { return .invalid("unterminated string literal") }
            position += 1
            if c == quote { break }
            if c == "\\" && !raw {
                guard let e = peekScalar() else { return .invalid("unterminated string literal") }
                position += 1
                switch e {
                case "n": append("\n")
                case "t": append("\t")
                case "r": append("\r")
                case "a": append("\u{07}")
                case "b": append("\u{08}")
                case "f": append("\u{0C}")
                case "v": append("\u{0B}")
                case "\\", "'", "\"", "`", "?": append(e)
                case "x", "X", "u", "U":
                    let count = (e == "x" || e == "X") ? 2 : (e == "u" ? 4 : 8)
                    var digits = ""
                    for _ in 0..<count {
                        guard let d = peekScalar(), d.properties.isASCIIHexDigit else {
                            return .invalid("invalid escape sequence in string literal")
                        }
                        digits.unicodeScalars.append(d)
                        position += 1
                    }
                    guard let code = UInt32(digits, radix: 16) else { return .invalid("invalid escape sequence") }
                    if bytes && count == 2 {
                        byteValues.append(UInt8(code & 0xFF))
                    } else if let scalar = Unicode.Scalar(code) {
                        append(scalar)
                    } else {
                        return .invalid("invalid Unicode escape in string literal")
                    }
                case "0"..."7":
                    var digits = String(e)
                    for _ in 0..<2 {
                        guard let d = peekScalar(), ("0"..."7").contains(d) else {
                            return .invalid("invalid octal escape in string literal")
                        }
                        digits.unicodeScalars.append(d)
                        position += 1
                    }
                    guard let code = UInt32(digits, radix: 8), code <= 255 else { return .invalid("invalid octal escape") }
                    if bytes {
                        byteValues.append(UInt8(code))
                    } else if let scalar = Unicode.Scalar(code) {
                        append(scalar)
                    }
                default:
                    return .invalid("invalid escape sequence '\\\(e)' in string literal")
                }
            } else {
                append(c)
            }
        }
        return bytes ? .bytes(byteValues) : .string(String(out))
    }

    /// Scans one raw path segment (`users`, `(default)`, `{userId}` excluded) after a `/`.
    /// Stops at `/`, `$(`, whitespace or a character that cannot be part of a segment.
    mutating func scanPathSegment() -> (text: String, span: SourceSpan) {
        let start = position
        var text = String.UnicodeScalarView()
        while let c = peekScalar() {
            let allowed = c.properties.isAlphabetic || ("0"..."9").contains(c)
                || c == "_" || c == "-" || c == "~" || c == "%" || c == "@" || c == "+" || c == "."
                || (c == "(" && text.isEmpty && peekScalar(-1) != "$")
                || (c == ")" && String(text).hasPrefix("("))
            guard allowed else { break }
            text.append(c)
            position += 1
        }
        return (String(text), SourceSpan(start: start, end: position))
    }

    /// The next scalar without consuming it, for the parser's path scanning.
    func peekCharacter() -> Unicode.Scalar? { peekScalar() }

    /// Consumes one scalar.
    mutating func advance() { position += 1 }
}
