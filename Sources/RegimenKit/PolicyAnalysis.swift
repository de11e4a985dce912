package import RegimenAnalysis
package import RegimenLanguage

/// The symbolic analysis behind `regimen rules prove` and `regimen rules diff` (issue 37): questions
/// about every request a Firestore policy decides, answered by an SMT solver run as an external
/// program (z3 or cvc5, found at run time: the package builds and runs without one).
///
/// Each answer is a ``PolicyComparison/Entry`` per request shape (method and path): proved, a
/// counterexample replayed through the evaluator, or why neither.
package struct PolicyAnalysis: Sendable {
    let analyzer: PolicyAnalyzer

    /// The analysis with `solver` (a name on `PATH` or a path), each query bounded by
    /// `timeoutSeconds`; `nil` when no such solver runs or the timeout is not positive.
    package init?(solver: String, timeoutSeconds: Double) {
        guard timeoutSeconds > 0, let found = SMTSolver.find(solver, timeoutSeconds: timeoutSeconds) else { return nil }
        analyzer = PolicyAnalyzer(solver: found)
    }

    /// The questions `rules prove --query` asks of every request in scope.
    package enum Query: String, Sendable, CaseIterable {
        case alwaysAllows = "always-allows"
        case alwaysDenies = "always-denies"
        case neverErrors = "never-errors"
    }

    /// The request shapes a scope such as `write /users/{uid}/**` names (`**` unrolled to paths of
    /// up to 3 segments); `nil` when the method word or the path pattern does not read.
    package static func shapes(inScope scope: String) -> [RequestShape]? {
        let parts = scope.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let methods = AnalysedMethod.expand(parts[0]) else { return nil }
        let shapes = methods.flatMap { RequestShape.shapes(method: $0, pattern: parts[1]) ?? [] }
        return shapes.isEmpty ? nil : shapes
    }

    /// Whether every request in `scope` that `policy` allows satisfies `assertion` (a condition in
    /// the rules language, with `request`, `resource` and the scope's wildcards in scope).
    /// - Throws: the assertion's located problems when it does not compile.
    package func prove(_ policy: Policy, scope: String, assertion: String) throws(DiagnosticsError) -> [PolicyComparison.Entry] {
        let parts = scope.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let shapes = Self.shapes(inScope: scope) else { return [] }
        let asserted = try PolicyComparison.assertionPolicy(methodWord: parts[0], pattern: parts[1], assertion: assertion)
        return PolicyComparison.prove(policy.parsed, assertion: asserted, shapes: shapes, analyzer: analyzer)
    }

    /// `query` asked of `policy` for each of `shapes`.
    package func ask(_ query: Query, of policy: Policy, for shapes: [RequestShape]) -> [PolicyComparison.Entry] {
        shapes.map { shape in
            let verdict: Verdict
            switch query {
            case .alwaysAllows: verdict = analyzer.alwaysAllows(policy.parsed, shape)
            case .alwaysDenies: verdict = analyzer.alwaysDenies(policy.parsed, shape)
            case .neverErrors: verdict = analyzer.neverErrors(policy.parsed, shape)
            }
            return PolicyComparison.Entry(shape: shape, first: verdict, second: nil)
        }
    }

    /// What `new` newly allows (first) and newly denies (second) compared with `old`, per match
    /// path of either version and per method.
    package func diff(_ old: Policy, _ new: Policy) -> [PolicyComparison.Entry] {
        PolicyComparison.diff(old.parsed, new.parsed, analyzer: analyzer)
    }
}
