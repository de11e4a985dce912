import RegimenLanguage
import RegimenSecurity

/// What a policy does with the symbolic request of a ``SymbolicEncoder``: SMT Bools for "some
/// allow statement grants" and "some applicable allow statement errors".
struct PolicyEncoding {
    /// Some statement for the method, on a matching path, evaluates to `true`.
    var allowed: String
    /// Some statement for the method, on a matching path, evaluates to an error or a non-bool.
    var errors: String
    /// Whether any match block's pattern can match the request path at all.
    var matchesAnything: Bool

    /// Encodes `policy` for the encoder's method and path.
    init(_ policy: SecurityPolicy, _ encoder: SymbolicEncoder) {
        let expressions = ExpressionEncoder(encoder: encoder)
        let full = [SymbolicValue.string("databases"), .string("(default)"), .string("documents")] + encoder.segments
        var grants: [String] = []
        var failures: [String] = []
        let root = LexicalScope(parent: nil, functions: policy.functions)
        var anyMatch = false
        func visit(_ block: MatchBlock, _ scope: LexicalScope, _ offset: Int, _ conditions: [String]) {
            for (end, bindings, matchConditions) in Self.match(block.pattern.segments, full, from: offset, version2: policy.usesVersion2, encoder) {
                let inner = LexicalScope(parent: scope, variables: bindings, functions: block.functions)
                let allConditions = conditions + matchConditions
                if end == full.count {
                    for allow in block.allows where allow.requestMethods.contains(encoder.method.requestMethod) {
                        anyMatch = true
                        let guardTerm = allConditions.isEmpty ? "true" : "(and \(allConditions.joined(separator: " ")))"
                        guard let condition = allow.condition else {
                            grants.append(guardTerm)
                            continue
                        }
                        let value = expressions.encode(condition, in: inner)
                        grants.append("(and \(guardTerm) (istrue \(value)))")
                        failures.append("(and \(guardTerm) (not (is-vbool \(value))))")
                    }
                }
                for child in block.children { visit(child, inner, end, allConditions) }
            }
        }
        for block in policy.matches { visit(block, root, 0, []) }
        allowed = grants.isEmpty ? "false" : "(or \(grants.joined(separator: " ")))"
        errors = failures.isEmpty ? "false" : "(or \(failures.joined(separator: " ")))"
        matchesAnything = anyMatch
    }

    /// Every way `pattern` matches `path` from `offset`: where it ends, the wildcard bindings,
    /// and the SMT conditions (literal segments equal to symbolic ones).
    static func match(
        _ pattern: [PathPatternSegment], _ path: [SymbolicValue], from offset: Int, version2: Bool, _ encoder: SymbolicEncoder
    ) -> [(Int, [String: SymbolicValue], [String])] {
        var results: [(Int, [String: SymbolicValue], [String])] = []
        func step(_ i: Int, _ position: Int, _ bindings: [String: SymbolicValue], _ conditions: [String]) {
            if i == pattern.count {
                results.append((position, bindings, conditions))
                return
            }
            switch pattern[i] {
            case .literal(let text):
                guard position < path.count else { return }
                switch path[position] {
                case .string(let s):
                    if s == text { step(i + 1, position + 1, bindings, conditions) }
                default:
                    step(i + 1, position + 1, bindings, conditions + ["(= \(SymbolicEncoder.termOfSegment(path[position]))  (vstr \(SMTPrelude.string(text))))"])
                }
            case .wildcard(let name):
                guard position < path.count else { return }
                var b = bindings
                b[name] = path[position]
                step(i + 1, position + 1, b, conditions)
            case .recursive(let name):
                // Version 2: zero or more segments; version 1: one or more, only at the end.
                let least = version2 ? 0 : 1
                guard position + least <= path.count else { return }
                for length in least...(path.count - position) {
                    var b = bindings
                    b[name] = .path(Array(path[position..<(position + length)]))
                    step(i + 1, position + length, b, conditions)
                }
            }
        }
        step(0, offset, [:], [])
        return results
    }
}
