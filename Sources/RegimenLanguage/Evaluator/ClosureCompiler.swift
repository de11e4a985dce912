import OrderedCollections
/// A compiled node ready to run: a closure tree built once from ``Node``.
///
/// Calling a closure reads its captured children without copying enum payloads, which makes
/// evaluation several times faster than switching over the node tree on every visit.
typealias Evaluator = @Sendable (inout EvaluationContext) throws(EvaluationError) -> Value

struct ClosureCompiler {
    /// Whether every located node reports its outcome to the context's tracer. Tracing is for
    /// explanations; the untraced tree is what normal evaluation runs.
    let traced: Bool

    static func compile(_ node: Node) -> Evaluator { ClosureCompiler(traced: false).compile(node) }

    static func compileTraced(_ node: Node) -> Evaluator { ClosureCompiler(traced: true).compile(node) }

    func compile(_ node: Node) -> Evaluator {
        let body = compileBody(node)
        guard traced, let span = node.span else { return body }
        return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
            guard let tracer = context.tracer else { return try body(&context) }
            do throws(EvaluationError) {
                let value = try body(&context)
                tracer.record(span: span, outcome: .success(value))
                return value
            } catch {
                tracer.record(span: span, outcome: .failure(error))
                throw error
            }
        }
    }

    private func compileBody(_ node: Node) -> Evaluator {
        if let fused = fieldAccess(node) { return fused }
        switch node {
        case .constant(let value):
            return { (_: inout EvaluationContext) throws(EvaluationError) -> Value in value }
        case .global(let slot, _):
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in context.globals[slot] }
        case .local(let slot, let span):
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in try context.readLocal(slot, span) }
        case .member(let base, let name, let span):
            let cache = FieldCache()
            if !traced, let site = FieldSite(base) {
                // `request.auth.uid`: the first field is read in place, with no call for it.
                return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                    if let value = site.member(name, hint: cache, in: context) { return value }
                    return try Self.member(name, of: try site.read(&context), span, cache)
                }
            }
            let baseEval = compile(base)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try Self.member(name, of: try baseEval(&context), span, cache)
            }
        case .projected(let base, let name, let field, let span):
            // The base is evaluated only when the host did not project it: an explanation then
            // has no record for `request` itself, which is never a culprit (it cannot fail).
            let baseEval = compile(base)
            let cache = FieldCache()
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                if case .int(let bits) = context.globals[field.presence], bits & field.projected != 0 {
                    guard bits & field.mask != 0 else { throw EvaluationError.undefinedProperty(name, span) }
                    return context.globals[field.slot]
                }
                return try Self.member(name, of: try baseEval(&context), span, cache)
            }
        case .index(let base, let index, let span):
            let baseEval = compile(base)
            let indexEval = compile(index)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                let base = try baseEval(&context)
                let index = try indexEval(&context)
                // A string is indexed by UTF-16 unit, which walks it.
                if case .string = base { try context.charge(Cost.size(base), span) }
                return try EvaluationContext.index(base, index, span)
            }
        case .slice(let base, let from, let to, let span):
            let baseEval = compile(base)
            let fromEval = from.map { compile($0) }
            let toEval = to.map { compile($0) }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                let value = try baseEval(&context)
                let start: Value? = if let fromEval { try fromEval(&context) } else { nil }
                let end: Value? = if let toEval { try toEval(&context) } else { nil }
                try context.charge(Cost.size(value), span)
                return try EvaluationContext.slice(value, start, end, span)
            }
        case .not(let operand, let span):
            let operandEval = compile(operand)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                let value = try operandEval(&context)
                guard case .bool(let b) = value else { throw EvaluationError.unsupported("!", value, span) }
                return .bool(!b)
            }
        case .negate(let operand, let span):
            let operandEval = compile(operand)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try Operators.negate(try operandEval(&context), span)
            }
        case .arithmetic(let op, let lhs, .constant(.int(let bound)), let span):
            // `x * 2`: an int left side needs neither a call for the constant nor the general
            // dispatch over operand types.
            let l = compile(lhs)
            let constant = Value.int(bound)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                let value = try l(&context)
                if case .int(let number) = value, let result = Operators.exactInteger(op, number, bound) { return .int(result) }
                return try Operators.arithmetic(op, value, constant, span, context.limits)
            }
        case .arithmetic(let op, let lhs, let rhs, let span):
            let l = compile(lhs)
            let r = compile(rhs)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                let left = try l(&context)
                let right = try r(&context)
                if case .string = left { try context.charge(Cost.size(left) + Cost.size(right), span) }
                return try Operators.arithmetic(op, left, right, span, context.limits)
            }
        case .compare(let op, let lhs, .constant(let constant), let span):
            let l = compile(lhs)
            if case .int(let bound) = constant {
                return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                    let value = try l(&context)
                    if case .int(let number) = value { return .bool(Operators.holds(op, number, bound)) }
                    return .bool(try Operators.compare(op, value, constant, span))
                }
            }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                .bool(try Operators.compare(op, try l(&context), constant, span))
            }
        case .compare(let op, let lhs, let rhs, let span):
            let l = compile(lhs)
            let r = compile(rhs)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                .bool(try Operators.compare(op, try l(&context), try r(&context), span))
            }
        case .equals(let lhs, .constant(let constant), let negated, let span):
            let l = compile(lhs)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                let value = try l(&context)
                try context.charge(Cost.equality(value, constant, cap: context.remainingCost), span)
                return .bool(try Operators.equals(value, constant, negated: negated, span))
            }
        case .equals(let lhs, let rhs, let negated, let span):
            let l = compile(lhs)
            let r = compile(rhs)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                let left = try l(&context)
                let right = try r(&context)
                try context.charge(Cost.equality(left, right, cap: context.remainingCost), span)
                return .bool(try Operators.equals(left, right, negated: negated, span))
            }
        case .contains(let element, let container, let span):
            let e = compile(element)
            let c = compile(container)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                let element = try e(&context)
                let container = try c(&context)
                try context.charge(Cost.membership(element, container, cap: context.remainingCost), span)
                return .bool(try Operators.contains(element, container, span))
            }
        case .and(let lhs, let rhs, let span):
            if !traced { return chain(Self.operands(of: node, decisive: false), decisive: false) }
            return logical(compile(lhs), lhs.span ?? span, compile(rhs), rhs.span ?? span, decisive: false)
        case .or(let lhs, let rhs, let span):
            if !traced { return chain(Self.operands(of: node, decisive: true), decisive: true) }
            return logical(compile(lhs), lhs.span ?? span, compile(rhs), rhs.span ?? span, decisive: true)
        case .ternary(let condition, let whenTrue, let whenFalse, let span):
            let c = compile(condition)
            let t = compile(whenTrue)
            let f = compile(whenFalse)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                let condition = try c(&context)
                guard case .bool(let b) = condition else { throw EvaluationError.typeError(condition, span) }
                return b ? try t(&context) : try f(&context)
            }
        case .isType(let operand, let test, _):
            let o = compile(operand)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in .bool(test.matches(try o(&context))) }
        case .list(let items, _):
            let evals = items.map { compile($0) }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                var out: [Value] = []
                out.reserveCapacity(evals.count)
                for item in evals { out.append(try item(&context)) }
                return .list(out)
            }
        case .map(let entries, let span):
            let evals = entries.map { (compile($0.key), compile($0.value)) }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                var out = Value.Map()
                for (keyEval, valueEval) in evals {
                    guard case .string(let key) = try keyEval(&context) else {
                        throw EvaluationError.unsupported("a map key that is not a string", span)
                    }
                    out[key] = try valueEval(&context)
                }
                return .map(out)
            }
        case .path(let pieces, let span):
            enum Piece { case segment(String), interpolation(Evaluator) }
            let compiled: [Piece] = pieces.map {
                switch $0 {
                case .segment(let s): .segment(s)
                case .interpolation(let n): .interpolation(compile(n))
                }
            }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                var segments: [String] = []
                for piece in compiled {
                    switch piece {
                    case .segment(let s):
                        segments.append(s)
                    case .interpolation(let eval):
                        switch try eval(&context) {
                        case .string(let s): segments.append(s)
                        case .int(let i): segments.append(String(i))
                        case .path(let p): segments.append(contentsOf: p.segments)
                        case let other: throw EvaluationError.unsupported("\(other.typeName) in a path", span)
                        }
                    }
                }
                return .path(PathValue(segments: segments))
            }
        case .method(let receiver, .size, let arguments, let span) where arguments.isEmpty:
            // `size()` is the commonest method in rules: counted without the general dispatch.
            if let site = FieldSite(receiver), !traced {
                return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                    try context.step(span)
                    return try Self.size(of: try site.read(&context), span, context.limits)
                }
            }
            let r = compile(receiver)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                return try Self.size(of: try r(&context), span, context.limits)
            }
        case .method(let receiver, let method, let arguments, let span):
            let r = compile(receiver)
            let args = arguments.map { compile($0) }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                let target = try r(&context)
                if args.isEmpty {
                    try context.charge(Cost.method(method, target, [], cap: context.remainingCost), span)
                    return try method.apply(to: target, [], span, context.limits)
                }
                var values: [Value] = []
                values.reserveCapacity(args.count)
                for argument in args { values.append(try argument(&context)) }
                try context.charge(Cost.method(method, target, values, cap: context.remainingCost), span)
                return try method.apply(to: target, values, span, context.limits)
            }
        case .builtin(let builtin, let arguments, let span):
            let args = arguments.map { compile($0) }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                var values: [Value] = []
                values.reserveCapacity(args.count)
                for argument in args { values.append(try argument(&context)) }
                try context.charge(Cost.builtin(values, cap: context.remainingCost), span)
                return try builtin.apply(values, span)
            }
        case .call(let index, let arguments, let span):
            let args = arguments.map { compile($0) }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                return try context.call(index, args, span)
            }
        case .host(let index, let arguments, let span):
            let args = arguments.map { compile($0) }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                var values: [Value] = []
                for argument in args { values.append(try argument(&context)) }
                return try context.callHost(index, values, span)
            }
        case .inlined(let body, let span):
            let evaluate = compile(body)
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                try context.enterCall(span)
                defer { context.callDepth -= 1 }
                return try evaluate(&context)
            }
        case .missingFunction(let name, _, let span):
            return { (_: inout EvaluationContext) throws(EvaluationError) -> Value in
                throw EvaluationError(.functionNotFound, "Function not found error: Name: [\(name)].", span: span)
            }
        }
    }

    /// `value.name`, looked up first where `cache` last found it.
    @inline(__always)
    private static func member(_ name: String, of value: Value, _ span: SourceSpan, _ cache: FieldCache) throws(EvaluationError) -> Value {
        let hint = cache.hint
        if case .map(let map) = value {
            guard let found = FieldCache.lookup(map, name, hint: hint) else { throw EvaluationError.undefinedProperty(name, span) }
            if let newHint = found.newHint { cache.remember(newHint) }
            return found.value
        }
        return try EvaluationContext.member(value, name, span)
    }

    @inline(__always)
    private static func size(of value: Value, _ span: SourceSpan, _ limits: EvaluationLimits) throws(EvaluationError) -> Value {
        switch value {
        case .string(let text): .int(Int64(text.utf16.count))
        case .list(let items): .int(Int64(items.count))
        case .map(let map): .int(Int64(map.count))
        default: try Method.size.apply(to: value, [], span, limits)
        }
    }

    /// `variable.field`, `parameter.field`, and (untraced) their negation and comparison with a
    /// constant (`!data.name`, `data.reps >= 0`, `user.role == 'coach'`): the field is read where
    /// it lies and tested with no closure call in between.
    private func fieldAccess(_ node: Node) -> Evaluator? {
        if let site = FieldSite(node) {
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in try site.read(&context) }
        }
        guard !traced else { return nil }
        switch node {
        case .isType(let operand, let test, _):
            // `data.reps is int`: what an inlined `isNumber(data.reps)` becomes.
            guard let site = FieldSite(operand) else { return nil }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in .bool(test.matches(try site.read(&context))) }
        case .contains(let element, .constant(.list(let items)), let span):
            // `user.plan in ['pro', 'team']`: strings against strings compare as buffers.
            guard let site = FieldSite(element) else { return nil }
            let strings = items.compactMap(\.stringValue)
            let onlyStrings = strings.count == items.count
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                try context.step(span)
                if onlyStrings, let found = site.isString(strings, in: context) { return .bool(found) }
                let value = try site.read(&context)
                if onlyStrings, case .string(let text) = value {
                    for candidate in strings where Value.sameScalars(text, candidate) { return .bool(true) }
                    return .bool(false)
                }
                return .bool(items.contains(value))
            }
        case .not(let operand, let span):
            // `!data.name`: Appendix A-style rules test a dozen fields this way per request.
            guard let site = FieldSite(operand) else { return nil }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                let value = try site.read(&context)
                guard case .bool(let b) = value else { throw EvaluationError.unsupported("!", value, span) }
                return .bool(!b)
            }
        case .compare(let op, let lhs, .constant(let constant), let span):
            guard let site = FieldSite(lhs) else { return nil }
            if case .int(let bound) = constant {
                // `data.reps >= 0`: an int field against an int needs no general comparison.
                return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                    if let value = site.intValue(in: context) { return .bool(Operators.holds(op, value, bound)) }
                    let field = try site.read(&context)
                    if case .int(let value) = field { return .bool(Operators.holds(op, value, bound)) }
                    return .bool(try Operators.compare(op, field, constant, span))
                }
            }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                .bool(try Operators.compare(op, try site.read(&context), constant, span))
            }
        case .equals(let lhs, .constant(let constant), let negated, let span):
            guard let site = FieldSite(lhs) else { return nil }
            if case .null = constant {
                // `request.auth != null`: tested where the field lies (a list query's constraint
                // is not null, but only proves `!= null`: it takes the general path).
                return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                    let field = try site.read(&context)
                    if case .constraint = field { return .bool(try Operators.equals(field, constant, negated: negated, span)) }
                    let isNull = if case .null = field { true } else { false }
                    return .bool(negated ? !isNull : isNull)
                }
            }
            if case .string(let text) = constant {
                let texts = [text]
                return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                    if let equal = site.isString(texts, in: context) { return .bool(negated ? !equal : equal) }
                    let field = try site.read(&context)
                    if case .string(let value) = field {
                        let equal = Value.sameScalars(value, text)
                        return .bool(negated ? !equal : equal)
                    }
                    return .bool(try Operators.equals(field, constant, negated: negated, span))
                }
            }
            return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                .bool(try Operators.equals(try site.read(&context), constant, negated: negated, span))
            }
        default:
            return nil
        }
    }

    /// The operands of a run of the same logical operator (`a && b && c`, however parenthesised),
    /// left to right, each with the span its type error points at.
    static func operands(of node: Node, decisive: Bool) -> [(node: Node, span: SourceSpan)] {
        switch (node, decisive) {
        case (.and(let lhs, let rhs, let span), false), (.or(let lhs, let rhs, let span), true):
            let left = lhs.isLogical(decisive) ? operands(of: lhs, decisive: decisive) : [(lhs, lhs.span ?? span)]
            let right = rhs.isLogical(decisive) ? operands(of: rhs, decisive: decisive) : [(rhs, rhs.span ?? span)]
            return left + right
        default:
            return []
        }
    }

    /// A run of `&&` (or `||`) evaluated in one loop instead of nested closures. The result is the
    /// nested operators' result: the error algebra below is associative. Operands run left to
    /// right; the first decisive `false` (`true` for `||`) ends the run and wins even over an
    /// earlier error; otherwise the first error or non-bool operand is the outcome.
    private func chain(_ operands: [(node: Node, span: SourceSpan)], decisive: Bool) -> Evaluator {
        // Built back to front: each operand's closure holds the rest of the run, so every
        // closure it calls is a captured constant (no array of closures to load and retain).
        // After an error the run continues in `decides` mode, which only asks whether a later
        // operand settles the result; the error-free path carries no error state at all.
        var rest: Evaluator = { (_: inout EvaluationContext) throws(EvaluationError) -> Value in .bool(!decisive) }
        var decides: DecidesRest = { (_: inout EvaluationContext) -> Bool in false }
        for (position, operand) in operands.reversed().enumerated() {
            let evaluate = compile(operand.node)
            let span = operand.span
            // The last operand's non-decisive bool is the run's result: no call to the end marker.
            let isLast = position == 0
            let next = rest
            let laterDecides = decides
            rest = { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
                let value: Value
                do throws(EvaluationError) {
                    value = try evaluate(&context)
                } catch {
                    if laterDecides(&context) { return .bool(decisive) }
                    throw error
                }
                guard case .bool(let b) = value else {
                    if laterDecides(&context) { return .bool(decisive) }
                    throw EvaluationError.typeError(value, span)
                }
                if b == decisive || isLast { return value }
                return try next(&context)
            }
            decides = { (context: inout EvaluationContext) -> Bool in
                if case .bool(let b)? = try? evaluate(&context), b == decisive { return true }
                return laterDecides(&context)
            }
        }
        return rest
    }

    /// `&&` / `||` with the emulator's commutative error absorption: an error or non-bool on one
    /// side is absorbed when the other side alone decides the result.
    private func logical(_ lhs: @escaping Evaluator, _ lhsSpan: SourceSpan, _ rhs: @escaping Evaluator, _ rhsSpan: SourceSpan, decisive: Bool) -> Evaluator {
        /// The left side failed: only a decisive right side can still produce a value.
        @Sendable func absorb(_ leftError: EvaluationError, _ context: inout EvaluationContext) throws(EvaluationError) -> Value {
            guard case .bool(let b)? = try? rhs(&context), b == decisive else { throw leftError }
            return .bool(decisive)
        }
        return { (context: inout EvaluationContext) throws(EvaluationError) -> Value in
            let left: Value
            do throws(EvaluationError) {
                left = try lhs(&context)
            } catch {
                return try absorb(error, &context)
            }
            guard case .bool(let b) = left else { return try absorb(.typeError(left, lhsSpan), &context) }
            if b == decisive { return left }
            let right = try rhs(&context)
            guard case .bool = right else { throw EvaluationError.typeError(right, rhsSpan) }
            return right
        }
    }
}

/// Whether a logical chain's remaining operands settle its result (once an operand has failed).
private typealias DecidesRest = @Sendable (inout EvaluationContext) -> Bool

private extension Node {
    /// Whether this node is `||` (`decisive` true) or `&&` (`decisive` false).
    func isLogical(_ decisive: Bool) -> Bool {
        switch (self, decisive) {
        case (.and, false), (.or, true): true
        default: false
        }
    }
}
