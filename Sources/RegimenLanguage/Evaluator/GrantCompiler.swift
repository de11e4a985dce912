/// What a condition evaluated to, as far as a security rule cares: `true`, `false`, or anything
/// else (an error or a value that is not a bool). `false` and "anything else" both deny, but
/// they are kept apart because `&&` and `||` treat them differently: after an error the value
/// evaluator goes on evaluating later operands to see whether one decides the result.
enum GrantVerdict: UInt8, Sendable {
    case granted
    case denied
    case failed

    init(_ value: Value) {
        switch value {
        case .bool(true): self = .granted
        case .bool(false): self = .denied
        default: self = .failed
        }
    }
}

/// A compiled condition that answers only what it evaluates to (see ``GrantVerdict``).
typealias Grant = @Sendable (inout EvaluationContext) -> GrantVerdict

/// Compiles a condition for the one question a security rule asks of it: does it evaluate to
/// `true`? It runs exactly the nodes the value evaluator runs, in the same order, and charges the
/// same cost (``Cost``) and steps; what it saves is building values it does not need (error
/// messages, the bool of `x.field == c`). The answer is exactly "the value evaluator returns
/// `.bool(true)`":
/// - `a && b` / `a || b` run as the value evaluator's chains do: the first decisive operand ends
///   the run; after an error or non-bool, later operands still run until one decides;
/// - `c ? a : b` is the branch's verdict when `c` is a bool, and fails otherwise;
/// - `x.field == c` (a constant or a variable) is compared in place, charged as the value
///   evaluator charges it: a missing field fails and needs no error value built;
/// - every other node is evaluated by the value evaluator;
/// - calls and inlined calls count their step and call depth as the value evaluator does.
///
/// Because the same work is charged in the same order, a cost budget that the value evaluator
/// exhausts is exhausted here at the same operation: running out of budget denies in both
/// paths, and the fast path can never grant what evaluation refuses (`GrantPathTests`). Callers
/// still use it only when ``StepBound`` shows the step limit cannot be reached. Untraced only:
/// explanations need the values.
struct GrantCompiler {
    private let values = ClosureCompiler(traced: false)

    func compile(_ node: Node) -> Grant {
        // A variable's field (`data.userId == 'x'`) is compared in place by the value evaluator
        // already; fields of fields (`request.auth.uid`) go through here.
        if case .equals(let lhs, let rhs, let negated, let span) = node, case .member(let base, let name, _) = lhs, FieldSite(lhs) == nil {
            switch rhs {
            case .constant(let constant):
                return fieldEquals(base, name, negated: negated) { field, context in
                    guard (try? context.charge(Cost.equality(field, constant, cap: context.remainingCost), span)) != nil else { return .failed }
                    return Self.equal(field, constant, negated: negated)
                }
            case .global(let slot, _):
                return fieldEquals(base, name, negated: negated) { field, context in
                    let other = context.globals[slot]
                    guard (try? context.charge(Cost.equality(field, other, cap: context.remainingCost), span)) != nil else { return .failed }
                    return Self.equal(field, other, negated: negated)
                }
            default:
                break
            }
        }
        switch node {
        case .and:
            return chain(ClosureCompiler.operands(of: node, decisive: false).map(\.node), decisive: false)
        case .or:
            return chain(ClosureCompiler.operands(of: node, decisive: true).map(\.node), decisive: true)
        case .ternary(let condition, let whenTrue, let whenFalse, _):
            let test = values.compile(condition)
            let yes = compile(whenTrue)
            let no = compile(whenFalse)
            return { (context: inout EvaluationContext) -> GrantVerdict in
                guard case .bool(let b)? = try? test(&context) else { return .failed }
                return b ? yes(&context) : no(&context)
            }
        case .inlined(let body, let span):
            let grant = compile(body)
            return { (context: inout EvaluationContext) -> GrantVerdict in
                do {
                    try context.step(span)
                    try context.enterCall(span)
                } catch {
                    return .failed
                }
                defer { context.callDepth -= 1 }
                return grant(&context)
            }
        case .call(let index, let arguments, let span):
            let evaluators = arguments.map { values.compile($0) }
            return { (context: inout EvaluationContext) -> GrantVerdict in
                guard (try? context.step(span)) != nil else { return .failed }
                return context.callGrant(index, evaluators, span)
            }
        default:
            let evaluate = values.compile(node)
            return { (context: inout EvaluationContext) -> GrantVerdict in
                guard let value = try? evaluate(&context) else { return .failed }
                return GrantVerdict(value)
            }
        }
    }

