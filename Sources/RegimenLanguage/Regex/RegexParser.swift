/// Parses a pattern in RE2's grammar (the one Firestore's emulator accepts through RE2/J):
/// literals and escapes, `.`, classes with ranges, POSIX `[[:alpha:]]`, Perl `\d \s \w`,
/// Unicode `\pL \p{Greek} \P{^Lu}`, groups `(…)`, `(?:…)`, `(?P<name>…)`, `(?<name>…)`,
/// flags `(?imsU-imsU)` and `(?flags:…)`, repetition `* + ? {n} {n,} {n,m}` (at most 1000)
/// with lazy `?` suffixes, anchors `^ $ \A \z \b \B` and `\Q…\E`.
///
/// Everything else is an error, as in RE2: lookaround, backreferences, possessive or stacked
/// repetition, `\Z`, `\C`, comments, unknown escapes. The parser is iterative (open groups live
/// on a stack of their own), so a deeply nested pattern cannot exhaust the call stack; nesting
/// is limited to ``maxNesting``.
struct RegexParser {
    /// RE2's limit on a counted repetition.
    static let maxRepeat = 1000
    /// RE2's limit on nesting (groups and repetitions).
    static let maxNesting = 1000

    struct Flags: Hashable {
        var foldCase = false
        var multiLine = false
        var dotMatchesNewline = false
        var ungreedy = false
    }

    /// A group being parsed: the alternatives closed so far and the one being built.
    private struct Frame {
        var capture: Int?
        /// Flags in force before the group opened, restored when it closes.
        var outerFlags: Flags
        var alternatives: [RegexNode] = []
        var items: [RegexNode] = []
        var offset: Int
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var flags = Flags()
    private(set) var captureCount = 0
    private(set) var captureNames: [String: Int] = [:]
    /// Where the pattern relies on RE2/J (Firestore's emulator) rather than RE2 itself.
    private(set) var differencesFromRE2: [String] = []

    init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    private func error(_ message: String, at offset: Int) -> RegexSyntaxError {
        RegexSyntaxError(message: message, offset: offset)
    }

    private var atEnd: Bool { position >= scalars.count }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = position + ahead
        return index < scalars.count ? scalars[index] : nil
    }

