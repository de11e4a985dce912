public import RegimenLanguage

/// A problem found in a tracker document, with the path of the document it is about.
public struct TrackerViolation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The document's path (`users/u1/programs/p1/weeks/w1`), or the collection position for
    /// an unreadable document (`…/weeks[2]`).
    public var path: String
    /// The field the problem is about, if one.
    public var field: String?
    /// How serious the problem is.
    public var severity: Severity
    /// What is wrong, in one line.
    public var message: String
    /// Whether the problem is in the document's own fields, which the Firestore policy checks
    /// too; `false` for checks across documents (uniqueness, the set fields of the parent
    /// exercise's type), which only `regimen validate` can make.
    public var inOwnFields = false
    /// Where the document (or its field) is written, when the tree came from a file
    /// (``TrackerSourceMap``); `nil` for a tree built in code.
    public var location: SourceLocation?

    /// A problem at `path` (about `field`, if one) of the given severity.
    public init(path: String, field: String? = nil, _ severity: Severity, _ message: String) {
        self.path = path
        self.field = field
        self.severity = severity
        self.message = message
    }

    /// `file:line:col: path: severity: message` (without the location when it has none), the
    /// format `regimen validate` prints.
    public var description: String {
        (location.map { "\($0): " } ?? "") + "\(path.isEmpty ? "<root>" : path): \(severity.rawValue): \(message)"
    }

    public static func < (lhs: TrackerViolation, rhs: TrackerViolation) -> Bool {
        (lhs.path, lhs.field ?? "", lhs.severity, lhs.message) < (rhs.path, rhs.field ?? "", rhs.severity, rhs.message)
    }
}
