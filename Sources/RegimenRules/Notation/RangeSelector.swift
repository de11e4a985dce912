import RegimenLanguage

/// How a rule picks one point of a range: `low`, `mid` or `high`, or an expression over `low`,
/// `mid`, `high` and whatever variables the rule kind provides (`low + (high - low) * readiness / 5`).
///
/// The chosen point is always clamped into the range: a selector picks *within* the range a
/// coach wrote, it cannot widen it.
enum RangeSelector: Sendable {
    case low
    case middle
    case high
    case expression(CompiledExpression)

    /// The variables a selector expression sees before the caller's own.
    static let rangeVariables = ["low", "mid", "high"]

    /// The point of `range` this selector picks, clamped into the range.
    /// - Parameter bindings: Values for the extra variables the selector was compiled with.
    /// - Throws: ``EvaluationError`` when the expression fails or is not a number.
    package func select(in range: NumberRange, bindings: [String: Value] = [:]) throws(EvaluationError) -> Double {
        switch self {
        case .low: return range.lower
        case .middle: return range.middle
        case .high: return range.upper
        case .expression(let expression):
            var all = bindings
            all["low"] = .float(range.lower)
            all["mid"] = .float(range.middle)
            all["high"] = .float(range.upper)
            let value = try expression.evaluate(all)
            guard let number = value.numberValue, number.isFinite else {
                throw EvaluationError(.typeError, "range selector must give a number, not \(value.typeName)")
            }
            return range.clamp(number)
        }
    }

    /// The point as a whole number for integral ranges (sets, reps): rounded down, so a selector
    /// halfway through 6-15 prescribes 10, never more than the coach's midpoint.
    func selectWhole(in range: NumberRange, bindings: [String: Value] = [:]) throws(EvaluationError) -> Int {
        let point = try select(in: range, bindings: bindings)
        return Int(exactly: point.rounded(.down)) ?? range.lower.saturatingInt(.down)
    }

    /// Decodes `low`, `mid` (or `middle`), `high`, or an expression compiled with
    /// ``rangeVariables`` followed by `variables`.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext, variables: [String] = []) -> RangeSelector? {
        switch node.scalar?.text {
        case "low"?: return .low
        case "mid"?, "middle"?: return .middle
        case "high"?: return .high
        default:
            let environment = context.environment(variables: rangeVariables + variables)
            return context.compileExpression(node, at: path, in: environment).map { .expression($0) }
        }
    }
}