    /// `field == other` (`!=` when `negated`): the language's `==`, or for a list query's
    /// constraint whether the comparison is proved (an unproved one is an error).
    @inline(__always)
    private static func equal(_ field: borrowing Value, _ other: Value, negated: Bool) -> GrantVerdict {
        switch field {
        case .constraint(let constraint):
            guard let holds = try? Operators.equals(.constraint(constraint), other, negated: negated, nil) else { return .failed }
            return holds ? .granted : .denied
        default:
            return field.languageEquals(other) != negated ? .granted : .denied
        }
    }

    /// `base.name == operand` (`!=` when `negated`) for an operand that cannot fail (a constant
    /// or a variable). The field is compared where it lies. When `base` fails, is not a map, or
    /// lacks the key, `==` is an error, which is not true either, so no error is built: strangers
    /// without an `admin` claim make `request.auth.token.admin == true` fail on most requests.
    private func fieldEquals(_ base: Node, _ name: String, negated: Bool, _ equals: @escaping @Sendable (borrowing Value, inout EvaluationContext) -> GrantVerdict) -> Grant {
        let cache = FieldCache()
        if let site = FieldSite(base) {
            // `request.auth.uid`: where both hints hit, the field is read without copying the
            // map it is in; otherwise the variable's field is read as the value evaluator does.
            return { (context: inout EvaluationContext) -> GrantVerdict in
                if let field = site.member(name, hint: cache, in: context) { return equals(field, &context) }
                guard case .map(let map)? = try? site.read(&context), let found = FieldCache.lookup(map, name, hint: cache.hint) else { return .failed }
                if let newHint = found.newHint { cache.remember(newHint) }
                return equals(found.value, &context)
            }
        }
        let baseEval = values.compile(base)
        return { (context: inout EvaluationContext) -> GrantVerdict in
            guard case .map(let map)? = try? baseEval(&context), let found = FieldCache.lookup(map, name, hint: cache.hint) else { return .failed }
            if let newHint = found.newHint { cache.remember(newHint) }
            return equals(found.value, &context)
        }
    }

    /// `&&` (`decisive` false) or `||` (true) over `operands`, run as the value evaluator's chain
    /// runs them: the first decisive operand ends the run; after an error or non-bool the later
    /// operands still run, each only asked whether it decides (so their cost is charged as the
    /// value evaluator charges it), and the run fails unless one does. Built back to front: each
    /// closure calls captured closures of its own type.
    private func chain(_ operands: [Node], decisive: Bool) -> Grant {
        let decided: GrantVerdict = decisive ? .granted : .denied
        var rest: Grant = { (_: inout EvaluationContext) -> GrantVerdict in decisive ? .denied : .granted }
        var decides: @Sendable (inout EvaluationContext) -> Bool = { (_: inout EvaluationContext) -> Bool in false }
        for (position, operand) in operands.reversed().enumerated() {
            let evaluate = compile(operand)
            let isLast = position == 0
            let next = rest
            let laterDecides = decides
            rest = { (context: inout EvaluationContext) -> GrantVerdict in
                let verdict = evaluate(&context)
                if verdict == decided { return decided }
                if verdict == .failed { return laterDecides(&context) ? decided : .failed }
                return isLast ? verdict : next(&context)
            }
            decides = { (context: inout EvaluationContext) -> Bool in
                evaluate(&context) == decided || laterDecides(&context)
            }
        }
        return rest
    }
}
