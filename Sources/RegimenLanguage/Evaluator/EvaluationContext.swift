/// The mutable state of one evaluation: variable values, function frames and counters.
///
/// A context is created per evaluation on the evaluating thread; the compiled program it runs is
/// immutable and shared.
public struct EvaluationContext {
    enum LocalSlot {
        case value(Value)
        case failed(EvaluationError)
        /// A `let` not yet evaluated: its index in the function's `lets`, and its function.
        case pending(function: Int, letIndex: Int)
        case evaluating
    }

    /// Values of the environment's variables, in slot order.
    public var globals: [Value]
    public var limits: EvaluationLimits
    public weak var host: (any EvaluationHost)?
    public var tracer: (any EvaluationTracer)?
    /// Nodes evaluated so far.
    public private(set) var steps = 0

    let functions: [CompiledFunction]
    var locals: [LocalSlot] = []
    var frameBase = 0
    var callDepth = 0

    init(globals: [Value], functions: [CompiledFunction], limits: EvaluationLimits, host: (any EvaluationHost)?, tracer: (any EvaluationTracer)?) {
        self.globals = globals
        self.functions = functions
        self.limits = limits
        self.host = host
        self.tracer = tracer
    }

    mutating func evaluate(_ node: Node) throws(EvaluationError) -> Value {
        steps += 1
        guard steps <= limits.maxSteps else {
            throw EvaluationError(.limitExceeded, "Expression is too complex to evaluate: more than \(limits.maxSteps) steps.", span: node.span)
        }
        guard let tracer else { return try evaluateUntraced(node) }
        do {
            let value = try evaluateUntraced(node)
            if let span = node.span { tracer.record(span: span, outcome: .success(value)) }
            return value
        } catch {
            if let span = node.span { tracer.record(span: span, outcome: .failure(error)) }
            throw error
        }
    }