    private func text(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range.clamped(to: 0..<scalars.count)])
        return String(view)
    }

    mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        var stack: [Frame] = [Frame(capture: nil, outerFlags: flags, offset: 0)]
        // Where the previous token was a repetition operator, its start: RE2 rejects `a**`.
        var lastRepeat: Int?
        while !atEnd {
            let start = position
            var isRepeat = false
            let c = scalars[position]
            switch c {
            case "(":
                if peek(1) == "?" {
                    if let frame = try parseGroupOpening() {
                        guard stack.count < Self.maxNesting else { throw error("expression nests too deeply", at: start) }
                        stack.append(frame)
                    }
                } else {
                    position += 1
                    guard stack.count < Self.maxNesting else { throw error("expression nests too deeply", at: start) }
                    captureCount += 1
                    stack.append(Frame(capture: captureCount, outerFlags: flags, offset: start))
                }
            case ")":
                guard stack.count > 1, var frame = stack.popLast() else { throw error("unexpected )", at: start) }
                position += 1
                frame.alternatives.append(Self.concatenation(frame.items))
                var node = Self.alternation(frame.alternatives)
                if let index = frame.capture { node = .capture(index: index, node) }
                flags = frame.outerFlags
                stack[stack.count - 1].items.append(node)
            case "|":
                position += 1
                let items = stack[stack.count - 1].items
                stack[stack.count - 1].alternatives.append(Self.concatenation(items))
                stack[stack.count - 1].items = []
            case "*", "+", "?":
                position += 1
                let (min, max): (Int, Int?) = c == "*" ? (0, nil) : c == "+" ? (1, nil) : (0, 1)
                try applyRepetition(min, max, start: start, lastRepeat: lastRepeat, to: &stack[stack.count - 1])
                isRepeat = true
            case "{":
                if let (min, max) = try parseCount() {
                    try applyRepetition(min, max, start: start, lastRepeat: lastRepeat, to: &stack[stack.count - 1])
                    isRepeat = true
                } else {
                    position += 1
                    stack[stack.count - 1].items.append(literal(c.value))
                }
            case "^":
                position += 1
                stack[stack.count - 1].items.append(.assertion(flags.multiLine ? .beginLine : .beginText))
            case "$":
                position += 1
                stack[stack.count - 1].items.append(.assertion(flags.multiLine ? .endLine : .endText))
            case ".":
                position += 1
                var set = ScalarSet.all
                if !flags.dotMatchesNewline { set = ScalarSet([0...9, 11...ScalarSet.maxScalar]) }
                stack[stack.count - 1].items.append(.set(set))
            case "[":
                stack[stack.count - 1].items.append(.set(try parseClass()))
            case "\\":
                stack[stack.count - 1].items.append(contentsOf: try parseTopLevelEscape())
            default:
                position += 1
                stack[stack.count - 1].items.append(literal(c.value))
            }
            lastRepeat = isRepeat ? start : nil
        }
        guard stack.count == 1, var root = stack.popLast() else {
            throw error("missing closing )", at: stack.last?.offset ?? 0)
        }
        root.alternatives.append(Self.concatenation(root.items))
        return Self.alternation(root.alternatives)
    }

    private static func concatenation(_ items: [RegexNode]) -> RegexNode {
        items.count == 1 ? items[0] : items.isEmpty ? .empty : .concatenation(items)
    }

    private static func alternation(_ items: [RegexNode]) -> RegexNode {
        items.count == 1 ? items[0] : .alternation(items)
    }

    private func literal(_ scalar: UInt32) -> RegexNode {
        .set(flags.foldCase ? ScalarSet.single(scalar).caseFolded : .single(scalar))
    }

    private mutating func applyRepetition(_ min: Int, _ max: Int?, start: Int, lastRepeat: Int?, to frame: inout Frame) throws(RegexSyntaxError) {
        var greedy = true
        if peek() == "?" {
            position += 1
            greedy = false
        }
        if flags.ungreedy { greedy.toggle() }
        let operatorText = text(start..<position)
        if let lastRepeat {
            throw error("bad repetition operator: \(text(lastRepeat..<position))", at: lastRepeat)
        }
        guard let operand = frame.items.popLast() else {
            throw error("missing argument to repetition operator: \(operatorText)", at: start)
        }
        frame.items.append(.repetition(operand, min: min, max: max, greedy: greedy))
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current position, or nil (then `{` is a literal).
    private mutating func parseCount() throws(RegexSyntaxError) -> (Int, Int?)? {
        let start = position
        var index = position + 1
        func number() -> Int? {
            let first = index
            var value = 0
            while index < scalars.count, let digit = Self.digit(scalars[index]) {
                value = Swift.min(value * 10 + digit, Int(Int32.max))
                index += 1
            }
            // A number has no leading zero (`a{01}` is literal text).
            if index == first || (index - first > 1 && scalars[first] == "0") { return nil }
            return value
        }
        guard let min = number() else { return nil }
        var max: Int? = min
        if index < scalars.count, scalars[index] == "," {
            index += 1
            if index < scalars.count, scalars[index] == "}" {
                max = nil
            } else {
                guard let upper = number() else { return nil }
                max = upper
            }
        }
        guard index < scalars.count, scalars[index] == "}" else { return nil }
        position = index + 1
        if min > Self.maxRepeat || (max ?? 0) > Self.maxRepeat || max.map({ $0 < min }) == true {
            throw error("invalid repetition size: \(text(start..<position))", at: start)
        }
        return (min, max)
    }

    private static func digit(_ scalar: Unicode.Scalar) -> Int? {
        ("0"..."9").contains(scalar) ? Int(scalar.value - 48) : nil
    }

    /// `(?…` : a non-capturing or named group (returned) or a flag change (nil).
    private mutating func parseGroupOpening() throws(RegexSyntaxError) -> Frame? {
        let start = position
        position += 2
        // Named groups: (?P<name>…) and (?<name>…).
        if peek() == "P" || (peek() == "<" && peek(1) != "=" && peek(1) != "!") {
            if peek() == "P" { position += 1 }
            guard peek() == "<" else { throw error("invalid or unsupported Perl syntax: \(text(start..<Swift.min(position + 1, scalars.count)))", at: start) }
            position += 1
            let nameStart = position
            while let c = peek(), c != ">" { position += 1 }
            guard peek() == ">" else { throw error("invalid named capture group: \(text(start..<position))", at: start) }
            let name = text(nameStart..<position)
            position += 1
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isNameScalar) else {
                throw error("invalid named capture group: \(text(start..<position))", at: start)
            }
            guard captureNames[name] == nil else { throw error("duplicate capture group name: \(name)", at: start) }
            captureCount += 1
            captureNames[name] = captureCount
            return Frame(capture: captureCount, outerFlags: flags, offset: start)
        }
        var newFlags = flags
        var negated = false
        var sawFlag = false
        while let c = peek() {
            position += 1
            switch c {
            case "i": newFlags.foldCase = !negated; sawFlag = true
            case "m": newFlags.multiLine = !negated; sawFlag = true
            case "s": newFlags.dotMatchesNewline = !negated; sawFlag = true
            case "U": newFlags.ungreedy = !negated; sawFlag = true
            case "-":
                guard !negated else { throw error("invalid or unsupported Perl syntax: \(text(start..<position))", at: start) }
                negated = true
                sawFlag = false
            case ":", ")":
                // `(?-)` and `(?i-)` are errors; `(?)` changes nothing and `(?:` is a plain group
                // (RE2 rejects `(?)`, RE2/J accepts it).
                if negated && !sawFlag {
                    throw error("invalid or unsupported Perl syntax: \(text(start..<position))", at: start)
                }
                if c == ")" {
                    if !sawFlag && !negated {
                        differencesFromRE2.append("RE2 rejects the empty flag group '(?)' at code point \(start); RE2/J accepts it")
                    }
                    flags = newFlags
                    return nil
                }
                let frame = Frame(capture: nil, outerFlags: flags, offset: start)
                flags = newFlags
                return frame
            default:
                throw error("invalid or unsupported Perl syntax: \(text(start..<position))", at: start)
            }
        }
        throw error("missing closing ): \(text(start..<position))", at: start)
    }

    /// RE2/J's group names: ASCII letters, digits and `_` (a digit may come first).
    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    // MARK: Escapes

    /// An escape outside a class: an assertion, a class, quoted text or a literal.
    private mutating func parseTopLevelEscape() throws(RegexSyntaxError) -> [RegexNode] {
        let start = position
        guard let c = peek(1) else { throw error("trailing \\", at: start) }
        switch c {
        case "A": position += 2; return [.assertion(.beginText)]
        case "z": position += 2; return [.assertion(.endText)]
        case "b": position += 2; return [.assertion(.wordBoundary)]
        case "B": position += 2; return [.assertion(.notWordBoundary)]
        case "Q":
            position += 2
            var nodes: [RegexNode] = []
            while let q = peek() {
                if q == "\\", peek(1) == "E" {
                    position += 2
                    break
                }
                // Every character up to `\E` is literal, a backslash too (RE2/J, as Go).
                nodes.append(literal(scalars[position].value))
                position += 1
            }
            return nodes
        case "d", "D", "s", "S", "w", "W", "p", "P":
            return [.set(try parseClassEscape() ?? ScalarSet())]
        default:
            return [literal(try parseEscape())]
        }
    }

    /// `\d \s \w \pX \p{Name}` and their negations at the current backslash, folded under
    /// `(?i)` before negation (as RE2 does); nil when the escape is not a class.
    private mutating func parseClassEscape() throws(RegexSyntaxError) -> ScalarSet? {
        let start = position
        guard let c = peek(1) else { return nil }
        var set: ScalarSet
        var negated = false
        switch c {
        case "d", "D":
            set = ScalarSet([48...57])
            negated = c == "D"
        case "s", "S":
            set = ScalarSet([9...10, 12...13, 32...32])
            negated = c == "S"
        case "w", "W":
            set = ScalarSet([48...57, 65...90, 95...95, 97...122])
            negated = c == "W"
        case "p", "P":
            negated = c == "P"
            position += 2
            var name: String
            guard let first = peek() else { throw error("invalid character class range: \(text(start..<position))", at: start) }
            if first == "{" {
                let nameStart = position + 1
                while let n = peek(), n != "}" { position += 1 }
                guard peek() == "}" else { throw error("invalid character class range: \(text(start..<position))", at: start) }
                name = text(nameStart..<position)
                position += 1
            } else {
                name = String(first)
                position += 1
            }
            if name.hasPrefix("^") {
                negated.toggle()
                name.removeFirst()
            }
            guard let named = UnicodeClasses.set(named: name),
                  let folded = flags.foldCase ? UnicodeClasses.caseInsensitiveSet(named: name) : named else {
                throw error("invalid character class range: \(text(start..<position))", at: start)
            }
            // Compared on the code points both Unicode versions know.
            if flags.foldCase, !named.caseFolded.intersection(folded.inverted).intersection(UnicodeClasses.assigned).isEmpty {
                differencesFromRE2.append("under (?i) RE2 matches all case variants of \\p{\(name)}; RE2/J adds only some")
            }
            set = folded
            return negated ? set.inverted : set
        default:
            return nil
        }
        position += 2
        if flags.foldCase { set = set.caseFolded }
        return negated ? set.inverted : set
    }

    /// A literal escape at the current backslash: octal, hex, a control letter or punctuation.
    private mutating func parseEscape() throws(RegexSyntaxError) -> UInt32 {
        let start = position
        position += 1
        guard let c = peek() else { throw error("trailing \\", at: start) }
        position += 1
        func bad() -> RegexSyntaxError { error("invalid escape sequence: \(text(start..<position))", at: start) }
        switch c {
        case "1"..."7":
            // A lone digit would be a backreference, which RE2 does not have.
            guard let next = peek(), ("0"..."7").contains(next) else { throw bad() }
            fallthrough
        case "0":
            var code = c.value - 48
            for _ in 0..<2 {
                guard let next = peek(), ("0"..."7").contains(next) else { break }
                code = code * 8 + next.value - 48
                position += 1
            }
            return code
        case "x":
            if peek() == "{" {
                position += 1
                var code: UInt32 = 0
                var digits = 0
                while let h = peek(), let value = h.hexDigitValue {
                    code = Swift.min(code * 16 + value, 0x110000)
                    digits += 1
                    position += 1
                }
                guard digits > 0, peek() == "}", code <= ScalarSet.maxScalar else {
                    if peek() == "}" { position += 1 }
                    throw bad()
                }
                position += 1
                return code
            }
            guard let h1 = peek(), let d1 = h1.hexDigitValue, let h2 = peek(1), let d2 = h2.hexDigitValue else { throw bad() }
            position += 2
            return d1 * 16 + d2
        case "a": return 7
        case "f": return 12
        case "n": return 10
        case "r": return 13
        case "t": return 9
        case "v": return 11
        default:
            // Any ASCII punctuation stands for itself.
            guard c.isASCII, !c.properties.isAlphabetic, !("0"..."9").contains(c) else { throw bad() }
            return c.value
        }
    }

    // MARK: Classes

    /// `[…]` at the current position.
    private mutating func parseClass() throws(RegexSyntaxError) -> ScalarSet {
        let start = position
        position += 1
        var negated = false
        if peek() == "^" {
            negated = true
            position += 1
        }
        var set = ScalarSet()
        var first = true
        while true {
            guard let c = peek() else { throw error("missing closing ]: \(text(start..<position))", at: start) }
            if c == "]", !first { break }
            first = false
            if c == "[", peek(1) == ":", let posix = try parsePosixClass() {
                set.formUnion(posix)
                continue
            }
            if c == "\\", let escaped = try parseClassEscape() {
                set.formUnion(escaped)
                continue
            }
            let rangeStart = position
            let low = try classCharacter()
            var high = low
            if peek() == "-", let after = peek(1), after != "]" {
                position += 1
                high = try classCharacter()
                guard high >= low else { throw error("invalid character class range: \(text(rangeStart..<position))", at: rangeStart) }
            }
            let range = ScalarSet([low...high])
            set.formUnion(flags.foldCase ? range.caseFolded : range)
        }
        position += 1
        return negated ? set.inverted : set
    }

    private mutating func classCharacter() throws(RegexSyntaxError) -> UInt32 {
        guard let c = peek() else { throw error("missing closing ]", at: position) }
        if c == "\\" { return try parseEscape() }
        position += 1
        return c.value
    }

    /// `[:name:]` or `[:^name:]` inside a class; nil when no `:]` closes it (then `[` is literal).
    private mutating func parsePosixClass() throws(RegexSyntaxError) -> ScalarSet? {
        let start = position
        var index = position + 2
        while index + 1 < scalars.count, !(scalars[index] == ":" && scalars[index + 1] == "]") { index += 1 }
        guard index + 1 < scalars.count else { return nil }
        var name = text((position + 2)..<index)
        let negated = name.hasPrefix("^")
        if negated { name.removeFirst() }
        guard var set = UnicodeClasses.posix(name) else {
            throw error("invalid character class range: \(text(start..<(index + 2)))", at: start)
        }
        position = index + 2
        if flags.foldCase { set = set.caseFolded }
        return negated ? set.inverted : set
    }
}
