import OrderedCollections
/// The operators of the language with Firestore's typing rules: int/float mix to float, integer
/// overflow and division by zero are errors, strings concatenate, timestamps and durations add.
enum Operators {
    static func negate(_ value: Value, _ span: SourceSpan) throws(EvaluationError) -> Value {
        switch value {
        case .int(let i):
            guard i != .min else { throw EvaluationError.overflow(span) }
            return .int(-i)
        case .float(let f):
            return .float(-f)
        case .duration(let d):
            return .duration(DurationValue(seconds: -d.seconds, nanos: -d.nanos))
        default:
            throw EvaluationError.unsupported("-", value, span)
        }
    }

    static func arithmetic(_ op: BinaryOperator, _ lhs: Value, _ rhs: Value, _ span: SourceSpan, _ limits: EvaluationLimits) throws(EvaluationError) -> Value {
        switch (lhs, rhs) {
        case let (.int(a), .int(b)):
            return .int(try integer(op, a, b, span))
        case let (.float(a), .float(b)):
            return try float(op, a, b, span)
        case let (.int(a), .float(b)):
            return try float(op, Double(a), b, span)
        case let (.float(a), .int(b)):
            return try float(op, a, Double(b), span)
        case let (.string(a), .string(b)) where op == .add:
            guard a.utf8.count + b.utf8.count <= limits.maxStringLength else {
                throw EvaluationError(.limitExceeded, "String exceeds the maximum length of \(limits.maxStringLength) bytes.", span: span)
            }
            return .string(a + b)
        case let (.duration(a), .duration(b)) where op == .add || op == .subtract:
            return .duration(try Time.add(a, op == .add ? b : Time.negated(b), span))
        case let (.timestamp(t), .duration(d)) where op == .add || op == .subtract:
            return .timestamp(try Time.add(t, op == .add ? d : Time.negated(d), span))
        case let (.duration(d), .timestamp(t)) where op == .add:
            return .timestamp(try Time.add(t, d, span))
        case let (.timestamp(a), .timestamp(b)) where op == .subtract:
            return .duration(try Time.difference(a, b, span))
        default:
            throw EvaluationError.unsupported(lhs, op.rawValue, rhs, span)
        }
    }

    private static func integer(_ op: BinaryOperator, _ a: Int64, _ b: Int64, _ span: SourceSpan) throws(EvaluationError) -> Int64 {
        let (result, overflow): (Int64, Bool)
        switch op {
        case .add: (result, overflow) = a.addingReportingOverflow(b)
        case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
        case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
        case .divide:
            guard b != 0 else { throw EvaluationError(.divideByZero, "Divide by zero error.", span: span) }
            // Java semantics: Long.MIN_VALUE / -1 wraps to Long.MIN_VALUE without an error.
            return a.dividedReportingOverflow(by: b).partialValue
        case .remainder:
            guard b != 0 else { throw EvaluationError(.divideByZero, "Divide by zero error.", span: span) }
            return a.remainderReportingOverflow(dividingBy: b).partialValue
        default:
            throw EvaluationError.unsupported("int \(op.rawValue) int", span)
        }
        guard !overflow else { throw EvaluationError.overflow(span) }
        return result
    }

    private static func float(_ op: BinaryOperator, _ a: Double, _ b: Double, _ span: SourceSpan) throws(EvaluationError) -> Value {
        switch op {
        case .add: return .float(a + b)
        case .subtract: return .float(a - b)
        case .multiply: return .float(a * b)
        case .divide: return .float(a / b)
        // Remainder has the sign of the dividend, and by zero is NaN, as Java's `%` on doubles.
        case .remainder: return .float(a.truncatingRemainder(dividingBy: b))
        default: throw EvaluationError.unsupported("float \(op.rawValue) float", span)
        }
    }

