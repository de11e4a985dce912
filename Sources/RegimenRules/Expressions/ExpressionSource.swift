package import RegimenLanguage

/// An expression written in a YAML scalar, as a ``SourceText`` whose locations point at the
/// scalar's own characters in the file, whatever the scalar's style.
///
/// For plain scalars, literal `|` blocks and quoted scalars without escapes, the `SourceText`'s
/// line origins are already exact. Where YAML decoding shifts characters (escapes, doubled
/// quotes, folded lines), ``correcting(_:)`` moves a compiler diagnostic to the exact character
/// and ``location(ofScalarOffset:)`` does the same for an evaluation error's span.
package struct ExpressionSource: Sendable {
    /// The text to compile, with line origins in the file.
    package let sourceText: SourceText
    /// The file location of every Unicode scalar of the text, plus one past the end.
    private let exact: [SourceLocation]?

    /// The expression held by a scalar node; `nil` when `node` is not a scalar.
    package init?(_ node: LocatedNode) {
        guard let scalar = node.scalar else { return nil }
        let text = scalar.text
        if let start = ScalarSourceMap.linearStart(of: scalar, at: node.location) {
            // The common case: the text stands in the file exactly as decoded, on one line.
            self.exact = nil
            self.sourceText = SourceText(text, lineOrigins: [start])
        } else if let locations = ScalarSourceMap.locations(of: scalar, at: node.location) {
            var exact = locations
            // "End of input" belongs right after the last character written, not after the line
            // break a block scalar adds.
            let lastWritten = zip(text.unicodeScalars, locations).reversed().first { $0.0 != "\n" }?.1
            exact.append(lastWritten.map { $0.advanced(byColumns: 1) } ?? ScalarSourceMap.contentStart(of: scalar, at: node.location))
            self.exact = exact
            self.sourceText = SourceText(text, lineOrigins: Self.lineOrigins(of: text, exact: exact))
        } else {
            self.exact = nil
            self.sourceText = SourceText(text, startingAt: ScalarSourceMap.contentStart(of: scalar, at: node.location))
        }
    }

    /// A free-standing expression (a command-line argument), located only within itself.
    package init(text: String) {
        self.sourceText = SourceText(text)
        self.exact = nil
    }

    /// The expression text.
    package var text: String { sourceText.text }

    /// The file location of the scalar at `offset` (Unicode scalars from the start of the text).
    package func location(ofScalarOffset offset: Int) -> SourceLocation? {
        if let exact, offset >= 0 { return exact[min(offset, exact.count - 1)] }
        return sourceText.location(ofScalarOffset: offset)
    }

    /// `diagnostic` with its location moved from the line-origin estimate to the exact character.
    ///
    /// Compilers locate errors through ``SourceText/location(ofScalarOffset:)``; this finds the
    /// offset that produced the reported location and replaces it with the exact one.
    package func correcting(_ diagnostic: Diagnostic) -> Diagnostic {
        guard let exact, let reported = diagnostic.location else { return diagnostic }
        var corrected = diagnostic
        for offset in 0..<exact.count where sourceText.location(ofScalarOffset: offset) == reported {
            corrected.location = exact[offset]
            return corrected
        }
        return diagnostic
    }

    /// Line origins for `text` from the exact locations: the location of each line's first scalar.
    private static func lineOrigins(of text: String, exact: [SourceLocation]) -> [SourceLocation] {
        var origins: [SourceLocation] = []
        var startOfLine = true
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if startOfLine, offset < exact.count { origins.append(exact[offset]) }
            startOfLine = scalar == "\n"
        }
        if startOfLine, let last = exact.last { origins.append(last) }
        return origins
    }
}
