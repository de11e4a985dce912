/// A zero-width test at a position of the text.
package enum RegexAssertion: Sendable, Hashable {
    /// `\A`, and `^` outside multi-line mode.
    case beginText
    /// `\z`, and `$` outside multi-line mode (only at the very end, not before a final newline).
    case endText
    /// `^` under `(?m)`: at the start or after a newline.
    case beginLine
    /// `$` under `(?m)`: at the end or before a newline.
    case endLine
    /// `\b`: between an ASCII word character and a non-word character (or an end).
    case wordBoundary
    /// `\B`.
    case notWordBoundary
}

/// A parsed regular expression (RE2's grammar); flags are already applied: case folding turned
/// literals into sets, `.` into the set it matches, `^ $` into the assertion they mean.
package indirect enum RegexNode: Sendable, Hashable {
    case empty
    /// One code point from the set (an empty set never matches).
    case set(ScalarSet)
    case assertion(RegexAssertion)
    /// Capturing group number `index` (from 1).
    case capture(index: Int, RegexNode)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// `max == nil` is unbounded.
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)

    /// Whether the node can match the empty string.
    var isNullable: Bool {
        switch self {
        case .empty, .assertion: true
        case .set: false
        case .capture(_, let inner): inner.isNullable
        case .concatenation(let items): items.allSatisfy(\.isNullable)
        case .alternation(let items): items.contains(where: \.isNullable)
        case .repetition(let inner, let min, _, _): min == 0 || inner.isNullable
        }
    }
}
