/// Replaces calls of small helper functions (`isSignedIn()`, `isOwner(userId)`,
/// `isNumber(data.reps)`) with their bodies, for untraced evaluation.
///
/// A call pushes a frame, evaluates its arguments into it and pops it again, which costs more
/// than the one-line bodies rules use helpers for. Inlining is only done where it cannot change
/// any outcome:
/// - the function has no `let` bindings (their lazy evaluation belongs to a frame);
/// - every argument is a plain read (a constant, a variable, a parameter, or fields of one). Such
///   a read counts no steps and calls nothing, so reading it at each use of the parameter instead
///   of once at the call gives the same value, or the same error at the same place, and an
///   unused parameter's error stays unseen either way;
/// - the call still counts its step and its level of call depth (``Node/inlined(_:_:)``), so
///   every limit trips exactly where the real call would.
///
/// Traced evaluation keeps the real calls: explanations and coverage report each function.
struct CallInliner {
    /// A function's body as the inliner needs it.
    struct Body {
        var parameterCount: Int
        var hasLets: Bool
        var result: Node
    }

    /// The body of function `index`, or `nil` when it is not known (yet).
    let body: (Int) -> Body?

    /// An inliner over a finished function table.
    init(functions: [CompiledFunction]) {
        self.init { index in functions.indices.contains(index) ? functions[index].inlinerBody : nil }
    }

    init(body: @escaping (Int) -> Body?) {
        self.body = body
    }

    /// Rules nest helpers a few levels deep; deeper chains keep their calls.
    static let maxDepth = 8

    /// The tallest body a call is replaced by. The parser bounds each expression's height, and
    /// every later walk recurses once per level; an inlined body stacks a callee's levels onto
    /// its caller's, so bodies above this keep their calls (which run in frames of their own).
    static let maxInlinedHeight = Parser.maxDepth

    /// `node` with every inlinable call inlined. `callerParameters` is how many of the current
    /// frame's slots are parameters (the rest are `let`s, whose reads are not plain).
    func inline(_ node: Node, callerParameters: Int, depth: Int = 0) -> Node {
        node.rewritten { child in
            guard case .call(let index, let arguments, let span) = child else { return nil }
            let inlinedArguments = arguments.map { inline($0, callerParameters: callerParameters, depth: depth) }
            guard depth < Self.maxDepth, let callee = body(index), !callee.hasLets, callee.parameterCount == arguments.count,
                  inlinedArguments.allSatisfy({ Self.isPlainRead($0, parameters: callerParameters) })
            else {
                return .call(index, inlinedArguments, span)
            }
            // The callee's own calls first (in its frame), then its parameters become the reads.
            let calleeBody = inline(callee.result, callerParameters: callee.parameterCount, depth: depth + 1)
            let substituted = calleeBody.rewritten { inner in
                guard case .local(let slot, _) = inner, inlinedArguments.indices.contains(slot) else { return nil }
                return inlinedArguments[slot]
            }
            guard substituted.height(atMost: Self.maxInlinedHeight) else { return .call(index, inlinedArguments, span) }
            return .inlined(substituted, span)
        }
    }

    /// A read that counts no steps, calls nothing, and gives the same outcome each time.
    static func isPlainRead(_ node: Node, parameters: Int) -> Bool {
        switch node {
        case .constant, .global: true
        case .local(let slot, _): slot < parameters
        case .member(let base, _, _), .projected(let base, _, _, _): isPlainRead(base, parameters: parameters)
        default: false
        }
    }
}

extension CompiledFunction {
    /// This function as ``CallInliner`` sees it.
    var inlinerBody: CallInliner.Body {
        CallInliner.Body(parameterCount: parameterCount, hasLets: hasLets, result: resultNode)
    }
}

