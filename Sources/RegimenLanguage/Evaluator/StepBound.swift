/// The most steps an evaluation of a node can count, known before it runs.
///
/// Rules have no loops and no recursion, so every node is evaluated at most once per evaluation
/// of its function frame, and a `let` at most once per frame. Summing the nodes that count a step
/// (operators that compute, method and function calls) over the expression and the bodies of the
/// functions it can call bounds the count. When that bound is within the step limit the limit
/// can never trip, whatever order or subset of nodes an evaluation visits; ``GrantCompiler``
/// relies on that to skip work without changing any outcome.
struct StepBound {
    /// Saturates here: anything this large is far beyond any step limit.
    static let cap = Int.max / 4

    let functions: [CompiledFunction]
    private var functionBounds: [Int: Int] = [:]
    private var visiting: Set<Int> = []

    init(functions: [CompiledFunction]) {
        self.functions = functions
    }

    /// The bound for `node` evaluated in any frame.
    mutating func bound(_ node: Node) -> Int {
        switch node {
        case .constant, .global, .local, .missingFunction:
            return 0
        case .member(let base, _, _), .projected(let base, _, _, _), .not(let base, _), .negate(let base, _), .isType(let base, _, _):
            return bound(base)
        case .index(let base, let index, _):
            return Self.sum(bound(base), bound(index))
        case .slice(let base, let from, let to, _):
            return Self.sum(bound(base), from.map { bound($0) } ?? 0, to.map { bound($0) } ?? 0)
        case .compare(_, let lhs, let rhs, _), .equals(let lhs, let rhs, _, _), .and(let lhs, let rhs, _), .or(let lhs, let rhs, _):
            return Self.sum(bound(lhs), bound(rhs))
        case .arithmetic(_, let lhs, let rhs, _), .contains(let lhs, let rhs, _):
            return Self.sum(1, bound(lhs), bound(rhs))
        case .ternary(let condition, let whenTrue, let whenFalse, _):
            return Self.sum(bound(condition), bound(whenTrue), bound(whenFalse))
        case .list(let items, _):
            return items.reduce(0) { Self.sum($0, bound($1)) }
        case .map(let entries, _):
            return entries.reduce(0) { Self.sum($0, bound($1.key), bound($1.value)) }
        case .path(let pieces, _):
            return pieces.reduce(0) { total, piece in
                if case .interpolation(let inner) = piece { return Self.sum(total, bound(inner)) }
                return total
            }
        case .method(let receiver, _, let arguments, _):
            return arguments.reduce(Self.sum(1, bound(receiver))) { Self.sum($0, bound($1)) }
        case .builtin(_, let arguments, _), .host(_, let arguments, _):
            return arguments.reduce(1) { Self.sum($0, bound($1)) }
        case .call(let index, let arguments, _):
            return arguments.reduce(Self.sum(1, functionBound(index))) { Self.sum($0, bound($1)) }
        case .inlined(let body, _):
            return Self.sum(1, bound(body))
        }
    }

    /// A call's frame: its result and each `let` once.
    private mutating func functionBound(_ index: Int) -> Int {
        if let known = functionBounds[index] { return known }
        // Recursion is rejected when functions compile; a cycle here would be unbounded.
        guard functions.indices.contains(index), !visiting.contains(index) else { return Self.cap }
        visiting.insert(index)
        let function = functions[index]
        let total = function.letNodes.reduce(bound(function.resultNode)) { Self.sum($0, bound($1)) }
        visiting.remove(index)
        functionBounds[index] = total
        return total
    }

    private static func sum(_ values: Int...) -> Int {
        values.reduce(0) { min(cap, $0 + min(cap, $1)) }
    }
}
