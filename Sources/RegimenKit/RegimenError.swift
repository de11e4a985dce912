import RegimenCoaching
import RegimenLanguage

/// Why the engine could not answer, with every problem it found and where.
///
/// Each case says whose input is at fault: ``isInputError`` is `true` for what the caller sent (a
/// profile, a request, an option, a policy name) and `false` for the rule files, which a coach
/// must fix. The `regimen` command ends with status 2 for the first kind and 1 for the second.
public enum RegimenError: DiagnosticError, Hashable {
    /// Rule or catalog files failed to load or lack a kind the planner needs; each diagnostic
    /// gives `file:line:column`.
    case rules([Diagnostic])
    /// The profile was rejected; each problem names its field (and its line and column).
    case profile([ProfileProblem])
    /// A request was rejected: an adaptPlan request (its `current_plan` or its check-ins) or a
    /// tracker tree; each problem is one line naming the request and, where known, its line and
    /// column or document path.
    case request([String])
    /// A rule expression failed while computing (a coach's rule needs fixing), at its location.
    case evaluation(message: String, location: SourceLocation?)
    /// An option the rules do not offer: a training split, a supplements goal.
    case option(String)
    /// The rules refused a request they understood: a duplication of another user's documents,
    /// or of a source whose errors forbid copying it.
    case refused(String)
    /// No policy of that name under `rules/security/`; `searched` lists the files tried.
    case policyNotFound(name: String, searched: [String])
    /// A policy, its test file or a security request could not be read or compiled.
    case policy([Diagnostic])

    /// Whether the caller's input is at fault (`true`) rather than the rule files (`false`).
    public var isInputError: Bool {
        switch self {
        case .rules, .evaluation, .refused: false
        case .profile, .request, .option, .policyNotFound, .policy: true
        }
    }

    /// `ErrorKind.input` when ``isInputError``, else `ErrorKind.rules`.
    public var kind: ErrorKind { isInputError ? .input : .rules }

    /// Every problem as a diagnostic (request problems carry their location in the message).
    public var diagnostics: [Diagnostic] {
        switch self {
        case .rules(let diagnostics), .policy(let diagnostics): diagnostics
        case .profile(let problems): problems.map(\.diagnostic)
        case .request(let problems): problems.map { Diagnostic.error("adapt.input", $0, at: nil) }
        case .evaluation(let message, let location): [.error("rules.evaluation", message, at: location)]
        case .option(let message): [.error("option.unknown", message, at: nil)]
        case .refused(let message): [.error("request.refused", message, at: nil)]
        case .policyNotFound(let name, let searched):
            [.error("policy.not-found", "no policy named '\(name)' (looked for \(searched.joined(separator: ", ")))", at: nil)]
        }
    }

    /// One line per problem, as the command prints them.
    public var description: String {
        switch self {
        case .request(let problems): problems.joined(separator: "\n")
        case .option(let message), .refused(let message): "error: \(message)"
        default: diagnostics.map(\.description).joined(separator: "\n")
        }
    }
}

extension RegimenError {
    /// A plan that stopped: an option the rules do not offer (the caller's), or a failed rule
    /// expression (the rules'), as the error's own kind says.
    static func planFailed(_ error: PlanGenerationError) -> RegimenError {
        switch error.kind {
        case .input: .option(error.message)
        case .rules: .evaluation(message: error.message, location: error.location)
        }
    }

    static func evaluationFailed(_ error: RuleEvaluationError) -> RegimenError {
        .evaluation(message: error.message, location: error.location)
    }
}
