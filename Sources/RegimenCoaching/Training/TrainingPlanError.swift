package import RegimenLanguage

/// Why a training plan could not be made for a profile: a typed error naming the field, the
/// value and what is allowed.
package struct TrainingPlanError: DiagnosticError, Hashable {
    /// The profile field or option at fault (`schedule_days`, `goal`, `split`...).
    package var field: String
    package var value: String
    package var message: String

    package var description: String { "\(field): \(message) (got '\(value)')" }

    /// A profile value or option the rules do not offer: the caller chooses another.
    package var kind: ErrorKind { .input }
    package var diagnostics: [Diagnostic] { [.error("training.option", description, at: nil)] }
}

/// Choices that are not part of the profile.
package struct TrainingPlanOptions: Sendable, Hashable {
    /// A plan template id among the split table's options for the number of days, e.g. `full_body_3`.
    package var split: String?

    package init(split: String? = nil) {
        self.split = split
    }
}
