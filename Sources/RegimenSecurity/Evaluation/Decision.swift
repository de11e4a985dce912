package import RegimenLanguage

/// The answer to one request: allow or deny, and why.
public struct Decision: Sendable {
    /// Whether the policy allows the request.
    public var allowed: Bool
    /// The method the request was classified as (`nil` when it was rejected before matching).
    package var method: RequestMethod?
    /// The document (or collection, for list) path the rules saw.
    public var path: String
    /// The statement that granted the request.
    package var grantedBy: AllowStatement? { granting?.statement }
    /// The compiled statement that granted it (a reference: cheaper to carry than the statement).
    let granting: CompiledAllow?
    /// Every allow statement evaluated for the request, in evaluation order.
    package var evaluations: [AllowEvaluation]
    /// Why the request was denied when no statement explains it: no match, a limit, a
    /// precondition of the operation.
    public var note: String? {
        get {
            switch reason {
            case nil: nil
            case .text(let text): text
            case .noMatch(let method, let path): "no matching allow statements for '\(method.rawValue)' on \(path)"
            }
        }
        set { reason = newValue.map(Reason.text) }
    }
    /// `note` before it is spelled: a request on a path no rule covers is common and its note
    /// is seldom read, and putting the sentence together cost more than the rest of its decision.
    /// Not private, so that the synthesized memberwise initializer (the one decisions are built
    /// with) exists: it builds the value directly, where a hand-written initializer of a type
    /// this large built it, copied it into the result and destroyed the original.
    var reason: Reason?

    enum Reason: Sendable {
        case text(String)
        case noMatch(RequestMethod, path: String)
    }

    /// One line: `allow by file:line` or `deny: reason`.
    public var summary: String {
        if allowed {
            return grantedBy.map { "allowed by 'allow \($0.methodList)' at \($0.location)" } ?? "allowed"
        }
        if let note { return note }
        guard !evaluations.isEmpty else { return "no matching allow statements" }
        let failures = evaluations.map(\.briefReason)
        return failures.joined(separator: "; ")
    }
}

extension Decision {
    init(allowed: Bool, method: RequestMethod?, path: String, granting: CompiledAllow?, evaluations: [AllowEvaluation], note: String?) {
        self.init(allowed: allowed, method: method, path: path, granting: granting, evaluations: evaluations, reason: note.map(Reason.text))
    }
}

// Kept to four words (the error boxed in `Outcome.failed`) so that building a record and moving
// it into a decision's array stays a few register moves; a larger record was built twice and
// copied (the measurement is noted in RegimenKit's Benchmarks/SecurityBenchmarks.swift).
/// How one allow statement fared.
package struct AllowEvaluation: Sendable {
    package enum Outcome: Sendable, Hashable {
        case granted
        case denied
        /// Boxed: an error is several words, and only some outcomes carry one.
        indirect case failed(EvaluationError)

        /// A pattern test: `== .granted` would build and compare a whole outcome.
        var isGranted: Bool { if case .granted = self { true } else { false } }
    }

    package var statement: AllowStatement { allow.statement }
    let allow: CompiledAllow
    package var outcome: Outcome
    /// The wildcard bindings the statement was evaluated with.
    package var bindings: [(name: String, value: Value)]
    /// For a list request: the query branch (one per `in` value) this outcome is for.
    package var branch: String? {
        get { extras?.branch }
        set { extras = Extras.make(branch: newValue, culprit: extras?.culprit) }
    }
    /// The sub-expression that made the condition false or fail (filled in when explaining).
    package var culprit: Culprit? {
        get { extras?.culprit }
        set { extras = Extras.make(branch: extras?.branch, culprit: newValue) }
    }
    /// `branch` and `culprit` behind one reference, `nil` when neither is set: only list
    /// requests have branches and only explanations have culprits.
    private var extras: Extras?

    private final class Extras: Sendable {
        let branch: String?
        let culprit: Culprit?

        private init(branch: String?, culprit: Culprit?) {
            self.branch = branch
            self.culprit = culprit
        }

        static func make(branch: String?, culprit: Culprit?) -> Extras? {
            branch == nil && culprit == nil ? nil : Extras(branch: branch, culprit: culprit)
        }
    }

    init(allow: CompiledAllow, outcome: Outcome, bindings: [(name: String, value: Value)], branch: String?, culprit: Culprit?) {
        self.allow = allow
        self.outcome = outcome
        self.bindings = bindings
        extras = Extras.make(branch: branch, culprit: culprit)
    }

    /// `false for 'update' @ file:line: reason`
    package var briefReason: String {
        let site = "'allow \(statement.methodList)' at \(statement.location)"
        switch outcome {
        case .granted: return "granted by \(site)"
        case .denied:
            if let culprit { return "\(site): \(culprit.describe())" }
            return "\(site) was false"
        case .failed(let error):
            if let culprit { return "\(site): \(culprit.describe())" }
            return "\(site) errored: \(error.message)"
        }
    }
}

/// The sub-expression that decided a false or failed condition.
package struct Culprit: Sendable {
    /// The sub-expression as written.
    package var text: String
    package var location: SourceLocation?
    /// Where it ends (the location just past its last scalar), for highlighting it in the text.
    package var endLocation: SourceLocation? = nil
    /// Its value (`false`, or a non-bool), or the error it raised.
    package var outcome: Result<Value, EvaluationError>
    /// Values of its operands, for comparisons (`request.auth.uid = 'bob'`).
    package var operands: [(text: String, value: Result<Value, EvaluationError>)]
    /// Function calls descended through on the way (`isOwner(userId)`).
    package var via: [String]

    package func describe() -> String {
        var out = "'\(text)'"
        if let location { out += " (\(location))" }
        switch outcome {
        case .success(let value): out += " was \(value)"
        case .failure(let error): out += " errored: \(error.message)"
        }
        let shown = operands.filter { $0.text != text }
        if !shown.isEmpty {
            out += " [" + shown.map { operand in
                switch operand.value {
                case .success(let v): "\(operand.text) = \(v)"
                case .failure(let e): "\(operand.text): \(e.message)"
                }
            }.joined(separator: ", ") + "]"
        }
        if !via.isEmpty { out += " in " + via.joined(separator: " → ") }
        return out
    }
}

extension Decision {
    /// A deny made without evaluating the rules, because something a decision needs could not be
    /// had (a live document source that did not answer): fail closed, with `note` as the reason.
    package static func failedClosed(path: String, note: String) -> Decision {
        Decision(allowed: false, method: nil, path: path, granting: nil, evaluations: [], note: note)
    }
}
