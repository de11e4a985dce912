/// Why a pattern is not in RE2's grammar, and where (a code point offset into the pattern).
package struct RegexSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    /// Offset of the offending code point in the pattern, counted in Unicode scalars.
    package var offset: Int

    package var description: String { "\(message) (at offset \(offset))" }
}
