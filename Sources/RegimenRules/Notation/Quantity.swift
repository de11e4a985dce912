/// A unit coaches write after a number.
package enum QuantityUnit: String, Sendable, Hashable, CaseIterable {
    case kilograms = "kg"
    case pounds = "lb"
    case percent = "%"
    case seconds = "s"
    case minutes = "min"
    case hours = "h"

    /// What the unit measures; quantities of one dimension convert into each other.
    package enum Dimension: String, Sendable, Hashable {
        case mass
        case ratio
        case time
    }

    package var dimension: Dimension {
        switch self {
        case .kilograms, .pounds: .mass
        case .percent: .ratio
        case .seconds, .minutes, .hours: .time
        }
    }

    /// The spellings accepted for each unit (case-insensitive).
    static let spellings: [String: QuantityUnit] = [
        "kg": .kilograms, "kgs": .kilograms, "lb": .pounds, "lbs": .pounds, "%": .percent,
        "s": .seconds, "sec": .seconds, "secs": .seconds, "min": .minutes, "mins": .minutes,
        "h": .hours, "hr": .hours, "hrs": .hours,
    ]

    /// Factor to the dimension's base unit (kilograms, a fraction of one, seconds).
    /// The pound is defined as exactly 0.45359237 kg.
    var toBase: Double {
        switch self {
        case .kilograms: 1
        case .pounds: 0.453_592_37
        case .percent: 0.01
        case .seconds: 1
        case .minutes: 60
        case .hours: 3600
        }
    }
}

/// A number with a unit: `2.5kg`, `5lb`, `2.5%`, `90s`, `2min`, or a range of them: `2.5-5%`,
/// `60-90s` (the unit written once, after the range, or after both ends).
package struct Quantity: Sendable, Hashable, CustomStringConvertible {
    /// The amount, a single point when `lower == upper`.
    package let amount: NumberRange
    package let unit: QuantityUnit

    package init(_ amount: NumberRange, _ unit: QuantityUnit) {
        self.amount = amount
        self.unit = unit
    }

    /// Parses a quantity; a unit is required.
    /// - Throws: ``NotationError`` at the offending character (for example an unknown unit).
    package init(parsing text: String) throws(NotationError) {
        var scanner = NotationScanner(text)
        scanner.skipSpaces()
        self = try Self.parse(&scanner)
        scanner.skipSpaces()
        guard scanner.atEnd else {
            throw NotationError("unexpected \(scanner.describeNext()) after the quantity", at: scanner.offset)
        }
    }

    static func parse(_ scanner: inout NotationScanner) throws(NotationError) -> Quantity {
        let low = try scanner.number("a number")
        scanner.skipSpaces()
        let firstUnit = try unit(&scanner, required: false)
        let afterFirst = scanner.offset
        scanner.skipSpaces()
        var high = low
        var unit = firstUnit
        if scanner.atRangeDash, scanner.peek(1).map({ NotationScanner.isDigit($0) || $0 == " " }) == true {
            scanner.offset += 1
            scanner.skipSpaces()
            let highStart = scanner.offset
            high = try scanner.number("the upper end of the range")
            scanner.skipSpaces()
            let secondUnitStart = scanner.offset
            let secondUnit = try self.unit(&scanner, required: firstUnit == nil)
            if let firstUnit, let secondUnit, firstUnit != secondUnit {
                throw NotationError("the range mixes units '\(firstUnit.rawValue)' and '\(secondUnit.rawValue)'", at: secondUnitStart)
            }
            unit = firstUnit ?? secondUnit
            guard low.value <= high.value else {
                throw NotationError("range runs backwards: \(NumberRange.format(low.value)) is above \(NumberRange.format(high.value))", at: highStart)
            }
        } else {
            scanner.offset = afterFirst
        }
        guard let unit, let amount = NumberRange(low.value, high.value, integral: low.integral && high.integral) else {
            throw NotationError("expected a unit (\(Self.unitList))", at: scanner.offset)
        }
        return Quantity(amount, unit)
    }

    /// Reads a unit word; `nil` when none is written and `required` is false.
    private static func unit(_ scanner: inout NotationScanner, required: Bool) throws(NotationError) -> QuantityUnit? {
        let start = scanner.offset
        let word = scanner.takeUnitWord()
        if word.isEmpty {
            if required { throw NotationError("expected a unit (\(unitList)), found \(scanner.describeNext())", at: start) }
            return nil
        }
        guard let unit = QuantityUnit.spellings[word.lowercased()] else {
            let suggestion = Suggestion.clause(for: word, among: QuantityUnit.allCases.map(\.rawValue))
            throw NotationError("unknown unit '\(word)'\(suggestion); expected \(unitList)", at: start)
        }
        return unit
    }

    static var unitList: String { QuantityUnit.allCases.map(\.rawValue).joined(separator: ", ") }

    /// The dimension of the unit.
    package var dimension: QuantityUnit.Dimension { unit.dimension }

    /// The amount in the dimension's base unit: kilograms, a fraction (2.5% → 0.025), seconds.
    var baseAmount: NumberRange {
        NumberRange(amount.lower * unit.toBase, amount.upper * unit.toBase, integral: false) ?? amount
    }

    /// A single-point quantity's value in the base unit; the lower bound for a range.
    package var baseValue: Double { amount.lower * unit.toBase }

    /// `2.5kg`, `2.5-5%`, `90s`: the form the parser reads.
    package var description: String { "\(amount)\(unit.rawValue)" }
}