extension Node {
    /// Whether the tree is at most `limit` levels high (a leaf is one level). Stops descending
    /// past the limit, so it costs no more than `limit` levels of recursion.
    func height(atMost limit: Int) -> Bool {
        guard limit >= 1 else { return false }
        func within(_ node: Node) -> Bool { node.height(atMost: limit - 1) }
        switch self {
        case .constant, .global, .local:
            return true
        case .member(let base, _, _), .projected(let base, _, _, _), .not(let base, _), .negate(let base, _), .isType(let base, _, _),
             .inlined(let base, _):
            return within(base)
        case .index(let lhs, let rhs, _), .arithmetic(_, let lhs, let rhs, _), .compare(_, let lhs, let rhs, _),
             .equals(let lhs, let rhs, _, _), .contains(let lhs, let rhs, _), .and(let lhs, let rhs, _), .or(let lhs, let rhs, _):
            return within(lhs) && within(rhs)
        case .slice(let base, let from, let to, _):
            return within(base) && (from.map(within) ?? true) && (to.map(within) ?? true)
        case .ternary(let condition, let whenTrue, let whenFalse, _):
            return within(condition) && within(whenTrue) && within(whenFalse)
        case .list(let items, _), .builtin(_, let items, _), .call(_, let items, _), .host(_, let items, _), .missingFunction(_, let items, _):
            return items.allSatisfy(within)
        case .map(let entries, _):
            return entries.allSatisfy { within($0.key) && within($0.value) }
        case .path(let pieces, _):
            return pieces.allSatisfy { piece in
                if case .interpolation(let inner) = piece { return within(inner) }
                return true
            }
        case .method(let receiver, _, let arguments, _):
            return within(receiver) && arguments.allSatisfy(within)
        }
    }

    /// Whether `predicate` holds for this node or any node below it.
    func contains(where predicate: (Node) -> Bool) -> Bool {
        var found = false
        // A rewrite that replaces nothing visits every node; compile-time use only.
        _ = rewritten { node in
            if !found, predicate(node) { found = true }
            return found ? node : nil
        }
        return found
    }

    /// This tree with `replacement` applied top-down: where it returns a node, that node takes the
    /// place of the whole subtree; elsewhere the children are rewritten in turn.
    func rewritten(_ replacement: (Node) -> Node?) -> Node {
        if let replaced = replacement(self) { return replaced }
        func r(_ node: Node) -> Node { node.rewritten(replacement) }
        switch self {
        case .constant, .global, .local, .missingFunction:
            return self
        case .member(let base, let name, let span): return .member(r(base), name, span)
        case .projected(let base, let name, let field, let span): return .projected(r(base), name, field, span)
        case .index(let base, let index, let span): return .index(r(base), r(index), span)
        case .slice(let base, let from, let to, let span): return .slice(r(base), from.map(r), to.map(r), span)
        case .not(let operand, let span): return .not(r(operand), span)
        case .negate(let operand, let span): return .negate(r(operand), span)
        case .arithmetic(let op, let lhs, let rhs, let span): return .arithmetic(op, r(lhs), r(rhs), span)
        case .compare(let op, let lhs, let rhs, let span): return .compare(op, r(lhs), r(rhs), span)
        case .equals(let lhs, let rhs, let negated, let span): return .equals(r(lhs), r(rhs), negated: negated, span)
        case .contains(let element, let container, let span): return .contains(r(element), r(container), span)
        case .and(let lhs, let rhs, let span): return .and(r(lhs), r(rhs), span)
        case .or(let lhs, let rhs, let span): return .or(r(lhs), r(rhs), span)
        case .ternary(let condition, let whenTrue, let whenFalse, let span): return .ternary(r(condition), r(whenTrue), r(whenFalse), span)
        case .isType(let operand, let test, let span): return .isType(r(operand), test, span)
        case .list(let items, let span): return .list(items.map(r), span)
        case .map(let entries, let span): return .map(entries.map { (key: r($0.key), value: r($0.value)) }, span)
        case .path(let pieces, let span):
            return .path(pieces.map { piece in
                switch piece {
                case .segment: piece
                case .interpolation(let node): .interpolation(r(node))
                }
            }, span)
        case .method(let receiver, let method, let arguments, let span): return .method(r(receiver), method, arguments.map(r), span)
        case .builtin(let builtin, let arguments, let span): return .builtin(builtin, arguments.map(r), span)
        case .call(let index, let arguments, let span): return .call(index, arguments.map(r), span)
        case .host(let index, let arguments, let span): return .host(index, arguments.map(r), span)
        case .inlined(let body, let span): return .inlined(r(body), span)
        }
    }
}
