package import RegimenLanguage

/// A YAML node with the file location of its first character, independent of the YAML library.
///
/// Locations are 1-based lines and columns counted in Unicode scalars (see ``SourceLocation``).
/// For a scalar the location is its first character (the opening quote of a quoted scalar, the
/// `|`/`>` indicator of a block scalar); for a collection it is where the collection starts.
/// Aliases are expanded, so the tree has no cycles and can be shared freely across threads.
package struct LocatedNode: Sendable, Equatable, CustomStringConvertible {
    /// The node's content.
    package enum Content: Sendable, Equatable {
        case scalar(LocatedScalar)
        case sequence([LocatedNode])
        case mapping([LocatedPair])
    }

    package var content: Content
    /// Where the node starts (after any anchor or tag property).
    package var location: SourceLocation
    /// An explicit tag written in the file (`!expr`, `!!str`), or `nil` when the tag is implicit.
    package var tag: String?

    package init(_ content: Content, at location: SourceLocation, tag: String? = nil) {
        self.content = content
        self.location = location
        self.tag = tag
    }

    /// The scalar, or `nil` for a collection.
    package var scalar: LocatedScalar? { if case .scalar(let s) = content { s } else { nil } }
    /// The elements of a sequence, or `nil` for anything else.
    package var sequence: [LocatedNode]? { if case .sequence(let items) = content { items } else { nil } }
    /// The key/value pairs of a mapping in file order, or `nil` for anything else.
    package var mapping: [LocatedPair]? { if case .mapping(let pairs) = content { pairs } else { nil } }

    /// The value of the first pair whose key is the scalar `key`.
    package subscript(key: String) -> LocatedNode? {
        mapping?.first { $0.key.scalar?.text == key }?.value
    }

    /// What kind of node this is, as messages name it: `a string`, `a mapping`, `a list`, `null`.
    package var kindDescription: String {
        switch content {
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .scalar(let scalar):
            switch scalar.plainType {
            case .null: "null"
            case .bool: "a boolean"
            case .int: "an integer"
            case .float: "a number"
            case .string: "a string"
            }
        }
    }

    package var description: String {
        switch content {
        case .scalar(let s): s.text
        case .sequence(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .mapping(let pairs): "{" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// One `key: value` entry of a mapping. The key carries its own location, so an unknown key is
/// reported where it is written.
package struct LocatedPair: Sendable, Equatable {
    package var key: LocatedNode
    package var value: LocatedNode

    package init(key: LocatedNode, value: LocatedNode) {
        self.key = key
        self.value = value
    }
}

/// How a scalar was written, which decides how its characters map back to the file.
package enum ScalarStyle: String, Sendable, Hashable {
    case plain
    case singleQuoted
    case doubleQuoted
    /// `|` block scalar: line breaks kept.
    case literal
    /// `>` block scalar: line breaks folded into spaces.
    case folded

    /// Quoted and block scalars are always strings; only plain scalars are typed by their text.
    package var isPlain: Bool { self == .plain }
}

/// A scalar's text as YAML decoded it, its style, and a handle on the file it came from so an
/// embedded expression can map each character back to its line and column.
package struct LocatedScalar: Sendable, Equatable {
    /// The decoded text (escapes resolved, lines folded as YAML prescribes).
    package var text: String
    package var style: ScalarStyle
    /// The whole file the scalar came from, for character-exact locations; `nil` for synthesized nodes.
    let source: YAMLSourceLines?
    /// Set when the author tagged a plain scalar `!!str` (or `!`), which makes it a string whatever it says.
    var explicitlyString = false

    package init(_ text: String, style: ScalarStyle = .plain) {
        self.text = text
        self.style = style
        self.source = nil
    }

    init(_ text: String, style: ScalarStyle, source: YAMLSourceLines?) {
        self.text = text
        self.style = style
        self.source = source
    }

    package static func == (lhs: LocatedScalar, rhs: LocatedScalar) -> Bool {
        lhs.text == rhs.text && lhs.style == rhs.style
    }

    /// The YAML 1.2 core-schema type of the scalar: quoted and block scalars are strings; a plain
    /// scalar is null, a boolean, an integer or a float when its text says so.
    ///
    /// YAML 1.1's `yes`/`no`/`on`/`off` booleans are deliberately *not* recognised: a coach who
    /// writes `country: NO` or `flag: on` means the word, and 1.2 agrees.
    package var plainType: PlainScalarType {
        guard style.isPlain, !explicitlyString else { return .string }
        return PlainScalarType(classifying: text)
    }
}

/// The lines of a YAML file as arrays of Unicode scalars, shared by every scalar of the file.
final class YAMLSourceLines: Sendable {
    let file: String
    let lines: [[Unicode.Scalar]]
    /// Where the text libyaml read differs in length from the file on a line (a JSON escape
    /// rewritten): locations are moved back to the file's own columns through these.
    let columnShifts: [Int: [JSONStringEscapes.ColumnShift]]

    init(file: String, text: String, columnShifts: [Int: [JSONStringEscapes.ColumnShift]] = [:]) {
        self.file = file
        self.columnShifts = columnShifts
        // Line breaks as libyaml counts them (CR, LF, CRLF, NEL, LS, PS), so line numbers agree
        // with the marks it reports.
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if scalar == "\n" { continue }
            }
            switch scalar {
            case "\r":
                afterCarriageReturn = true
                fallthrough
            case "\n", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append(current)
                current = []
            default:
                current.append(scalar)
            }
        }
        lines.append(current)
        self.lines = lines
    }

    /// `location` (in the text libyaml read) as a location in the file the user wrote.
    func original(_ location: SourceLocation) -> SourceLocation {
        guard let shifts = columnShifts[location.line],
              let shift = shifts.last(where: { $0.column <= location.column }) else { return location }
        return SourceLocation(file: location.file, line: location.line, column: max(1, location.column + shift.delta))
    }

    /// `location` in the file as a location in the text libyaml read (the inverse of ``original(_:)``).
    func rewritten(_ location: SourceLocation) -> SourceLocation {
        guard let shifts = columnShifts[location.line] else { return location }
        for shift in shifts.reversed() where location.column - shift.delta >= shift.column {
            return SourceLocation(file: location.file, line: location.line, column: location.column - shift.delta)
        }
        return location
    }

    /// The scalar at 1-based `line` and `column`, or `nil` past the end of the line.
    func scalar(line: Int, column: Int) -> Unicode.Scalar? {
        guard line >= 1, line <= lines.count else { return nil }
        let text = lines[line - 1]
        guard column >= 1, column <= text.count else { return nil }
        return text[column - 1]
    }
}
