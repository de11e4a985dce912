import RegimenCoaching
import RegimenLanguage

/// Why the engine could not answer, with every problem it found and where.
///
/// An error is data: its ``code`` says which failure it is, its ``diagnostics`` list every
/// problem with a stable id, a message and its place (`file:line:column`, or for a document
/// read without positions the diagnostic's `field` path), and ``isInputError`` says whose input
/// is at fault: what the caller sent (a profile, a request, an option, a policy name) or the
/// rule files, which a coach must fix. The `regimen` command ends with status 2 for the first
/// kind and 1 for the second.
///
/// Compare ``code`` with `==` (`error.code == .profile`): it is a struct, not an enum, so a
/// new kind of failure does not break a client's `switch`.
public struct RegimenError: DiagnosticError, Hashable {
    /// Which failure an error is. New codes may be added; compare with `==`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case rules, profile, request, evaluation, option, refused, policyNotFound = "policy-not-found", policy
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// Rule or catalog files failed to load or lack a kind the planner needs.
        public static let rules = Code(.rules)
        /// The profile was rejected; ``RegimenError/profileProblems`` names each field.
        public static let profile = Code(.profile)
        /// A request was rejected: an adaptPlan request (its `current_plan` or its check-ins), a
        /// tracker tree or log, a body that could not be read.
        public static let request = Code(.request)
        /// A rule expression failed while computing (a coach's rule needs fixing).
        public static let evaluation = Code(.evaluation)
        /// An option the rules do not offer: a training split, a supplements goal, a formula.
        public static let option = Code(.option)
        /// The rules refused a request they understood: a duplication of another user's
        /// documents, or of a source whose errors forbid copying it.
        public static let refused = Code(.refused)
        /// No policy of that name under `rules/security/`.
        public static let policyNotFound = Code(.policyNotFound)
        /// A policy, its test file or a security request could not be read or compiled.
        public static let policy = Code(.policy)

        /// The code's name (`policy-not-found`).
        public var description: String { base.rawValue }

        fileprivate var isInputError: Bool {
            switch base {
            case .rules, .evaluation, .refused: false
            case .profile, .request, .option, .policyNotFound, .policy: true
            }
        }
    }

    /// Which failure this is.
    public let code: Code
    /// Every problem, each with its stable id, message and location (or field path).
    public let diagnostics: [Diagnostic]
    /// The input the problems are in (a file name, `<body>`, `<request>`), naming those
    /// diagnostics that have no location of their own; `nil` when they need none.
    public let input: String?
    /// For a rejected profile (``Code/profile``), each problem by field with the value given and
    /// what is allowed; empty for every other code.
    public let profileProblems: [ProfileProblem]

    private init(_ code: Code, _ diagnostics: [Diagnostic], input: String? = nil, profileProblems: [ProfileProblem] = []) {
        self.code = code
        self.diagnostics = diagnostics
        self.input = input
        self.profileProblems = profileProblems
    }

    /// Whether the caller's input is at fault (`true`) rather than the rule files (`false`).
    public var isInputError: Bool { code.isInputError }

    /// `ErrorKind.input` when ``isInputError``, else `ErrorKind.rules`.
    public var kind: ErrorKind { isInputError ? .input : .rules }

    /// One line per problem, as the command prints them: `file:line:column: error: field:
    /// message` (the field when the problem names one), or, for a problem without a place in a
    /// file, the input's name and the field path first.
    public var description: String {
        diagnostics.map { diagnostic in
            guard diagnostic.location != nil else {
                return ([input, diagnostic.field].compactMap { $0 } + [diagnostic.description]).joined(separator: ": ")
            }
            guard let field = diagnostic.field else { return diagnostic.description }
            var named = diagnostic
            named.message = "\(field): \(diagnostic.message)"
            return named.description
        }.joined(separator: "\n")
    }
}

extension RegimenError {
    /// Rule or catalog files that failed to load; each diagnostic gives `file:line:column`.
    package static func rules(_ diagnostics: [Diagnostic]) -> RegimenError { RegimenError(.rules, diagnostics) }

    /// A rejected profile; each problem names its field (and its line and column).
    package static func profile(_ problems: [ProfileProblem]) -> RegimenError {
        RegimenError(.profile, problems.map { problem in
            var diagnostic = problem.diagnostic
            diagnostic.message = problem.complaint
            diagnostic.field = problem.field
            return diagnostic
        }, profileProblems: problems)
    }

    /// A rejected request named `input`: each diagnostic located in it, or naming its field.
    package static func request(_ diagnostics: [Diagnostic], input: String?) -> RegimenError {
        RegimenError(.request, diagnostics, input: input)
    }

    /// A rule expression that failed while computing, at its location.
    package static func evaluation(message: String, location: SourceLocation?) -> RegimenError {
        RegimenError(.evaluation, [.error("rules.evaluation", message, at: location)])
    }

    /// An option the rules do not offer, at its place in the input when it has one, naming the
    /// parameter it was given as (`goal`, `start-intensity`) when the caller named one.
    package static func option(_ message: String, at location: SourceLocation? = nil, field: String? = nil) -> RegimenError {
        RegimenError(.option, [Diagnostic(.error, id: "option.unknown", message, at: location, field: field)])
    }

    /// Several options the rules do not offer, one diagnostic each, naming the parameter it was
    /// given as (`library`, `muscle`).
    package static func options(_ problems: [(field: String, message: String)]) -> RegimenError {
        RegimenError(.option, problems.map { Diagnostic(.error, id: "option.unknown", $0.message, at: nil, field: $0.field) })
    }

    /// A request the rules understood and refused.
    static func refused(_ message: String) -> RegimenError {
        RegimenError(.refused, [.error("request.refused", message, at: nil)])
    }

    /// No policy `name`; `searched` lists the files tried (a note, for people: not for clients).
    package static func policyNotFound(name: String, searched: [String]) -> RegimenError {
        let notes = searched.isEmpty ? [] : ["looked for \(searched.joined(separator: ", "))"]
        return RegimenError(.policyNotFound, [.error("policy.not-found", "no policy named '\(name)'", at: nil, notes: notes)])
    }

    /// A policy, its test file or a security request that could not be read or compiled.
    package static func policy(_ diagnostics: [Diagnostic]) -> RegimenError { RegimenError(.policy, diagnostics) }

    /// A plan that stopped: an option the rules do not offer (the caller's), or a failed rule
    /// expression (the rules'), as the error's own kind says.
    static func planFailed(_ error: PlanGenerationError) -> RegimenError {
        switch error.kind {
        case .input: .option(error.message, at: error.location)
        case .rules: .evaluation(message: error.message, location: error.location)
        }
    }

    static func evaluationFailed(_ error: RuleEvaluationError) -> RegimenError {
        .evaluation(message: error.message, location: error.location)
    }
}
