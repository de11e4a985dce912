/// `matches`, `split` and `replace`: RE2's grammar and semantics (``RegularExpression``), in
/// time linear in the text. A pattern outside the grammar is an evaluation error worded as the
/// emulator words it.
enum Patterns {
    static func compile(_ pattern: String, _ span: SourceSpan) throws(EvaluationError) -> RegularExpression {
        do {
            return try RegularExpression.cached(pattern)
        } catch {
            throw EvaluationError(.invalidArgument, "Invalid regular expression pattern. Pattern: \(pattern).", span: span)
        }
    }

    static func wholeMatch(_ text: String, _ pattern: String, budget: Int, _ span: SourceSpan) throws(EvaluationError) -> Bool {
        let regex = try compile(pattern, span)
        var steps = 0
        guard let matched = regex.wholeMatch(text, budget: budget, steps: &steps) else { throw workExceeded(budget, span) }
        return matched
    }

    private static func workExceeded(_ budget: Int, _ span: SourceSpan) -> EvaluationError {
        EvaluationError(.limitExceeded, "Regular expression work exceeded its bound of \(budget) steps.", span: span)
    }

    /// Splits like Java's `String.split`: the pieces between successive matches, trailing empty
    /// pieces dropped (one piece always stays).
    /// More than `maxParts` pieces is an error found as the pieces are found, before they are
    /// all built; empty pieces are only counted until a later piece shows they are not trailing.
    static func split(_ text: String, _ pattern: String, maxParts: Int, budget: Int, _ span: SourceSpan) throws(EvaluationError) -> [String] {
        let regex = try compile(pattern, span)
        let scalars = text.unicodeScalars.map(\.value)
        var parts: [String] = []
        var pendingEmpty = 0
        var last = 0
        var tooMany = false
        func add(_ piece: ArraySlice<UInt32>) -> Bool {
            guard !piece.isEmpty else {
                pendingEmpty += 1
                return true
            }
            guard parts.count + pendingEmpty < maxParts else { return false }
            parts.append(contentsOf: repeatElement("", count: pendingEmpty))
            pendingEmpty = 0
            parts.append(Self.string(piece))
            return true
        }
        var steps = 0
        let finished = regex.forEachMatch(in: scalars, budget: budget, steps: &steps) { slots in
            defer { last = slots[1] }
            if add(scalars[last..<slots[0]]) { return true }
            tooMany = true
            return false
        }
        if tooMany || !add(scalars[last...]) {
            throw EvaluationError(.limitExceeded, "Collection exceeds the maximum size of \(maxParts).", span: span)
        }
        guard finished else { throw workExceeded(Swift.min(budget, regex.workBound(textLength: scalars.count)), span) }
        // Trailing empty pieces are dropped; one piece always stays.
        if parts.isEmpty { parts.append("") }
        return parts
    }

    /// Replaces every match (Java's `Matcher.replaceAll` over RE2/J): in the replacement `$n`
    /// is group n (as many digits as name a group), `${name}` a named group and `\x` a literal
    /// `x`; a `$` followed by anything else, and a final backslash, are themselves. A group the
    /// pattern lacks is an error. A result past `maxLength` UTF-8 bytes stops the work as soon as
    /// it gets there (`s.replace('', r)` grows with the product of both lengths).
    static func replace(_ text: String, _ pattern: String, _ replacement: String, maxLength: Int, budget: Int, _ span: SourceSpan) throws(EvaluationError) -> String {
        let regex = try compile(pattern, span)
        let template = try Template(replacement, regex.program, span)
        let scalars = text.unicodeScalars.map(\.value)
        // UTF-8 bytes, not a `String.UnicodeScalarView`: appending many short pieces to a view
        // reallocated it to the exact size each time (quadratic: `replace('', 'z')` on 7 MB).
        var out: [UInt8] = []
        var last = 0
        var length = 0
        var steps = 0
        let finished = regex.forEachMatch(in: scalars, budget: budget, steps: &steps) { slots in
            length += Self.append(scalars[last..<slots[0]], to: &out)
            length += template.append(slots, scalars, to: &out)
            last = slots[1]
            return length <= maxLength
        }
        guard length <= maxLength else { throw Self.tooLong(maxLength, span) }
        guard finished else { throw workExceeded(Swift.min(budget, regex.workBound(textLength: scalars.count)), span) }
        length += Self.append(scalars[last...], to: &out)
        guard length <= maxLength else { throw Self.tooLong(maxLength, span) }
        return String(decoding: out, as: UTF8.self)
    }

