public import RegimenLanguage
import OrderedCollections

/// What `regimen validate` reports for a tracker tree: every violation, and how many documents
/// were checked.
public struct TrackerValidationReport: Sendable, Hashable {
    /// The documents in the tree.
    public var documentCount: Int
    /// Every violation, in the validator's order.
    public var violations: [TrackerViolation]

    /// Validates `tree` with the tracker's validation rules.
    package init(tree: TrackerTree, policy: ValidationPolicy) {
        documentCount = tree.documentCount
        violations = TreeValidator(policy: policy).validate(tree)
    }

    /// How many violations are errors.
    public var errorCount: Int { violations.filter { $0.severity == .error }.count }

    /// `{documents, violations: [{path, field, severity, message, scope}]}`.
    public var value: Value {
        let list = violations.map {
            Value.map(["path": .string($0.path), "field": $0.field.map(Value.string) ?? .null,
                       "severity": .string($0.severity.rawValue), "message": .string($0.message),
                       "scope": .string($0.inOwnFields ? "document" : "across documents")])
        }
        return Value.map(["documents": .int(Int64(documentCount)), "violations": .list(list)])
    }
}
