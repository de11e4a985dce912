import Foundation
import RegimenLanguage

/// What one `when:` column of a decision-table row accepts.
///
/// Written as a value (`days: 3`, `goal: fat_loss`), a list of values (`days: [4, 5]`), a range
/// for numeric inputs (`days: 2-3`), or a comparison (`days: ">= 6"`, `goal: "!= strength"`).
enum ColumnMatcher: Sendable, Hashable {
    case anyOf([Value])
    case range(NumberRange)
    case compare(Comparison, Double)
    case notEqual(Value)

    enum Comparison: String, Sendable, Hashable, CaseIterable {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    func matches(_ value: Value) -> Bool {
        switch self {
        case .anyOf(let values): return values.contains { $0.languageEquals(value) }
        case .notEqual(let other): return !other.languageEquals(value)
        case .range(let range): return value.numberValue.map(range.contains) ?? false
        case .compare(let comparison, let bound):
            guard let number = value.numberValue else { return false }
            switch comparison {
            case .less: return number < bound
            case .lessOrEqual: return number <= bound
            case .greater: return number > bound
            case .greaterOrEqual: return number >= bound
            }
        }
    }

    /// Decodes a column against its input's domain; values outside a finite domain are errors
    /// (they are usually typos that would otherwise never match).
    static func decode(_ node: LocatedNode, input: TableInput, at path: DecodingPath, in context: DecodingContext) -> ColumnMatcher? {
        if let items = node.sequence {
            var values: [Value] = []
            for item in items {
                guard item.scalar != nil, let value = checkedValue(item, input: input, at: path, in: context) else { return nil }
                values.append(value)
            }
            return .anyOf(values)
        }
        guard let scalar = node.scalar else {
            context.wrongType(node, expected: "a value, a list of values, a range or a comparison", at: path)
            return nil
        }
        let text = scalar.text.trimmingCharacters(in: .whitespaces)
        if scalar.plainType == .string || !scalar.style.isPlain {
            for comparison in Comparison.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count }) where text.hasPrefix(comparison.rawValue) {
                guard input.domain.isNumeric else {
                    context.error("rules.wrong-type", path.message("compares with '\(comparison.rawValue)' but input '\(input.name)' is not numeric"), at: node.location)
                    return nil
                }
                let operand = String(text.dropFirst(comparison.rawValue.count)).trimmingCharacters(in: .whitespaces)
                guard let bound = Double(operand), bound.isFinite else {
                    context.error("rules.notation", path.message("needs a number after '\(comparison.rawValue)', not '\(operand)'"), at: node.location)
                    return nil
                }
                return .compare(comparison, bound)
            }
            if text.hasPrefix("!=") {
                let operand = LocatedNode(.scalar(LocatedScalar(String(text.dropFirst(2)).trimmingCharacters(in: .whitespaces))), at: node.location)
                return checkedValue(operand, input: input, at: path, in: context).map { .notEqual($0) }
            }
            if input.domain.isNumeric, scalar.plainType == .string {
                return context.parseNotation(node, at: path, expected: "a range") { text throws(NotationError) in try NumberRange(parsing: text) }
                    .map { .range($0) }
            }
        }
        return checkedValue(node, input: input, at: path, in: context).map { .anyOf([$0]) }
    }

    private static func checkedValue(_ node: LocatedNode, input: TableInput, at path: DecodingPath, in context: DecodingContext) -> Value? {
        var value = node.value()
        // `days: 3` in a column of a string-valued input means the string.
        if case .values(let values) = input.domain, values.allSatisfy({ $0.stringValue != nil }), let text = node.scalar?.text {
            value = .string(text)
        }
        guard input.domain.contains(value) else {
            let known = input.domain.finiteValues?.compactMap(\.stringValue) ?? []
            let suggestion = value.stringValue.map { Suggestion.clause(for: $0, among: known) } ?? ""
            context.error("rules.out-of-range", path.message("is \(value), which input '\(input.name)' never takes (\(input.domain.summary))\(suggestion)"), at: node.location)
            return nil
        }
        return value
    }
}