    private mutating func evaluateUntraced(_ node: Node) throws(EvaluationError) -> Value {
        switch node {
        case .constant(let value):
            return value
        case .global(let slot, _):
            return globals[slot]
        case .local(let slot, let span):
            return try readLocal(slot, span)
        case .member(let base, let name, let span):
            return try Self.member(try evaluate(base), name, span)
        case .index(let base, let index, let span):
            return try Self.index(try evaluate(base), try evaluate(index), span)
        case .slice(let base, let from, let to, let span):
            let value = try evaluate(base)
            let start = try from.map { (n) throws(EvaluationError) -> Value in try evaluate(n) }
            let end = try to.map { (n) throws(EvaluationError) -> Value in try evaluate(n) }
            return try Self.slice(value, start, end, span)
        case .not(let operand, let span):
            guard case .bool(let b) = try evaluate(operand) else {
                throw EvaluationError.unsupported("! applied to a non-bool", span)
            }
            return .bool(!b)
        case .negate(let operand, let span):
            return try Operators.negate(try evaluate(operand), span)
        case .arithmetic(let op, let lhs, let rhs, let span):
            return try Operators.arithmetic(op, try evaluate(lhs), try evaluate(rhs), span, limits)
        case .compare(let op, let lhs, let rhs, let span):
            return .bool(try Operators.compare(op, try evaluate(lhs), try evaluate(rhs), span))
        case .equals(let lhs, let rhs, let negated, _):
            let equal = try evaluate(lhs).languageEquals(try evaluate(rhs))
            return .bool(negated ? !equal : equal)
        case .contains(let element, let container, let span):
            return .bool(try Operators.contains(try evaluate(element), try evaluate(container), span))
        case .and(let lhs, let rhs, let span):
            return try logical(lhs, rhs, decisive: false, span)
        case .or(let lhs, let rhs, let span):
            return try logical(lhs, rhs, decisive: true, span)
        case .ternary(let condition, let whenTrue, let whenFalse, let span):
            guard case .bool(let b) = try evaluate(condition) else {
                throw EvaluationError.unsupported("a non-bool condition in '?:'", span)
            }
            return try evaluate(b ? whenTrue : whenFalse)
        case .isType(let operand, let test, _):
            return .bool(test.matches(try evaluate(operand)))
        case .list(let items, _):
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(try evaluate(item)) }
            return .list(out)
        case .map(let entries, let span):
            var out = Value.Map()
            for entry in entries {
                guard case .string(let key) = try evaluate(entry.key) else {
                    throw EvaluationError.unsupported("a map key that is not a string", span)
                }
                out[key] = try evaluate(entry.value)
            }
            return .map(out)
        case .path(let pieces, let span):
            var segments: [String] = []
            for piece in pieces {
                switch piece {
                case .segment(let s):
                    segments.append(s)
                case .interpolation(let node):
                    switch try evaluate(node) {
                    case .string(let s): segments.append(s)
                    case .int(let i): segments.append(String(i))
                    case .path(let p): segments.append(contentsOf: p.segments)
                    case let other: throw EvaluationError.unsupported("\(other.typeName) in a path", span)
                    }
                }
            }
            return .path(PathValue(segments: segments))
        case .method(let receiver, let method, let arguments, let span):
            let target = try evaluate(receiver)
            var values: [Value] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try evaluate(argument)) }
            return try method.apply(to: target, values, span, limits)
        case .builtin(let builtin, let arguments, let span):
            var values: [Value] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try evaluate(argument)) }
            return try builtin.apply(values, span)
        case .call(let index, let arguments, let span):
            return try call(index, arguments, span)
        case .host(let index, let arguments, let span):
            var values: [Value] = []
            for argument in arguments { values.append(try evaluate(argument)) }
            guard let host else {
                throw EvaluationError(.functionNotFound, "Function not found error: no document access in this context.", span: span)
            }
            do {
                return try host.callHost(index, name: "", arguments: values)
            } catch {
                var located = error
                if located.span == nil { located.span = span }
                throw located
            }
        case .missingFunction(let name, _, let span):
            throw EvaluationError(.functionNotFound, "Function not found error: Name: [\(name)].", span: span)
        }
    }

    /// `&&` / `||` with the emulator's commutative error absorption: an error or non-bool on one
    /// side is absorbed when the other side alone decides the result.
    private mutating func logical(_ lhs: Node, _ rhs: Node, decisive: Bool, _ span: SourceSpan) throws(EvaluationError) -> Value {
        var leftError: EvaluationError?
        do {
            switch try evaluate(lhs) {
            case .bool(let b) where b == decisive: return .bool(decisive)
            case .bool: break
            default: leftError = EvaluationError.unsupported("a non-bool operand of '\(decisive ? "||" : "&&")'", lhs.span ?? span)
            }
        } catch {
            leftError = error
        }
        let right: Value
        do {
            right = try evaluate(rhs)
        } catch {
            throw leftError ?? error
        }
        guard case .bool(let b) = right else {
            throw leftError ?? EvaluationError.unsupported("a non-bool operand of '\(decisive ? "||" : "&&")'", rhs.span ?? span)
        }
        if b == decisive { return .bool(decisive) }
        if let leftError { throw leftError }
        return .bool(b)
    }

    private mutating func readLocal(_ slot: Int, _ span: SourceSpan) throws(EvaluationError) -> Value {
        let index = frameBase + slot
        switch locals[index] {
        case .value(let v):
            return v
        case .failed(let e):
            throw e
        case .evaluating:
            throw EvaluationError(.unsupportedOperation, "A let binding refers to itself.", span: span)
        case .pending(let function, let letIndex):
            locals[index] = .evaluating
            do {
                let value = try evaluate(functions[function].lets[letIndex])
                locals[index] = .value(value)
                return value
            } catch {
                locals[index] = .failed(error)
                throw error
            }
        }
    }

    private mutating func call(_ index: Int, _ arguments: [Node], _ span: SourceSpan) throws(EvaluationError) -> Value {
        guard callDepth < limits.maxCallDepth else {
            throw EvaluationError(.limitExceeded, "Maximum function call depth of \(limits.maxCallDepth) exceeded.", span: span)
        }
        let function = functions[index]
        // Arguments are evaluated in the caller's frame; an argument error surfaces only if used.
        var frame: [LocalSlot] = []
        frame.reserveCapacity(function.frameSize)
        for argument in arguments {
            do {
                frame.append(.value(try evaluate(argument)))
            } catch {
                frame.append(.failed(error))
            }
        }
        for letIndex in function.lets.indices { frame.append(.pending(function: index, letIndex: letIndex)) }
        let savedBase = frameBase
        let newBase = locals.count
        locals.append(contentsOf: frame)
        frameBase = newBase
        callDepth += 1
        defer {
            callDepth -= 1
            frameBase = savedBase
            locals.removeSubrange(newBase...)
        }
        return try evaluate(function.result)
    }
}

extension Value {
    /// The ordered map type used for `.map` values.
    public typealias Map = OrderedDictionary<String, Value>
}

import OrderedCollections
