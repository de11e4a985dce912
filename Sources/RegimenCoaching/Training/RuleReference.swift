package import RegimenLanguage

/// Where a decision came from: a rule file, the row or key inside it, and what it says.
///
/// `--explain` prints these beside each block so a coach can find the line to change.
package struct RuleReference: Sendable, Hashable, CustomStringConvertible {
    /// Stable name such as `training_volume.bands.rows[0]`.
    package var rule: String
    /// The rule's place in its file, when it was loaded from one.
    package var location: SourceLocation?
    /// What the rule decided, in a few words (`when experience == 'novice' → sets 8-12`).
    package var summary: String

    package var description: String {
        if let location { return "\(location) \(rule): \(summary)" }
        return "\(rule): \(summary)"
    }
}
