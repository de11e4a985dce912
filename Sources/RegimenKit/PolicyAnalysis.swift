package import RegimenAnalysis
package import RegimenLanguage
import RegimenSecurity

/// The symbolic analysis behind `regimen rules prove` and `regimen rules diff` (issue 37): questions
/// about every request a Firestore policy decides, answered by an SMT solver run as an external
/// program (z3 or cvc5, found at run time: the package builds and runs without one).
///
/// Each answer is a ``PolicyComparison/Entry`` per request shape (method and path): proved, a
/// counterexample replayed through the evaluator, or why neither.
package struct PolicyAnalysis: Sendable {
    let analyzer: PolicyAnalyzer

    /// One answer per request shape: for a proof, whether it holds; for a diff, both directions.
    package typealias Entry = PolicyComparison.Entry

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
    /// the rules language, with `request`, `resource` and the scope's wildcards in scope). Once
    /// `proceed` answers false (a caller's time budget), the shapes not yet asked are unknown.
    /// - Throws: the assertion's located problems when it does not compile, or when it is more
    ///   than one condition (text that closes the statement to add rules of its own).
    package func prove(_ policy: Policy, scope: String, assertion: String, proceed: () -> Bool = { true }) throws(DiagnosticsError) -> [PolicyComparison.Entry] {
        let parts = scope.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let shapes = Self.shapes(inScope: scope) else { return [] }
        let asserted = try PolicyComparison.assertionPolicy(methodWord: parts[0], pattern: parts[1], assertion: assertion)
        let statements = Self.allowStatementCount(asserted.matches)
        guard statements == 1 else {
            throw DiagnosticsError([Diagnostic(.error, id: "analysis.assertion", "the assertion must be one condition (it made \(statements) allow statements)", at: SourceLocation(file: "--assert", line: 1, column: 1))])
        }
        return Self.each(shapes, proceed) { shape in
            PolicyComparison.Entry(shape: shape, first: analyzer.implies(policy.parsed, asserted, shape, name: "allowed but the assertion fails"), second: nil)
        }
    }

    private static func allowStatementCount(_ blocks: [MatchBlock]) -> Int {
        blocks.reduce(0) { $0 + $1.allows.count + allowStatementCount($1.children) }
    }

    /// `query` asked of `policy` for each of `shapes`, until `proceed` answers false.
    package func ask(_ query: Query, of policy: Policy, for shapes: [RequestShape], proceed: () -> Bool = { true }) -> [PolicyComparison.Entry] {
        Self.each(shapes, proceed) { shape in
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
    /// path of either version and per method, until `proceed` answers false.
    package func diff(_ old: Policy, _ new: Policy, proceed: () -> Bool = { true }) -> [PolicyComparison.Entry] {
        Self.each(PolicyComparison.diffShapes(old.parsed, new.parsed), pairs: true, proceed) { shape in
            let (allows, denies) = analyzer.equivalent(old.parsed, new.parsed, shape)
            return PolicyComparison.Entry(shape: shape, first: allows, second: denies)
        }
    }

    /// A comparison's counts, the same for `rules diff` and the page: directions with a confirmed
    /// counterexample (`differences`), and directions neither proved nor confirmed (`open`).
    package static func tally(_ entries: [Entry]) -> (differences: Int, open: Int) {
        var differences = 0, open = 0
        for verdict in entries.flatMap({ [$0.first] + ($0.second.map { [$0] } ?? []) }) {
            if verdict.counterexample != nil { differences += 1 } else if !verdict.isProved { open += 1 }
        }
        return (differences, open)
    }

    /// The reason a shape was not asked: the caller stopped the analysis first.
    static let notAsked = "not asked: the time budget ran out before this path"

    /// `answer` for each shape while `proceed` holds; every later shape is an honest unknown,
    /// so a partial analysis never reads as a complete one.
    private static func each(_ shapes: [RequestShape], pairs: Bool = false, _ proceed: () -> Bool, _ answer: (RequestShape) -> PolicyComparison.Entry) -> [PolicyComparison.Entry] {
        var stopped = false
        return shapes.map { shape in
            if !stopped, proceed() { return answer(shape) }
            stopped = true
            return PolicyComparison.Entry(shape: shape, first: .unknown(reason: notAsked), second: pairs ? .unknown(reason: notAsked) : nil)
        }
    }
}
