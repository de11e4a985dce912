import RegimenLanguage

/// Why a training plan could not be made for a profile: a typed error naming the field, the
/// value and what is allowed.
public struct TrainingPlanError: DiagnosticError, Hashable {
    /// The profile field or option at fault (`schedule_days`, `goal`, `split`...).
    public var field: String
    public var value: String
    public var message: String

    public init(field: String, value: String, message: String) {
        self.field = field
        self.value = value
        self.message = message
    }

    public var description: String { "\(field): \(message) (got '\(value)')" }

    /// A profile value or option the rules do not offer: the caller chooses another.
    public var kind: ErrorKind { .input }
    public var diagnostics: [Diagnostic] { [.error("training.option", description, at: nil)] }
}

/// Choices that are not part of the profile.
public struct TrainingPlanOptions: Sendable, Hashable {
    /// A plan template id among the split table's options for the number of days, e.g. `full_body_3`.
    public var split: String?

    public init(split: String? = nil) {
        self.split = split
    }
}
