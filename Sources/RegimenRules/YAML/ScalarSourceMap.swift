import RegimenLanguage

/// Maps each Unicode scalar of a decoded YAML scalar back to where it is written in the file.
///
/// YAML decoding is not position-preserving: quotes are doubled or escaped, line breaks fold into
/// spaces, block scalars drop their indentation. The mapper re-reads the scalar's raw characters by
/// its style's rules and keeps, for every decoded scalar, the location it came from. The result is
/// checked against the text YAML decoded; if they disagree (an exotic form the mapper does not
/// follow) the caller falls back to a location that is right for the first line.
struct ScalarSourceMap {
    private let lines: [[Unicode.Scalar]]
    private let file: String
    private var line: Int  // 0-based
    private var column: Int  // 0-based
    private var output: [(scalar: Unicode.Scalar, location: SourceLocation, strippable: Bool)] = []

    /// Locations of each scalar of `scalar.text` in the file, or `nil` when they cannot be recovered.
    static func locations(of scalar: LocatedScalar, at start: SourceLocation) -> [SourceLocation]? {
        guard let source = scalar.source, start.file == source.file else { return nil }
        let read = source.rewritten(start)
        var mapper = ScalarSourceMap(lines: source.lines, file: source.file, line: read.line - 1, column: read.column - 1)
        let target = Array(scalar.text.unicodeScalars)
        switch scalar.style {
        case .plain: mapper.readFlow(target: target, quote: nil)
        case .singleQuoted: mapper.advance(); mapper.readFlow(target: target, quote: "'")
        case .doubleQuoted: mapper.advance(); mapper.readFlow(target: target, quote: "\"")
        case .literal: mapper.readBlock(target: target, folded: false)
        case .folded: mapper.readBlock(target: target, folded: true)
        }
        guard mapper.output.count >= target.count,
              zip(mapper.output, target).allSatisfy({ $0.scalar == $1 })
        else { return nil }
        return mapper.output.prefix(target.count).map { source.original($0.location) }
    }

    /// The location of the first character when the decoded text is written verbatim on one line
    /// of the file (no escapes, doubled quotes or folding), so columns map one to one; else `nil`.
    static func linearStart(of scalar: LocatedScalar, at start: SourceLocation) -> SourceLocation? {
        guard let source = scalar.source, start.file == source.file, start.line >= 1, start.line <= source.lines.count,
              source.columnShifts[start.line] == nil  // a rewritten line does not map one to one
        else { return nil }
        let offset: Int
        switch scalar.style {
        case .plain: offset = 0
        case .singleQuoted, .doubleQuoted: offset = 1
        case .literal, .folded: return nil
        }
        let line = source.lines[start.line - 1]
        var column = start.column - 1 + offset
        guard column >= 0 else { return nil }
        for scalar in scalar.text.unicodeScalars {
            guard column < line.count, line[column] == scalar else { return nil }
            column += 1
        }
        // A quoted scalar must close right there; otherwise it continues on the next line.
        if scalar.style != .plain, column >= line.count || line[column] != (scalar.style == .singleQuoted ? "'" : "\"") { return nil }
        if scalar.style == .doubleQuoted, scalar.text.unicodeScalars.contains("\\") { return nil }
        return start.advanced(byColumns: offset)
    }

    /// Where the first character of the scalar's content is, used when exact mapping fails.
    static func contentStart(of scalar: LocatedScalar, at start: SourceLocation) -> SourceLocation {
        switch scalar.style {
        case .plain: return start
        case .singleQuoted, .doubleQuoted: return start.advanced(byColumns: 1)
        case .literal, .folded:
            guard let source = scalar.source, start.line < source.lines.count else { return start }
            for index in start.line..<source.lines.count {
                if let first = source.lines[index].firstIndex(where: { $0 != " " }) {
                    return SourceLocation(file: start.file, line: index + 1, column: first + 1)
                }
            }
            return start
        }
    }

