/// An expression after compilation: names resolved to slots, methods and functions to ids.
///
/// Evaluating a node never parses or looks a name up by string; map keys are the only strings
/// hashed at run time.
indirect enum Node: Sendable {
    case constant(Value)
    /// A variable of the environment, by slot.
    case global(Int, SourceSpan)
    /// A parameter or `let` of the current function frame, by slot.
    case local(Int, SourceSpan)
    case member(Node, String, SourceSpan)
    /// `base.name` where the field may be supplied in a slot of its own (see ``Projection``):
    /// read from there when the presence slot says so, from `base` otherwise.
    case projected(Node, String, ProjectedField, SourceSpan)
    case index(Node, Node, SourceSpan)
    case slice(Node, Node?, Node?, SourceSpan)
    case not(Node, SourceSpan)
    case negate(Node, SourceSpan)
    case arithmetic(BinaryOperator, Node, Node, SourceSpan)
    case compare(BinaryOperator, Node, Node, SourceSpan)
    case equals(Node, Node, negated: Bool, SourceSpan)
    case contains(Node, Node, SourceSpan)
    case and(Node, Node, SourceSpan)
    case or(Node, Node, SourceSpan)
    case ternary(Node, Node, Node, SourceSpan)
    case isType(Node, TypeTest, SourceSpan)
    case list([Node], SourceSpan)
    case map([(key: Node, value: Node)], SourceSpan)
    case path([PathPiece], SourceSpan)
    case method(Node, Method, [Node], SourceSpan)
    case builtin(Builtin, [Node], SourceSpan)
    /// A user-defined function, by index in the environment's function table.
    case call(Int, [Node], SourceSpan)
    /// A function the host supplies (`get`, `exists`, …), by index in the environment's host table.
    case host(Int, [Node], SourceSpan)
    /// A call the emulator accepts at compile time but reports as missing when evaluated.
    case missingFunction(String, [Node], SourceSpan)
    /// A call replaced by the function's body (see ``CallInliner``): it still counts the call's
    /// step and level of call depth. Untraced evaluation only.
    case inlined(Node, SourceSpan)

    var span: SourceSpan? {
        switch self {
        case .constant: nil
        case .global(_, let s), .local(_, let s), .member(_, _, let s), .projected(_, _, _, let s), .index(_, _, let s), .slice(_, _, _, let s),
             .not(_, let s), .negate(_, let s), .arithmetic(_, _, _, let s), .compare(_, _, _, let s),
             .equals(_, _, _, let s), .contains(_, _, let s), .and(_, _, let s), .or(_, _, let s),
             .ternary(_, _, _, let s), .isType(_, _, let s), .list(_, let s), .map(_, let s), .path(_, let s),
             .method(_, _, _, let s), .builtin(_, _, let s), .call(_, _, let s), .host(_, _, let s),
             .missingFunction(_, _, let s), .inlined(_, let s):
            s
        }
    }
}

enum PathPiece: Sendable {
    case segment(String)
    case interpolation(Node)
}

/// The type names `is` accepts.
enum TypeTest: String, Sendable, CaseIterable {
    case bool, bytes, float, int, list, latlng, number, path, map, string, timestamp, duration
    case set, mapDiff = "map_diff", constraint

    func matches(_ value: Value) -> Bool {
        switch (self, value) {
        case (.bool, .bool), (.bytes, .bytes), (.float, .float), (.int, .int), (.list, .list),
             (.latlng, .latlng), (.path, .path), (.map, .map), (.string, .string),
             (.timestamp, .timestamp), (.duration, .duration), (.mapDiff, .mapDiff):
            true
        case (.number, .int), (.number, .float):
            true
        // The emulator answers false for `x is set` even on a set value.
        default:
            false
        }
    }
}

/// A user-defined function after compilation: parameters and `let`s are frame slots.
/// A reference, so a call takes it out of the function table with one retain.
final class CompiledFunction: Sendable {
    let name: String
    let parameterCount: Int
    /// The bodies before inlining, for callers that inline this function (``CallInliner``) and
    /// for questions about what it reads.
    let resultNode: Node
    let letNodes: [Node]
    var hasLets: Bool { !letNodes.isEmpty }
    /// `let` bodies, evaluated lazily on first use (an unused failing `let` does not fail the call).
    let lets: [Evaluator]
    let result: Evaluator
    /// `result` asking only whether it is `true`, for conditions (see ``GrantCompiler``).
    let grantResult: Grant
    /// The same bodies reporting to a tracer, for explanations.
    let tracedLets: [Evaluator]
    let tracedResult: Evaluator
    var frameSize: Int { parameterCount + lets.count }

    /// - Parameter inliner: inlines the helper calls of the untraced bodies.
    init(name: String, parameterCount: Int, lets: [Node], result: Node, inliner: CallInliner? = nil) {
        self.name = name
        self.parameterCount = parameterCount
        self.resultNode = result
        self.letNodes = lets
        // Reads of `let`s are never plain, so they are never inlined into a callee.
        self.lets = lets.map { ClosureCompiler.compile(inliner?.inline($0, callerParameters: parameterCount) ?? $0) }
        let inlinedResult = inliner?.inline(result, callerParameters: parameterCount) ?? result
        self.result = ClosureCompiler.compile(inlinedResult)
        self.grantResult = GrantCompiler().compile(inlinedResult)
        self.tracedLets = lets.map { ClosureCompiler.compileTraced($0) }
        self.tracedResult = ClosureCompiler.compileTraced(result)
    }
}
