package import Foundation
package import RegimenLanguage
internal import Yams

/// Reads YAML text into a ``LocatedNode`` tree. The only place in Regimen that talks to Yams.
///
/// Syntax errors, duplicate mapping keys, multiple documents and documents too deep or too large
/// become ``Diagnostic``s with the file, line and column; reading never traps on bad input.
package enum YAMLReader {
    /// Nesting deeper than this is refused before parsing, so a hostile file cannot exhaust the stack.
    static let maximumDepth = 200
    /// Alias expansion beyond this many nodes is refused (the "billion laughs" document).
    static let maximumNodeCount = 1_000_000

    /// The outcome of reading one file: the document (absent when empty or unreadable) and every
    /// problem found.
    package struct Result: Sendable {
        package var document: LocatedNode?
        package var diagnostics: [Diagnostic]
    }

    /// Parses `text`, the contents of `file`, as a single YAML document.
    /// - Parameters:
    ///   - text: The YAML source.
    ///   - file: The path used in locations (as the user should see it).
    package static func read(_ text: String, file: String) -> Result {
        // A UTF-8 byte order mark (Windows editors write one) is not content: YAML 1.2 allows it
        // at the start, but libyaml then misreads a mapping that begins on the first line.
        // Columns stay as an editor shows them, which does not display the mark.
        if text.unicodeScalars.first == "\u{FEFF}" { return read(String(text.unicodeScalars.dropFirst()), file: file) }
        // A JSON document (a request body, a profile) is read without libyaml, into the same tree.
        if let document = LocatedJSONReader.read(text, file: file) { return Result(document: document, diagnostics: []) }
        return readThroughLibYAML(text, file: file)
    }

    /// ``read(_:file:)`` through libyaml, whatever the text.
    static func readThroughLibYAML(_ text: String, file: String) -> Result {
        // JSON's surrogate-pair escapes and raw U+0085/U+2028/U+2029 in strings, in terms libyaml reads alike.
        let rewritten = JSONStringEscapes.rewrite(text)
        let text = rewritten?.text ?? text
        let source = YAMLSourceLines(file: file, text: text, columnShifts: rewritten?.shifts ?? [:])
        if let tooDeep = firstLineExceedingDepth(source) {
            return Result(document: nil, diagnostics: [
                .error("yaml.too-deep", "document nests deeper than \(maximumDepth) levels",
                       at: SourceLocation(file: file, line: tooDeep, column: 1)),
            ])
        }
        let root: Node?
        do {
            // The encoding given, not `.default`, which reads the whole environment on every call.
            root = try Yams.compose(yaml: text, .basic, .default, .utf8)
        } catch let error as YamlError {
            return Result(document: nil, diagnostics: [diagnostic(for: error, source: source)])
        } catch {
            return Result(document: nil, diagnostics: [
                .error("yaml.syntax", "cannot read YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1)),
            ])
        }
        guard let root else { return Result(document: nil, diagnostics: []) }
        var converter = Converter(source: source)
        let document = converter.convert(root)
        if converter.exceededBudget {
            return Result(document: nil, diagnostics: [
                .error("yaml.too-large", "document has more than \(maximumNodeCount) nodes (an alias counts once per use)",
                       at: SourceLocation(file: file, line: 1, column: 1)),
            ])
        }
        return Result(document: document, diagnostics: [])
    }

    /// Reads the file at `url`; `displayPath` is how locations name it.
    package static func read(contentsOf url: URL, displayPath: String) -> Result {
        do {
            return read(try InputFile.read(url, displayPath: displayPath), file: displayPath)
        } catch {
            return Result(document: nil, diagnostics: error.diagnostics)
        }
    }

    // MARK: - Errors

    private static func diagnostic(for error: YamlError, source: YAMLSourceLines) -> Diagnostic {
        let file = source.file
        func at(_ mark: Mark) -> SourceLocation { source.original(SourceLocation(file: file, line: mark.line, column: mark.column)) }
        func describe(_ context: YamlError.Context?, _ problem: String) -> String {
            guard let context else { return problem }
            return "\(problem) (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _):
            return .error("yaml.syntax", "yaml syntax error: \(describe(context, problem))", at: at(mark))
        case let .composer(context, problem, mark, _):
            if problem.contains("another document") {
                return .error("yaml.multiple-documents", "a rule file holds one YAML document; found a second one", at: at(mark))
            }
            return .error("yaml.syntax", "yaml error: \(describe(context, problem))", at: at(mark))
        case let .duplicatedKeysInMapping(duplicates, context):
            let key = duplicates.sorted().first ?? ""
            let read = SourceLocation(file: file, line: context.mark.line, column: context.mark.column)
            let first = source.original(read)
            let second = secondOccurrence(ofKey: key, after: read, in: source).map(source.original) ?? first
            return .error("yaml.duplicate-key", "duplicate key '\(key)'", at: second,
                          notes: second == first ? [] : ["first defined at \(first)"])
        case let .reader(problem, offset, _, yaml):
            let location = offset.flatMap { locationOfCharacter($0, in: yaml, file: file) } ?? SourceLocation(file: file, line: 1, column: 1)
            return .error("yaml.encoding", "cannot read YAML: \(problem)", at: location)
        default:
            return .error("yaml.syntax", "cannot read YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    /// Yams reports a duplicate at the first occurrence; the mistake is usually the later one, so look
    /// for the same key written at the same column further down.
    private static func secondOccurrence(ofKey key: String, after first: SourceLocation, in source: YAMLSourceLines) -> SourceLocation? {
        let keyScalars = Array(key.unicodeScalars)
        guard !keyScalars.isEmpty, first.line < source.lines.count else { return nil }
        for lineIndex in first.line..<source.lines.count {
            let line = source.lines[lineIndex]
            let start = first.column - 1
            guard start >= 0, start + keyScalars.count <= line.count else { continue }
            guard Array(line[start..<(start + keyScalars.count)]) == keyScalars else { continue }
            let rest = line[(start + keyScalars.count)...].drop { $0 == " " }
            if rest.first == ":" {
                return SourceLocation(file: source.file, line: lineIndex + 1, column: first.column)
            }
        }
        return nil
    }

    private static func locationOfCharacter(_ offset: Int, in text: String, file: String) -> SourceLocation? {
        var line = 1
        var column = 1
        for (index, character) in text.enumerated() {
            if index == offset { return SourceLocation(file: file, line: line, column: column) }
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return nil
    }

    /// An over-estimate of nesting: indentation, the block-sequence dashes that open the line
    /// (`- - x`) and open flow brackets. A dash elsewhere (a date, an id, a minus sign in a
    /// one-line JSON body) opens nothing. Real files stay far below the limit; only hostile input
    /// reaches it.
    private static func firstLineExceedingDepth(_ source: YAMLSourceLines) -> Int? {
        var flowDepth = 0
        for (index, line) in source.lines.enumerated() {
            var depth = 0
            var leading = true
            for (position, scalar) in line.enumerated() {
                let opensSequence = scalar == "-" && leading && (position + 1 == line.count || line[position + 1] == " ")
                switch scalar {
                case " " where leading: depth += 1
                case "-" where opensSequence: depth += 1
                case "[", "{": flowDepth += 1
                case "]", "}": flowDepth = max(0, flowDepth - 1)
                default: break
                }
                if scalar != " " && !opensSequence { leading = false }
                if depth / 2 + flowDepth > maximumDepth { return index + 1 }
            }
        }
        return nil
    }

    // MARK: - Conversion

    private struct Converter {
        let source: YAMLSourceLines
        var nodeCount = 0
        var exceededBudget = false

        init(source: YAMLSourceLines) { self.source = source }

        mutating func convert(_ node: Node) -> LocatedNode {
            nodeCount += 1
            let location = contentLocation(node.mark)
            if nodeCount > YAMLReader.maximumNodeCount {
                exceededBudget = true
                return LocatedNode(.scalar(LocatedScalar("", style: .plain, source: nil)), at: location)
            }
            switch node {
            case .scalar(let scalar):
                let style = Self.style(scalar.style)
                let rawTag = scalar.tag.rawValue
                // Quoting makes a scalar a string implicitly; that is not a tag the author wrote.
                let explicitTag: String? = rawTag.isEmpty || (rawTag == Tag.Name.str.rawValue && !style.isPlain) ? nil : rawTag
                var located = LocatedScalar(scalar.string, style: style, source: source)
                located.explicitlyString = explicitTag == Tag.Name.str.rawValue || explicitTag == "!"
                return LocatedNode(.scalar(located), at: location, tag: explicitTag)
            case .sequence(let sequence):
                var items: [LocatedNode] = []
                items.reserveCapacity(sequence.count)
                for item in sequence where !exceededBudget { items.append(convert(item)) }
                return LocatedNode(.sequence(items), at: location, tag: Self.explicitTag(sequence.tag))
            case .mapping(let mapping):
                var pairs: [LocatedPair] = []
                pairs.reserveCapacity(mapping.count)
                var merged: [LocatedPair] = []
                for (key, value) in mapping where !exceededBudget {
                    let located = LocatedPair(key: convert(key), value: convert(value))
                    if located.key.scalar?.text == "<<", located.key.scalar?.style == .plain, let sources = Self.mergeSources(located.value) {
                        for source in sources { merged.append(contentsOf: source) }
                    } else {
                        pairs.append(located)
                    }
                }
                // YAML merge keys (`<<: *base`): explicit keys win, then earlier merged mappings.
                var present = Set(pairs.compactMap { $0.key.scalar?.text })
                for pair in merged {
                    guard let key = pair.key.scalar?.text, present.insert(key).inserted else { continue }
                    pairs.append(pair)
                }
                return LocatedNode(.mapping(pairs), at: location, tag: Self.explicitTag(mapping.tag))
            case .alias:
                // The composer resolves aliases to their anchored node; a bare alias cannot reach here.
                return LocatedNode(.scalar(LocatedScalar("", style: .plain, source: source)), at: location)
            }
        }

        /// libyaml marks a node at its first property (`&anchor`, `!tag`); step past those so the
        /// location is the content itself.
        func contentLocation(_ mark: Mark?) -> SourceLocation {
            guard let mark else { return SourceLocation(file: source.file, line: 1, column: 1) }
            var line = mark.line
            var column = mark.column
            while let first = source.scalar(line: line, column: column), first == "&" || first == "!" {
                while let c = source.scalar(line: line, column: column), c != " ", c != "\t" { column += 1 }
                while let c = source.scalar(line: line, column: column), c == " " || c == "\t" { column += 1 }
                if source.scalar(line: line, column: column) == nil, line < source.lines.count {
                    // Properties alone on a line: the content starts on the next non-blank line.
                    line += 1
                    column = 1
                    while let c = source.scalar(line: line, column: column), c == " " { column += 1 }
                }
            }
            return source.original(SourceLocation(file: source.file, line: line, column: column))
        }

        /// The mappings a `<<` key merges: one mapping or a list of mappings; `nil` for anything
        /// else, which then stays an ordinary key and is reported by the decoder.
        static func mergeSources(_ node: LocatedNode) -> [[LocatedPair]]? {
            if let pairs = node.mapping { return [pairs] }
            guard let items = node.sequence else { return nil }
            let mappings = items.compactMap(\.mapping)
            return mappings.count == items.count ? mappings : nil
        }

        static func explicitTag(_ tag: Tag) -> String? {
            let raw = tag.rawValue
            return raw.isEmpty || raw == "!" ? nil : raw
        }

        static func style(_ style: Node.Scalar.Style) -> ScalarStyle {
            switch style {
            case .singleQuoted: .singleQuoted
            case .doubleQuoted: .doubleQuoted
            case .literal: .literal
            case .folded: .folded
            case .plain, .any: .plain
            }
        }
    }
}
