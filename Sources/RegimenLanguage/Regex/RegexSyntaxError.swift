/// Why a pattern is not in RE2's grammar, and where (a code point offset into the pattern).
public struct RegexSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// Offset of the offending code point in the pattern, counted in Unicode scalars.
    public var offset: Int

    public var description: String { "\(message) (at offset \(offset))" }
}
