import RegimenLanguage
import RegimenSecurity

extension Decision {
    /// The decision as JSON: `{"decision": "allow"|"deny", "allowed", "method", "path",
    /// "reason", "grantedBy"?}`; with `explain`, `"evaluations"` lists every candidate allow
    /// statement with its outcome, wildcard bindings and the sub-expression that decided it,
    /// the facts `regimen authorize --explain` prints.
    public func contractValue(explain: Bool = false) -> Value {
        var fields: Value.Map = [
            "decision": .string(allowed ? "allow" : "deny"),
            "allowed": .bool(allowed),
            "method": method.map { .string($0.rawValue) } ?? .null,
            "path": .string(path),
            "reason": .string(summary),
        ]
        if let grantedBy { fields["grantedBy"] = .string("\(grantedBy.location)") }
        if explain {
            fields["evaluations"] = .list(evaluations.map(Self.evaluationValue))
        }
        return .map(fields)
    }

    private static func evaluationValue(_ evaluation: AllowEvaluation) -> Value {
        var fields = evaluationFields(evaluation)
        if let culprit = evaluation.culprit { fields["because"] = .string(culprit.describe()) }
        return .map(fields)
    }

    /// What every explanation says of one evaluated allow statement: which, where, its outcome
    /// (and error), the path's bindings and the branch taken. The decision's JSON and the
    /// security simulator both start from these fields.
    static func evaluationFields(_ evaluation: AllowEvaluation) -> Value.Map {
        var fields: Value.Map = [
            "statement": .string("allow \(evaluation.statement.methodList)"),
            "location": .string("\(evaluation.statement.location)"),
            "reason": .string(evaluation.briefReason),
        ]
        switch evaluation.outcome {
        case .granted: fields["outcome"] = .string("true")
        case .denied: fields["outcome"] = .string("false")
        case .failed(let error):
            fields["outcome"] = .string("error")
            fields["error"] = .string(error.message)
        }
        var bindings: Value.Map = [:]
        for binding in evaluation.bindings { bindings[binding.name] = binding.value }
        fields["bindings"] = .map(bindings)
        if let branch = evaluation.branch { fields["branch"] = .string(branch) }
        return fields
    }
}