    private var current: [Unicode.Scalar] { line < lines.count ? lines[line] : [] }
    private var atLineEnd: Bool { column >= current.count }
    private var atEnd: Bool { line >= lines.count || (line == lines.count - 1 && atLineEnd) }
    private var location: SourceLocation { SourceLocation(file: file, line: line + 1, column: column + 1) }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = column + ahead
        return index < current.count ? current[index] : nil
    }

    private mutating func advance(_ count: Int = 1) { column += count }

    private mutating func emit(_ scalar: Unicode.Scalar, at location: SourceLocation, strippable: Bool = false) {
        output.append((scalar, location, strippable))
    }

    // MARK: Flow scalars (plain, single- and double-quoted)

    private mutating func readFlow(target: [Unicode.Scalar], quote: Unicode.Scalar?) {
        while output.count < target.count, !atEnd {
            if atLineEnd {
                foldLineBreak(escaped: false)
                continue
            }
            guard let scalar = peek() else { return }
            if quote == "'" && scalar == "'" {
                guard peek(1) == "'" else { return }
                emit("'", at: location)
                advance(2)
            } else if quote == "\"" && scalar == "\"" {
                return
            } else if quote == "\"" && scalar == "\\" {
                if peek(1) == nil {
                    foldLineBreak(escaped: true)
                } else if !readEscape() {
                    return
                }
            } else {
                emit(scalar, at: location, strippable: scalar == " " || scalar == "\t")
                advance()
            }
        }
    }

    /// A line break inside a flow scalar: trailing spaces go, the break becomes a space (or one
    /// newline per empty line that follows), and the next line's indentation goes.
    private mutating func foldLineBreak(escaped: Bool) {
        let breakLocation = location
        while let last = output.last, last.strippable, last.location.line == line + 1 { output.removeLast() }
        var emptyLines: [SourceLocation] = []
        line += 1
        column = 0
        while line < lines.count {
            while let c = peek(), c == " " || c == "\t" { advance() }
            guard atLineEnd else { break }
            emptyLines.append(location)
            line += 1
            column = 0
        }
        if emptyLines.isEmpty {
            if !escaped { emit(" ", at: breakLocation) }
        } else {
            for empty in emptyLines { emit("\n", at: empty) }
        }
    }

    private mutating func readEscape() -> Bool {
        let start = location
        guard let code = peek(1) else { return false }
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{B}",
            "f": "\u{C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
            "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
        ]
        if let decoded = simple[code] {
            emit(decoded, at: start)
            advance(2)
            return true
        }
        let width: Int
        switch code {
        case "x": width = 2
        case "u": width = 4
        case "U": width = 8
        default: return false
        }
        var hex = ""
        for offset in 0..<width {
            guard let digit = peek(2 + offset) else { return false }
            hex.unicodeScalars.append(digit)
        }
        guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return false }
        emit(decoded, at: start)
        advance(2 + width)
        return true
    }

    // MARK: Block scalars (literal and folded)

    private mutating func readBlock(target: [Unicode.Scalar], folded: Bool) {
        // The header (`|`, `>-`, `|2+`, an optional comment) occupies the rest of the start line.
        line += 1
        column = 0
        var indent: Int?
        var contentLines: [(index: Int, text: ArraySlice<Unicode.Scalar>)] = []
        var emptyLines: [Int] = []
        var pendingEmpty: [[Int]] = []  // empty lines preceding each content line
        while line < lines.count {
            let text = lines[line]
            let leading = text.prefix { $0 == " " }.count
            if leading == text.count {
                if let indent, leading > indent {
                    // Whitespace beyond the indentation is content in a literal scalar.
                    pendingEmpty.append(emptyLines)
                    emptyLines = []
                    contentLines.append((line, text[indent...]))
                } else {
                    emptyLines.append(line)
                }
                line += 1
                continue
            }
            if indent == nil { indent = leading }
            guard let indent, leading >= indent else { break }
            pendingEmpty.append(emptyLines)
            emptyLines = []
            contentLines.append((line, text[indent...]))
            line += 1
        }
        let trailingEmpty = emptyLines
        let indentColumn = indent ?? 0
        func start(of lineIndex: Int) -> SourceLocation {
            SourceLocation(file: file, line: lineIndex + 1, column: min(lines[lineIndex].count, indentColumn) + 1)
        }
        for (position, content) in contentLines.enumerated() {
            let before = position < pendingEmpty.count ? pendingEmpty[position] : []
            let previous = position > 0 ? contentLines[position - 1] : nil
            let spaced = content.text.first == " " || content.text.first == "\t"
            if let previous {
                let endOfPrevious = SourceLocation(file: file, line: previous.index + 1, column: indentColumn + previous.text.count + 1)
                let previousSpaced = previous.text.first == " " || previous.text.first == "\t"
                if !folded || spaced || previousSpaced {
                    emit("\n", at: endOfPrevious)
                    for empty in before { emit("\n", at: start(of: empty)) }
                } else if before.isEmpty {
                    emit(" ", at: endOfPrevious)
                } else {
                    for empty in before { emit("\n", at: start(of: empty)) }
                }
            } else {
                for empty in before { emit("\n", at: start(of: empty)) }
            }
            for (offset, scalar) in content.text.enumerated() {
                emit(scalar, at: SourceLocation(file: file, line: content.index + 1, column: indentColumn + offset + 1))
            }
            if output.count >= target.count { return }
        }
        if let last = contentLines.last {
            emit("\n", at: SourceLocation(file: file, line: last.index + 1, column: indentColumn + last.text.count + 1))
        }
        for empty in trailingEmpty { emit("\n", at: start(of: empty)) }
    }
}
