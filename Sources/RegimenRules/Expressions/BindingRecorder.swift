package import RegimenLanguage
import Synchronization

/// Records the variables each rule expression is evaluated with while the real engine runs, so
/// a test can compare what a kind declares (``ExpressionScope``) with what the engine binds: a
/// declared name that is never bound, or a bound name nobody declared, then fails a test instead
/// of silently reading `null` or being ignored.
///
/// Recording is off unless a test installs a recorder with `BindingRecorder.$current.withValue`;
/// the engine then pays one task-local read per evaluation.
package final class BindingRecorder: Sendable {
    /// One evaluation: where its expression is written and the names bound, with their values.
    package struct Evaluation: Sendable {
        package let location: SourceLocation?
        package let bindings: [String: Value]
    }

    /// The recorder of the running task, if a test installed one.
    @TaskLocal package static var current: BindingRecorder?

    private let recorded = Mutex<[Evaluation]>([])

    init() {}

    /// Notes that the expression written at `location` is evaluated with `bindings`.
    package func record(at location: SourceLocation?, _ bindings: [String: Value]) {
        recorded.withLock { $0.append(Evaluation(location: location, bindings: bindings)) }
    }

    /// Every evaluation recorded so far, in order.
    package var evaluations: [Evaluation] { recorded.withLock { $0 } }

    /// Where the recorded evaluations disagree with the declarations, one line each: an
    /// evaluation of an expression written at none of the scopes' `locations`; a bound name its
    /// scope does not declare; a value its declared type does not admit (an unbound variable
    /// reads `null`); a declared name no evaluation of its scope bound; a scope never evaluated
    /// (a check that saw nothing proves nothing). Empty when the engine binds what is declared.
    func mismatches(_ scopes: [(scope: ExpressionScope, locations: Set<SourceLocation>)]) -> [String] {
        var problems: [String] = []
        var boundPerScope = Array(repeating: Set<String>(), count: scopes.count)
        var evaluatedPerScope = Array(repeating: 0, count: scopes.count)
        for evaluation in evaluations {
            let place = evaluation.location.map { "\($0)" } ?? "<unlocated>"
            guard let index = scopes.firstIndex(where: { entry in evaluation.location.map(entry.locations.contains) ?? false }) else {
                problems.append("\(place): evaluated, but it is in none of the scopes checked")
                continue
            }
            let scope = scopes[index].scope
            evaluatedPerScope[index] += 1
            boundPerScope[index].formUnion(evaluation.bindings.keys)
            for name in evaluation.bindings.keys.sorted() where scope.variable(name) == nil {
                problems.append("\(place): '\(name)' is bound but \(scope.name) does not declare it")
            }
            for variable in scope.variables {
                let value = evaluation.bindings[variable.name] ?? .null
                if !variable.type.admits(value) {
                    problems.append("\(place): '\(variable.name)' is declared \(variable.type) but reads \(value.typeName)")
                }
            }
        }
        for (index, entry) in scopes.enumerated() {
            if evaluatedPerScope[index] == 0 { problems.append("\(entry.scope.name): never evaluated") }
            for name in entry.scope.names where !boundPerScope[index].contains(name) && evaluatedPerScope[index] > 0 {
                problems.append("\(entry.scope.name): '\(name)' is declared but never bound")
            }
        }
        return problems
    }
}
