import RegimenLanguage

/// A cursor over the Unicode scalars of a `.rules` file that knows each position's line and
/// column, skips whitespace and comments, and finds where an embedded expression ends.
///
/// The structure of a rules file (service, match, allow, function, let, return) is parsed here;
/// the expressions inside it are cut out as text and handed to the expression compiler.
struct RulesScanner {
    let file: String
    let scalars: [Unicode.Scalar]
    private(set) var index = 0
    private var lineStarts: [Int] = [0]

    init(text: String, file: String) {
        self.file = file
        scalars = Array(text.unicodeScalars)
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" { lineStarts.append(offset + 1) }
    }

    var isAtEnd: Bool { index >= scalars.count }
    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func peek(_ distance: Int) -> Unicode.Scalar? {
        let at = index + distance
        return at < scalars.count ? scalars[at] : nil
    }

    mutating func advance(_ count: Int = 1) { index = min(index + count, scalars.count) }

    mutating func seek(_ offset: Int) { index = min(max(0, offset), scalars.count) }

    /// The file location of a scalar offset.
    func location(of offset: Int) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return SourceLocation(file: file, line: low + 1, column: offset - lineStarts[low] + 1)
    }

    var location: SourceLocation { location(of: index) }

    func text(_ range: Range<Int>) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[range.clamped(to: 0..<scalars.count)])
        return String(out)
    }

    /// Skips spaces, newlines and `//` / `/* */` comments.
    mutating func skipTrivia() {
        while let c = current {
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                advance()
            } else if c == "/", peek(1) == "/" {
                while let d = current, d != "\n" { advance() }
            } else if c == "/", peek(1) == "*" {
                advance(2)
                while !isAtEnd, !(current == "*" && peek(1) == "/") { advance() }
                advance(2)
            } else {
                return
            }
        }
    }

    static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
    static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool { isIdentifierStart(c) || ("0"..."9").contains(c) }

    /// Reads an identifier at the cursor (after trivia), or returns `nil` without moving.
    mutating func identifier() -> String? {
        skipTrivia()
        guard let c = current, Self.isIdentifierStart(c) else { return nil }
        let start = index
        while let d = current, Self.isIdentifierPart(d) { advance() }
        return text(start..<index)
    }

    /// The identifier at the cursor without consuming it.
    mutating func peekIdentifier() -> String? {
        let saved = index
        defer { index = saved }
        return identifier()
    }

    /// Consumes `symbol` if it is next (after trivia).
    mutating func consume(_ symbol: String) -> Bool {
        skipTrivia()
        let wanted = Array(symbol.unicodeScalars)
        guard index + wanted.count <= scalars.count, Array(scalars[index..<(index + wanted.count)]) == wanted else { return false }
        advance(wanted.count)
        return true
    }

    /// Reads a quoted string literal ('…' or "…") and returns its content.
    mutating func stringLiteral() -> String? {
        skipTrivia()
        guard let quote = current, quote == "'" || quote == "\"" else { return nil }
        advance()
        let start = index
        while let c = current, c != quote {
            if c == "\\" { advance() }
            if c == "\n" { return nil }
            advance()
        }
        guard current == quote else { return nil }
        let content = text(start..<index)
        advance()
        return content
    }

    /// Reads the raw text of a match path: `/segment/{wild}/{rest=**}` up to whitespace or the
    /// `{` that opens the block.
    mutating func matchPath() -> (text: String, start: Int)? {
        skipTrivia()
        guard current == "/" else { return nil }
        let start = index
        while let c = current {
            if c == "/" {
                advance()
            } else if c == "{" {
                // A wildcard segment directly after '/', as opposed to the body's opening brace.
                guard index > start, scalars[index - 1] == "/" else { break }
                while let d = current, d != "}", d != "\n" { advance() }
                if current == "}" { advance() }
            } else if c == " " || c == "\t" || c == "\n" || c == "\r" {
                break
            } else {
                advance()
            }
        }
        return (text(start..<index), start)
    }

    /// Finds the end of an expression that starts at the cursor: the first `;`, unbalanced `}`
    /// or `)`, or statement keyword (`allow`, `match`, `function`, `let`, `return`) at nesting
    /// depth zero, outside strings and comments. Returns the trimmed range of the expression.
    ///
    /// Statement keywords end an expression because Firestore accepts an allow condition or a
    /// `return` without its `;` when the next token starts a new statement or closes the block.
    mutating func expressionExtent() -> Range<Int> {
        skipTrivia()
        let start = index
        var depth = 0
        var lastSignificantEnd = start
        while let c = current {
            if c == "'" || c == "\"" {
                let quote = c
                advance()
                while let d = current, d != quote, d != "\n" {
                    if d == "\\" { advance() }
                    advance()
                }
                advance()
                lastSignificantEnd = index
                continue
            }
            if c == "/", peek(1) == "/" || peek(1) == "*" {
                skipTrivia()
                continue
            }
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                advance()
                continue
            }
            if c == "(" || c == "[" || c == "{" {
                depth += 1
            } else if c == ")" || c == "]" || c == "}" {
                if depth == 0 { break }
                depth -= 1
            } else if c == ";", depth == 0 {
                break
            } else if depth == 0, Self.isIdentifierStart(c), index == start || !Self.isIdentifierPart(scalars[index - 1]) {
                let wordStart = index
                while let d = current, Self.isIdentifierPart(d) { advance() }
                let word = text(wordStart..<index)
                let precededByDot = wordStart > 0 && previousNonSpace(before: wordStart) == "."
                if !precededByDot, ["allow", "match", "function", "let", "return"].contains(word), wordStart > start {
                    index = wordStart
                    break
                }
                lastSignificantEnd = index
                continue
            }
            advance()
            lastSignificantEnd = index
        }
        return start..<max(start, lastSignificantEnd)
    }

    private func previousNonSpace(before offset: Int) -> Unicode.Scalar? {
        var i = offset - 1
        while i >= 0 {
            let c = scalars[i]
            if c != " " && c != "\t" && c != "\n" && c != "\r" { return c }
            i -= 1
        }
        return nil
    }

    /// The expression text of `range` with comments blanked to spaces, so offsets still line up
    /// with the file while the expression compiler never sees a comment.
    func expressionSource(_ range: Range<Int>) -> SourceText {
        var out = String.UnicodeScalarView()
        var i = range.lowerBound
        while i < range.upperBound {
            let c = scalars[i]
            if c == "'" || c == "\"" {
                out.append(c)
                i += 1
                while i < range.upperBound, scalars[i] != c, scalars[i] != "\n" {
                    if scalars[i] == "\\", i + 1 < range.upperBound {
                        out.append(scalars[i])
                        i += 1
                    }
                    out.append(scalars[i])
                    i += 1
                }
                if i < range.upperBound {
                    out.append(scalars[i])
                    i += 1
                }
            } else if c == "/", i + 1 < range.upperBound, scalars[i + 1] == "/" {
                while i < range.upperBound, scalars[i] != "\n" {
                    out.append(" ")
                    i += 1
                }
            } else if c == "/", i + 1 < range.upperBound, scalars[i + 1] == "*" {
                while i < range.upperBound, !(scalars[i] == "*" && i + 1 < range.upperBound && scalars[i + 1] == "/") {
                    out.append(scalars[i] == "\n" ? "\n" : " ")
                    i += 1
                }
                let stop = min(i + 2, range.upperBound)
                while i < stop {
                    out.append(" ")
                    i += 1
                }
            } else {
                out.append(c)
                i += 1
            }
        }
        return SourceText(String(out), startingAt: location(of: range.lowerBound))
    }
}
