package import RegimenLanguage

/// An input column of a decision table and the values it can take.
///
/// Declared in the table's `inputs:` mapping:
/// ```yaml
/// inputs:
///   days: 1-7                                    # whole numbers 1 to 7 (finite)
///   goal: [fat_loss, hypertrophy, strength]      # one of these values (finite)
///   injured: bool                                # true or false (finite)
///   readiness: number                            # any number (coverage cannot be checked)
///   note: string                                 # any string
/// ```
package struct TableInput: Sendable, Hashable {
    package let name: String
    package let domain: Domain

    /// The values an input may take.
    package enum Domain: Sendable, Hashable {
        /// Exactly these values.
        case values([Value])
        /// Whole numbers in the range.
        case integers(ClosedRange<Int64>)
        case booleans
        case numbers
        case strings

        /// Every value of a finite domain, in order; `nil` when the domain is unbounded.
        var finiteValues: [Value]? {
            switch self {
            case .values(let values): values
            case .integers(let range):
                // Subtract with an overflow check: `count` of a range spanning most of Int64 traps.
                range.upperBound.subtractingReportingOverflow(range.lowerBound).partialValue < 10_000
                    && !range.upperBound.subtractingReportingOverflow(range.lowerBound).overflow
                    ? range.map { .int($0) } : nil
            case .booleans: [.bool(false), .bool(true)]
            case .numbers, .strings: nil
            }
        }

        /// The domain of a variable declared with `type`: finite only for `bool`.
        init(_ type: ExpressionType) {
            switch type.base {
            case .bool: self = .booleans
            case .int: self = .integers(Int64.min...Int64.max)
            case .float, .number: self = .numbers
            case .string: self = .strings
            default: self = .values([])
            }
        }

        /// The type a condition's compiler checks the input's values against.
        var expressionType: ExpressionType {
            switch self {
            case .booleans: .bool
            case .integers: .int
            case .numbers: .number
            case .strings: .string
            case .values(let values):
                if !values.isEmpty, values.allSatisfy({ $0.stringValue != nil }) { .string }
                else if !values.isEmpty, values.allSatisfy({ if case .int = $0 { true } else { false } }) { .int }
                else if !values.isEmpty, values.allSatisfy({ $0.numberValue != nil }) { .number }
                else if !values.isEmpty, values.allSatisfy({ $0.boolValue != nil }) { .bool }
                else { .any }
            }
        }

        /// Whether the domain's values are numbers (so ranges and `<`, `>=` apply).
        var isNumeric: Bool {
            switch self {
            case .integers, .numbers: true
            case .values(let values): !values.isEmpty && values.allSatisfy { $0.numberValue != nil }
            case .booleans, .strings: false
            }
        }

        /// Whether `value` belongs to the domain.
        func contains(_ value: Value) -> Bool {
            switch self {
            case .values(let values): values.contains { $0.languageEquals(value) }
            case .integers(let range):
                if let number = value.numberValue, number.rounded() == number, let int = Int64(exactly: number) { range.contains(int) } else { false }
            case .booleans: value.boolValue != nil
            case .numbers: value.numberValue != nil
            case .strings: value.stringValue != nil
            }
        }

        var summary: String {
            switch self {
            case .values(let values): values.map(\.description).joined(separator: ", ")
            case .integers(let range): "\(range.lowerBound)-\(range.upperBound)"
            case .booleans: "true, false"
            case .numbers: "any number"
            case .strings: "any string"
            }
        }
    }

    static func decode(name: String, node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> TableInput? {
        if let items = node.sequence {
            guard !items.isEmpty else {
                context.error("rules.wrong-type", path.message("must list at least one value"), at: node.location)
                return nil
            }
            var values: [Value] = []
            for item in items {
                guard item.scalar != nil else {
                    context.wrongType(item, expected: "a plain value", at: path)
                    return nil
                }
                let value = item.value()
                if values.contains(where: { $0.languageEquals(value) }) {
                    context.error("rules.duplicate-id", path.message("lists \(value) twice"), at: item.location)
                }
                values.append(value)
            }
            return TableInput(name: name, domain: .values(values))
        }
        switch node.scalar?.text {
        case "bool"?: return TableInput(name: name, domain: .booleans)
        case "number"?: return TableInput(name: name, domain: .numbers)
        case "string"?: return TableInput(name: name, domain: .strings)
        default: break
        }
        guard let range = NumberRange.decode(from: node, at: path, in: context) else { return nil }
        guard let bounds = range.integerBounds else {
            context.error("rules.wrong-type", path.message("must be whole-number bounds such as 1-7, a list of values, or bool, number, string"), at: node.location)
            return nil
        }
        return TableInput(name: name, domain: .integers(Int64(bounds.lowerBound)...Int64(bounds.upperBound)))
    }
}