    /// `a op b` for `+`, `-` and `*` when it fits in 64 bits; `nil` for every other case, which
    /// ``arithmetic(_:_:_:_:_:)`` then decides (and reports).
    @inline(__always)
    static func exactInteger(_ op: BinaryOperator, _ a: Int64, _ b: Int64) -> Int64? {
        let (result, overflow): (Int64, Bool)
        switch op {
        case .add: (result, overflow) = a.addingReportingOverflow(b)
        case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
        case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
        default: return nil
        }
        return overflow ? nil : result
    }

    /// `lhs op rhs` for two ints (`op` is one of the ordering operators).
    @inline(__always)
    static func holds(_ op: BinaryOperator, _ lhs: Int64, _ rhs: Int64) -> Bool {
        switch op {
        case .less: lhs < rhs
        case .lessEqual: lhs <= rhs
        case .greater: lhs > rhs
        default: lhs >= rhs
        }
    }

    static func compare(_ op: BinaryOperator, _ lhs: Value, _ rhs: Value, _ span: SourceSpan) throws(EvaluationError) -> Bool {
        let order: Int
        switch (lhs, rhs) {
        case (.constraint, _), (_, .constraint):
            return try constrained(op, lhs, rhs, span)
        case let (.int(a), .int(b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case let (.string(a), .string(b)):
            // Java compares UTF-16 code units, not Unicode canonical order.
            order = a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : (a.utf16.elementsEqual(b.utf16) ? 0 : 1)
        case let (.timestamp(a), .timestamp(b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case let (.duration(a), .duration(b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case let (.bytes(a), .bytes(b)): order = a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
        default:
            guard let a = lhs.numberValue, let b = rhs.numberValue else {
                throw EvaluationError.unsupported(lhs, op.rawValue, rhs, span)
            }
            // NaN is unordered: every comparison with it is false.
            if a.isNaN || b.isNaN { return false }
            order = a < b ? -1 : (a == b ? 0 : 1)
        }
        switch op {
        case .less: return order < 0
        case .lessEqual: return order <= 0
        case .greater: return order > 0
        default: return order >= 0
        }
    }

    static func contains(_ element: Value, _ container: Value, _ span: SourceSpan) throws(EvaluationError) -> Bool {
        switch container {
        case .constraint(let constraint):
            guard let found = constraint.containsElement(element) else {
                throw EvaluationError(.unsupportedOperation, "The query does not prove that the field holds \(element).", span: span)
            }
            return found
        // Lists compare strictly (`1.0 in [1]` is false); sets treat 1 and 1.0 as one element.
        case .list(let items): return items.contains(element)
        case .set(let set): return set.contains(element)
        case .map(let map):
            guard case .string(let key) = element else {
                throw EvaluationError.unsupported("map.in(\(element.typeName))", span)
            }
            return map[key] != nil
        case .null:
            throw EvaluationError.nullValue(span)
        default:
            throw EvaluationError.functionNotFound("in", span)
        }
    }
}

extension Operators {
    /// `a == b` / `a != b` as the rules see them: when a side is a list query's constraint the
    /// comparison must be proved by it (see ``QueryConstraint``), otherwise it is the language's
    /// `==`. Negation is applied here: a constraint proves `!=` without refuting `==`.
    @inline(__always)
    static func equals(_ lhs: Value, _ rhs: Value, negated: Bool, _ span: SourceSpan?) throws(EvaluationError) -> Bool {
        switch (lhs, rhs) {
        case (.constraint, _), (_, .constraint):
            return try constrained(negated ? .notEqual : .equal, lhs, rhs, span)
        default:
            let equal = lhs.languageEquals(rhs)
            return negated ? !equal : equal
        }
    }

    /// `lhs op rhs` where a side is a list query's constraint: true when the query proves it,
    /// an error otherwise (the emulator never answers false here).
    static func constrained(_ op: BinaryOperator, _ lhs: Value, _ rhs: Value, _ span: SourceSpan?) throws(EvaluationError) -> Bool {
        let proved: Bool?
        switch (lhs, rhs) {
        case (.constraint(let c), _):
            proved = c.proves(op.rawValue, rhs)
        case (_, .constraint(let c)):
            let flipped: BinaryOperator = switch op {
            case .less: .greater
            case .lessEqual: .greaterEqual
            case .greater: .less
            case .greaterEqual: .lessEqual
            default: op
            }
            proved = c.proves(flipped.rawValue, lhs)
        default:
            proved = nil
        }
        if proved == true { return true }
        let other = if case .constraint = lhs { rhs } else { lhs }
        let ordering = op == .less || op == .lessEqual || op == .greater || op == .greaterEqual
        if ordering, !QueryConstraint.isOrdered(other) { throw EvaluationError.typeError(other, span) }
        throw EvaluationError(.unsupportedOperation, "The query's constraints do not prove `\(op.rawValue) \(other)` for the field.", span: span)
    }
}

extension EvaluationContext {
    static func member(_ base: Value, _ name: String, _ span: SourceSpan) throws(EvaluationError) -> Value {
        switch base {
        case .map(let map):
            guard let value = map[name] else { throw EvaluationError.undefinedProperty(name, span) }
            return value
        case .null:
            throw EvaluationError.nullValue(span)
        default:
            throw EvaluationError.unsupported("field '\(name)' of \(base.typeName)", span)
        }
    }

    static func index(_ base: Value, _ index: Value, _ span: SourceSpan) throws(EvaluationError) -> Value {
        switch (base, index) {
        case let (.map(map), .string(key)):
            guard let value = map[key] else { throw EvaluationError.undefinedProperty(key, span) }
            return value
        case let (.list(items), .int(i)):
            guard i >= 0, i < items.count else { throw EvaluationError.indexOutOfBounds(i, size: items.count, span) }
            return items[Int(i)]
        case let (.path(path), .int(i)):
            guard i >= 0, i < path.segments.count else { throw EvaluationError.indexOutOfBounds(i, size: path.segments.count, span) }
            return .string(path.segments[Int(i)])
        case let (.string(text), .int(i)):
            // Strings index by UTF-16 code unit, as in Java.
            let units = Array(text.utf16)
            guard i >= 0, i < units.count else { throw EvaluationError.indexOutOfBounds(i, size: units.count, span) }
            return .string(Strings.fromUTF16(units[Int(i)...Int(i)]))
        case (.null, _):
            throw EvaluationError.nullValue(span)
        default:
            throw EvaluationError.unsupported("\(base.typeName)[\(index.typeName)]", span)
        }
    }

    /// `x[i:j]` as the emulator checks it: `i` must be an index, then `j - 1` must be one (so an
    /// empty slice is an error), then `i <= j`.
    static func slice(_ base: Value, _ from: Value?, _ to: Value?, _ span: SourceSpan) throws(EvaluationError) -> Value {
        func bounds(_ count: Int) throws(EvaluationError) -> Range<Int> {
            var start: Int64 = 0
            var end = Int64(count)
            if let from {
                guard case .int(let i) = from else { throw EvaluationError.unsupported("\(base.typeName)[\(from.typeName):]", span) }
                start = i
            }
            if let to {
                guard case .int(let j) = to else { throw EvaluationError.unsupported("\(base.typeName)[:\(to.typeName)]", span) }
                end = j
            }
            guard start >= 0, start < count else { throw EvaluationError.indexOutOfBounds(start, size: count, span) }
            // `end` comes from input: compared, never decremented, so the smallest int cannot
            // overflow (the emulator names the index it was given then).
            guard end >= 1, end <= count else {
                throw EvaluationError.indexOutOfBounds(end == .min ? end : end - 1, size: count, span)
            }
            guard start <= end else {
                throw EvaluationError(.indexOutOfBounds, "Illegal range error. From index: [\(start)] , To index: [\(end)].", span: span)
            }
            return Int(start)..<Int(end)
        }
        switch base {
        case .list(let items):
            return .list(Array(items[try bounds(items.count)]))
        case .string(let text):
            let units = Array(text.utf16)
            return .string(Strings.fromUTF16(units[try bounds(units.count)]))
        default:
            throw EvaluationError.unsupported("a slice of \(base.typeName)", span)
        }
    }
}
