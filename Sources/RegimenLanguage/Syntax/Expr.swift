/// The syntax tree of a rules-language expression, as parsed; every node carries its span.
package indirect enum Expr: Sendable {
    case literal(Value, SourceSpan)
    case identifier(String, SourceSpan)
    /// `base.name`
    case member(Expr, String, SourceSpan)
    /// `base[index]`
    case index(Expr, Expr, SourceSpan)
    /// `base[from:to]`
    case slice(Expr, Expr?, Expr?, SourceSpan)
    /// `callee(arguments)`; the callee is an identifier, a member (method or namespaced function).
    case call(Expr, [Expr], SourceSpan)
    case unary(UnaryOperator, Expr, SourceSpan)
    case binary(BinaryOperator, Expr, Expr, SourceSpan)
    /// `value is typeName`
    case isType(Expr, String, SourceSpan)
    case ternary(Expr, Expr, Expr, SourceSpan)
    case list([Expr], SourceSpan)
    case map([MapEntry], SourceSpan)
    /// `/databases/$(database)/documents/users/$(uid)`
    case path([PathPart], SourceSpan)

    package var span: SourceSpan {
        switch self {
        case .literal(_, let s), .identifier(_, let s), .member(_, _, let s), .index(_, _, let s),
             .slice(_, _, _, let s), .call(_, _, let s), .unary(_, _, let s), .binary(_, _, _, let s),
             .isType(_, _, let s), .ternary(_, _, _, let s), .list(_, let s), .map(_, let s), .path(_, let s):
            return s
        }
    }

    /// The direct sub-expressions, left to right (a call's callee first).
    package var children: [Expr] {
        switch self {
        case .member(let b, _, _): [b]
        case .index(let b, let i, _): [b, i]
        case .slice(let b, let f, let t, _): [b] + [f, t].compactMap { $0 }
        case .call(let callee, let args, _): [callee] + args
        case .unary(_, let e, _), .isType(let e, _, _): [e]
        case .binary(_, let l, let r, _): [l, r]
        case .ternary(let c, let t, let f, _): [c, t, f]
        case .list(let items, _): items
        case .map(let entries, _): entries.flatMap { [$0.key, $0.value] }
        case .path(let parts, _): parts.compactMap { if case .interpolation(let e) = $0 { e } else { nil } }
        case .literal, .identifier: []
        }
    }
}

package struct MapEntry: Sendable {
    package var key: Expr
    package var value: Expr
}

package enum PathPart: Sendable {
    case segment(String)
    case interpolation(Expr)
}

package enum UnaryOperator: String, Sendable {
    case not = "!"
    case negate = "-"
}

package enum BinaryOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case equal = "==", notEqual = "!="
    case `in` = "in"
    case and = "&&", or = "||"
}
