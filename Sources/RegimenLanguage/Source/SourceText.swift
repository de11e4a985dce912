/// Expression text together with where each of its lines starts in the enclosing file.
///
/// An expression embedded in a YAML scalar (or in a `.rules` file) is compiled on its own, but its
/// diagnostics must point into the file. `lineOrigins[i]` is the file location of the first scalar
/// of line `i` of `text`; a one-line expression needs one origin.
package struct SourceText: Sendable, Hashable {
    /// The expression source exactly as compiled.
    package let text: String
    /// File location of the first scalar of each line of `text`; empty when the text has no file.
    package let lineOrigins: [SourceLocation]

    package init(_ text: String, lineOrigins: [SourceLocation] = []) {
        self.text = text
        self.lineOrigins = lineOrigins
    }

    /// Text that starts at `origin` and continues on the following lines at column 1.
    package init(_ text: String, startingAt origin: SourceLocation) {
        var origins = [origin]
        var line = origin.line
        for scalar in text.unicodeScalars where scalar == "\n" {
            line += 1
            origins.append(SourceLocation(file: origin.file, line: line, column: 1))
        }
        self.init(text, lineOrigins: origins)
    }

    /// The file location of the scalar at `offset` (in Unicode scalars from the start of `text`),
    /// or `nil` when the text has no file origin.
    package func location(ofScalarOffset offset: Int) -> SourceLocation? {
        guard let first = lineOrigins.first else { return nil }
        var lineIndex = 0
        var column = 0
        var index = 0
        for scalar in text.unicodeScalars {
            if index == offset { break }
            if scalar == "\n" {
                lineIndex += 1
                column = 0
            } else {
                column += 1
            }
            index += 1
        }
        let origin = lineIndex < lineOrigins.count ? lineOrigins[lineIndex] : first
        return origin.advanced(byColumns: column)
    }

    /// 1-based line and column inside `text` itself, for messages about free-standing expressions.
    func lineAndColumn(ofScalarOffset offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var index = 0
        for scalar in text.unicodeScalars {
            if index == offset { break }
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }
}

/// A half-open range of Unicode-scalar offsets into a ``SourceText``.
package struct SourceSpan: Sendable, Hashable {
    package var start: Int
    package var end: Int

    package init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// The smallest span covering both.
    package func union(_ other: SourceSpan) -> SourceSpan {
        SourceSpan(start: Swift.min(start, other.start), end: Swift.max(end, other.end))
    }
}
