import RegimenLanguage

/// An inclusive range of numbers as coaches write it: `8-12`, `8–12`, `0.80-0.90`, or a single
/// number `10` (a range of one point).
package struct NumberRange: Sendable, Hashable, CustomStringConvertible {
    package let lower: Double
    package let upper: Double
    /// Whether both bounds were written as whole numbers (reps, sets, days).
    let isIntegral: Bool

    /// A range; `lower` must not exceed `upper`.
    package init?(_ lower: Double, _ upper: Double, integral: Bool? = nil) {
        guard lower <= upper, lower.isFinite, upper.isFinite else { return nil }
        self.lower = lower
        self.upper = upper
        self.isIntegral = integral ?? (lower.rounded() == lower && upper.rounded() == upper)
    }

    /// Parses `8-12`, `8–12` (en dash), `8 - 12`, `-5--2`, `2.5` …
    /// - Throws: ``NotationError`` at the offending character.
    package init(parsing text: String) throws(NotationError) {
        var scanner = NotationScanner(text)
        scanner.skipSpaces()
        self = try Self.parse(&scanner, what: "a number")
        scanner.skipSpaces()
        guard scanner.atEnd else {
            throw NotationError("unexpected \(scanner.describeNext()) after the range", at: scanner.offset)
        }
    }

    /// Parses a range at the scanner, leaving it after the range.
    static func parse(_ scanner: inout NotationScanner, what: String) throws(NotationError) -> NumberRange {
        let low = try scanner.number(what)
        let afterLow = scanner.offset
        scanner.skipSpaces()
        guard scanner.atRangeDash else {
            scanner.offset = afterLow
            return NumberRange(uncheckedLower: low.value, upper: low.value, integral: low.integral)
        }
        scanner.offset += 1
        scanner.skipSpaces()
        let highStart = scanner.offset
        let high = try scanner.number("the upper end of the range")
        guard low.value <= high.value else {
            throw NotationError("range runs backwards: \(format(low.value)) is above \(format(high.value))", at: highStart)
        }
        return NumberRange(uncheckedLower: low.value, upper: high.value, integral: low.integral && high.integral)
    }

    private init(uncheckedLower lower: Double, upper: Double, integral: Bool) {
        self.lower = lower
        self.upper = upper
        self.isIntegral = integral
    }

    /// The midpoint.
    var middle: Double { (lower + upper) / 2 }

    /// Whether `value` lies within the bounds.
    package func contains(_ value: Double) -> Bool { value >= lower && value <= upper }

    /// `value` moved into the range.
    func clamp(_ value: Double) -> Double { min(max(value, lower), upper) }

    /// The bounds as integers, when the range is integral.
    package var integerBounds: ClosedRange<Int>? {
        guard isIntegral, let low = Int(exactly: lower), let high = Int(exactly: upper) else { return nil }
        return low...high
    }

    /// `8-12`, or `10` for a single point; the same form the parser reads.
    package var description: String {
        lower == upper ? Self.format(lower) : "\(Self.format(lower))-\(Self.format(upper))"
    }

    static func format(_ value: Double) -> String { NumberText.plain(value) }
}