    static func tooLong(_ maxLength: Int, _ span: SourceSpan) -> EvaluationError {
        EvaluationError(.limitExceeded, "String exceeds the maximum length of \(maxLength) bytes.", span: span)
    }

    /// Appends the code points and returns how many UTF-8 bytes they take.
    @discardableResult
    private static func append(_ scalars: ArraySlice<UInt32>, to out: inout [UInt8]) -> Int {
        let before = out.count
        for value in scalars {
            guard let scalar = Unicode.Scalar(value) else { continue }
            UTF8.encode(scalar) { out.append($0) }
        }
        return out.count - before
    }

    private static func string(_ scalars: ArraySlice<UInt32>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(scalars.count)
        append(scalars, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A parsed replacement: literal text and group references.
    private struct Template {
        enum Piece {
            case text([UInt8])
            case group(Int)
        }

        var pieces: [Piece] = []

        init(_ replacement: String, _ program: RegexProgram, _ span: SourceSpan) throws(EvaluationError) {
            let template = Array(replacement.unicodeScalars)
            var literal = String.UnicodeScalarView()
            func flush(_ pieces: inout [Piece]) {
                if !literal.isEmpty { pieces.append(.text(Array(String(literal).utf8))) }
                literal = String.UnicodeScalarView()
            }
            var index = 0
            while index < template.count {
                let c = template[index]
                if c == "\\", index + 1 < template.count {
                    literal.append(template[index + 1])
                    index += 2
                } else if c == "$", index + 1 < template.count, let first = Self.digit(template[index + 1]) {
                    var group = first
                    index += 2
                    while index < template.count, let digit = Self.digit(template[index]), group * 10 + digit <= program.captureCount {
                        group = group * 10 + digit
                        index += 1
                    }
                    guard group <= program.captureCount else {
                        throw EvaluationError(.invalidArgument, "Invalid replacement: the pattern has no group \(group).", span: span)
                    }
                    flush(&pieces)
                    pieces.append(.group(group))
                } else if c == "$", index + 1 < template.count, template[index + 1] == "{" {
                    var end = index + 2
                    while end < template.count, template[end] != "}" { end += 1 }
                    var name = String.UnicodeScalarView()
                    name.append(contentsOf: template[(index + 2)..<Swift.min(end, template.count)])
                    guard end < template.count, let group = program.captureNames[String(name)] else {
                        throw EvaluationError(.invalidArgument, "Invalid replacement: the pattern has no group named '\(String(name))'.", span: span)
                    }
                    flush(&pieces)
                    pieces.append(.group(group))
                    index = end + 1
                } else {
                    literal.append(c)
                    index += 1
                }
            }
            flush(&pieces)
        }

        private static func digit(_ scalar: Unicode.Scalar) -> Int? {
            ("0"..."9").contains(scalar) ? Int(scalar.value - 48) : nil
        }

        /// Appends the replacement for one match; returns its length in UTF-8 bytes.
        func append(_ slots: [Int], _ scalars: [UInt32], to out: inout [UInt8]) -> Int {
            var length = 0
            for piece in pieces {
                switch piece {
                case .text(let text):
                    out.append(contentsOf: text)
                    length += text.count
                case .group(let group):
                    let start = slots[2 * group], end = slots[2 * group + 1]
                    // A group that took no part in the match adds nothing.
                    guard start >= 0, end >= start else { continue }
                    length += Patterns.append(scalars[start..<end], to: &out)
                }
            }
            return length
        }
    }
}
