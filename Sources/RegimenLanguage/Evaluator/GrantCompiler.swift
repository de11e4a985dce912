/// A compiled condition that answers only whether it evaluates to the bool `true`.
typealias Grant = @Sendable (inout EvaluationContext) -> Bool

/// Compiles a condition for the one question a security rule asks of it: does it evaluate to
/// `true`? False, a non-bool and an error all mean "no", so once an operand of `&&` is not true
/// the rest need not run. The value evaluator cannot stop there: `error && false` is `false`
/// and `error && true` an error, and an explanation reports which.
///
/// The answer is exactly "the value evaluator returns `.bool(true)`":
/// - `a && b` is true only when both are true, `a || b` when either is (with error absorption,
///   `error || true` is true), `c ? a : b` when `c` is a bool and the branch taken is true;
/// - `x.field == c` (a constant or a variable) is true when `x` is a map whose field equals `c`:
///   a missing field is an error, and needs no error value built;
/// - every other node is evaluated by the value evaluator and compared with `true`;
/// - calls and inlined calls count their step and call depth as the value evaluator does.
///
/// When the answer is yes, the same nodes ran in the same order as in value evaluation, so the
/// step count is the same. When it is no, fewer may have run; a step limit that value evaluation
/// would have hit in the skipped part only ever turns its answer into an error, which is no as
/// well. The one thing that could differ is a later operand of `||` running with more of the
/// step budget left, which is why callers only use this when ``StepBound`` shows the limit cannot
/// be reached. Untraced only: explanations need the values.
struct GrantCompiler {
    private let values = ClosureCompiler(traced: false)

    func compile(_ node: Node) -> Grant {
        // A variable's field (`data.userId == 'x'`) is compared in place by the value evaluator
        // already; fields of fields (`request.auth.uid`) go through here.
        if case .equals(let lhs, let rhs, let negated, _) = node, case .member(let base, let name, _) = lhs, FieldSite(lhs) == nil {
            switch rhs {
            case .constant(let constant):
                return fieldEquals(base, name, negated: negated) { field, _ in Self.equal(field, constant, negated: negated) }
            case .global(let slot, _):
                return fieldEquals(base, name, negated: negated) { field, context in Self.equal(field, context.globals[slot], negated: negated) }
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
            return { (context: inout EvaluationContext) -> Bool in
                guard case .bool(let b)? = try? test(&context) else { return false }
                return b ? yes(&context) : no(&context)
            }
        case .inlined(let body, let span):
            let grant = compile(body)
            return { (context: inout EvaluationContext) -> Bool in
                do {
                    try context.step(span)
                    try context.enterCall(span)
                } catch {
                    return false
                }
                defer { context.callDepth -= 1 }
                return grant(&context)
            }
        case .call(let index, let arguments, let span):
            let evaluators = arguments.map { values.compile($0) }
            return { (context: inout EvaluationContext) -> Bool in
                guard (try? context.step(span)) != nil else { return false }
                return context.callGrant(index, evaluators, span)
            }
        default:
            let evaluate = values.compile(node)
            return { (context: inout EvaluationContext) -> Bool in
                if case .bool(true)? = try? evaluate(&context) { return true }
                return false
            }
        }
    }

    /// The equality `fieldEquals` negates: the language's `==`, or for a list query's constraint
    /// whether the comparison is proved (an unproved one is an error, which grants nothing),
    /// pre-negated so that `result != negated` is the grant.
    @inline(__always)
    private static func equal(_ field: borrowing Value, _ other: Value, negated: Bool) -> Bool {
        switch field {
        case .constraint(let constraint):
            let granted = (try? Operators.equals(.constraint(constraint), other, negated: negated, nil)) ?? false
            return granted != negated
        default:
            return field.languageEquals(other)
        }
    }

    /// `base.name == operand` (`!=` when `negated`) for an operand that cannot fail (a constant
    /// or a variable). The field is compared where it lies. When `base` fails, is not a map, or
    /// lacks the key, `==` is an error, which is not true either, so no error is built: strangers
    /// without an `admin` claim make `request.auth.token.admin == true` fail on most requests.
    private func fieldEquals(_ base: Node, _ name: String, negated: Bool, _ equals: @escaping @Sendable (borrowing Value, borrowing EvaluationContext) -> Bool) -> Grant {
        let cache = FieldCache()
        if let site = FieldSite(base) {
            // `request.auth.uid`: where both hints hit, the field is read without copying the
            // map it is in; otherwise the variable's field is read as the value evaluator does.
            return { (context: inout EvaluationContext) -> Bool in
                if let field = site.member(name, hint: cache, in: context) { return equals(field, context) != negated }
                guard case .map(let map)? = try? site.read(&context), let found = FieldCache.lookup(map, name, hint: cache.hint) else { return false }
                if let newHint = found.newHint { cache.remember(newHint) }
                return equals(found.value, context) != negated
            }
        }
        let baseEval = values.compile(base)
        return { (context: inout EvaluationContext) -> Bool in
            guard case .map(let map)? = try? baseEval(&context), let found = FieldCache.lookup(map, name, hint: cache.hint) else { return false }
            if let newHint = found.newHint { cache.remember(newHint) }
            return equals(found.value, context) != negated
        }
    }

    /// `&&` (`decisive` false) or `||` (true) over `operands`, built back to front like the value
    /// evaluator's chains: each closure calls captured closures of its own type. (Closures kept
    /// in an array are stored generically and called through a conversion thunk.)
    private func chain(_ operands: [Node], decisive: Bool) -> Grant {
        guard let last = operands.last else { return { (_: inout EvaluationContext) -> Bool in !decisive } }
        var rest = compile(last)
        for operand in operands.dropLast().reversed() {
            let first = compile(operand)
            let next = rest
            if decisive {
                rest = { (context: inout EvaluationContext) -> Bool in first(&context) || next(&context) }
            } else {
                rest = { (context: inout EvaluationContext) -> Bool in first(&context) && next(&context) }
            }
        }
        return rest
    }
}
