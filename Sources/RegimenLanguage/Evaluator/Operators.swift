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
            throw EvaluationError.unsupported("-\(value.typeName)", span)
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
            throw EvaluationError.unsupported("\(lhs.typeName) \(op.rawValue) \(rhs.typeName)", span)
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
            (result, overflow) = a.dividedReportingOverflow(by: b)
        case .remainder:
            guard b != 0 else { throw EvaluationError(.divideByZero, "Divide by zero error.", span: span) }
            (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
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
        default: throw EvaluationError.unsupported("float \(op.rawValue) float", span)
        }
    }

    static func compare(_ op: BinaryOperator, _ lhs: Value, _ rhs: Value, _ span: SourceSpan) throws(EvaluationError) -> Bool {
        let order: Int
        switch (lhs, rhs) {
        case let (.int(a), .int(b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case let (.string(a), .string(b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case let (.timestamp(a), .timestamp(b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case let (.duration(a), .duration(b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case let (.bytes(a), .bytes(b)): order = a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
        default:
            guard let a = lhs.numberValue, let b = rhs.numberValue else {
                throw EvaluationError.unsupported("\(lhs.typeName) \(op.rawValue) \(rhs.typeName)", span)
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
        case .list(let items): return items.contains { $0.languageEquals(element) }
        case .set(let set): return set.contains(element)
        case .map(let map):
            guard case .string(let key) = element else { return false }
            return map[key] != nil
        default:
            throw EvaluationError.unsupported("\(element.typeName) in \(container.typeName)", span)
        }
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
            guard i >= 0, i < items.count else { throw EvaluationError(.indexOutOfBounds, "Index out of bound error.", span: span) }
            return items[Int(i)]
        case let (.path(path), .int(i)):
            guard i >= 0, i < path.segments.count else { throw EvaluationError(.indexOutOfBounds, "Index out of bound error.", span: span) }
            return .string(path.segments[Int(i)])
        case let (.string(text), .int(i)):
            let characters = Array(text)
            guard i >= 0, i < characters.count else { throw EvaluationError(.indexOutOfBounds, "Index out of bound error.", span: span) }
            return .string(String(characters[Int(i)]))
        case (.null, _):
            throw EvaluationError.nullValue(span)
        default:
            throw EvaluationError.unsupported("\(base.typeName)[\(index.typeName)]", span)
        }
    }

    static func slice(_ base: Value, _ from: Value?, _ to: Value?, _ span: SourceSpan) throws(EvaluationError) -> Value {
        func bound(_ value: Value?, _ fallback: Int, _ count: Int) throws(EvaluationError) -> Int {
            guard let value else { return fallback }
            guard case .int(let i) = value else { throw EvaluationError.unsupported("a \(value.typeName) slice bound", span) }
            guard i >= 0, i <= count else { throw EvaluationError(.indexOutOfBounds, "Index out of bound error.", span: span) }
            return Int(i)
        }
        switch base {
        case .list(let items):
            let start = try bound(from, 0, items.count)
            let end = try bound(to, items.count, items.count)
            guard start <= end else { throw EvaluationError(.indexOutOfBounds, "Index out of bound error.", span: span) }
            return .list(Array(items[start..<end]))
        case .string(let text):
            let characters = Array(text)
            let start = try bound(from, 0, characters.count)
            let end = try bound(to, characters.count, characters.count)
            guard start <= end else { throw EvaluationError(.indexOutOfBounds, "Index out of bound error.", span: span) }
            return .string(String(characters[start..<end]))
        default:
            throw EvaluationError.unsupported("a slice of \(base.typeName)", span)
        }
    }
}
