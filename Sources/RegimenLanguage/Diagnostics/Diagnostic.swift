/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// A problem that stops the rules, the input or the request from being used.
    case error
    /// A problem worth fixing that does not stop loading or evaluation.
    case warning
    /// Additional context attached to another diagnostic.
    case note

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .note: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A problem found while loading, compiling or checking rules, with where it is.
///
/// Messages are lower-case, carry no trailing period and name the rule and key they are about.
/// `id` is stable (for example `rules.unknown-key`) so tests and tools can match on it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious the problem is.
    public var severity: Severity
    /// A stable identifier such as `rules.unknown-key`, for tests and tools to match on.
    public var id: String
    /// What is wrong, in lower case without a trailing period.
    public var message: String
    /// Where the problem is (`file:line:col`), or `nil` when it has no place in a file.
    public var location: SourceLocation?
    /// Follow-up lines such as "did you mean 'sets'?" or "first defined here".
    public var notes: [String]
    /// The field the problem is about (`schedule_days`, `programs/p1`), for a document read
    /// without positions or a problem a client answers by field; `nil` when it has none.
    public var field: String?

    /// A diagnostic of the given severity, identifier, message, location and follow-up notes.
    public init(_ severity: Severity, id: String, _ message: String, at location: SourceLocation?, notes: [String] = [], field: String? = nil) {
        self.severity = severity
        self.id = id
        self.message = message
        self.location = location
        self.notes = notes
        self.field = field
    }

    /// An error diagnostic.
    public static func error(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) -> Diagnostic {
        Diagnostic(.error, id: id, message, at: location, notes: notes)
    }

    /// A warning diagnostic.
    public static func warning(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) -> Diagnostic {
        Diagnostic(.warning, id: id, message, at: location, notes: notes)
    }

    /// `file:line:column: severity: message`, the compiler-style line editors understand.
    public var description: String {
        var line = ""
        if let location { line += "\(location): " }
        line += "\(severity.rawValue): \(message)"
        for note in notes { line += "\n  note: \(note)" }
        return line
    }

    /// Orders by file, line, column, then severity and id, so output is stable.
    public static func sortKey(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        switch (lhs.location, rhs.location) {
        case let (l?, r?) where l != r: return l < r
        case (nil, _?): return true
        case (_?, nil): return false
        default: break
        }
        if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
        if lhs.id != rhs.id { return lhs.id < rhs.id }
        return lhs.message < rhs.message
    }
}

/// Everything a load or compile found, thrown as one error so callers see all problems at once.
///
/// Rule and catalog files are the usual source (``ErrorKind/rules``); a reader of the caller's
/// own files (a policy under audit, a request) says ``ErrorKind/input``.
package struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [Diagnostic]
    package var kind: ErrorKind

    /// Problems in rule or catalog files.
    package init(_ diagnostics: [Diagnostic]) { self.init(diagnostics, kind: .rules) }

    package init(_ diagnostics: [Diagnostic], kind: ErrorKind) {
        self.diagnostics = diagnostics.sorted(by: Diagnostic.sortKey)
        self.kind = kind
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Collects diagnostics during a pass instead of stopping at the first.
package struct DiagnosticCollector: Sendable {
    package private(set) var diagnostics: [Diagnostic] = []

    package init() {}

    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    package mutating func append(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    package mutating func append(contentsOf other: [Diagnostic]) { diagnostics.append(contentsOf: other) }

    package mutating func error(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        diagnostics.append(.error(id, message, at: location, notes: notes))
    }

    package mutating func warning(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        diagnostics.append(.warning(id, message, at: location, notes: notes))
    }

    /// The diagnostics in stable order.
    package var sorted: [Diagnostic] { diagnostics.sorted(by: Diagnostic.sortKey) }
}
