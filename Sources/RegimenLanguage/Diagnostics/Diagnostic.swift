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

    /// At most ``DiagnosticCap/perKind`` of one kind per file are kept (the first by location),
    /// then one "and N more" each.
    package init(_ diagnostics: [Diagnostic], kind: ErrorKind) {
        self.diagnostics = DiagnosticCap.capped(diagnostics.sorted(by: Diagnostic.sortKey)).sorted(by: Diagnostic.sortKey)
        self.kind = kind
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Collects diagnostics during a pass instead of stopping at the first.
///
/// At most ``DiagnosticCap/perKind`` diagnostics of one kind (one `id`) are kept per file; the rest
/// are counted and summed up in one diagnostic of that kind, at the first one not listed, so one
/// huge file (100,000 unknown keys, a 50,000-row table of one mistake) reports a bounded amount
/// and holds a bounded amount in memory.
package struct DiagnosticCollector: Sendable {
    private var kept: [Diagnostic] = []
    private var cap = DiagnosticCap()

    package init() {}

    /// What was reported, in order, with one summary per kind and file that passed the cap.
    package var diagnostics: [Diagnostic] { kept + cap.summaries }

    package var hasErrors: Bool { kept.contains { $0.severity == .error } }

    package mutating func append(_ diagnostic: Diagnostic) {
        if cap.admits(diagnostic) { kept.append(diagnostic) }
    }

    package mutating func append(contentsOf other: [Diagnostic]) {
        for diagnostic in other { append(diagnostic) }
    }

    package mutating func error(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        append(.error(id, message, at: location, notes: notes))
    }

    package mutating func warning(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        append(.warning(id, message, at: location, notes: notes))
    }

    /// The diagnostics in stable order.
    package var sorted: [Diagnostic] { diagnostics.sorted(by: Diagnostic.sortKey) }
}

/// The bound on diagnostics of one kind in one file (issue 33: a profile with 100,000 unknown keys
/// printed 32 MB of diagnostics). Not a coaching number: a limit of the tool, like the input size.
struct DiagnosticCap: Sendable {
    /// Diagnostics of one id listed per file; the rest become "and N more".
    static let perKind = 50

    private struct Kind: Hashable {
        var id: String
        var file: String?
    }

    private var counts: [Kind: Int] = [:]
    /// Per kind past the cap, in the order first passed: the first diagnostic not listed and how
    /// many were not listed.
    private var passed: [(kind: Kind, first: Diagnostic, count: Int)] = []
    private var passedIndex: [Kind: Int] = [:]

    init() {}

    /// Whether to keep `diagnostic`; when not, it is counted for its kind's summary.
    package mutating func admits(_ diagnostic: Diagnostic) -> Bool {
        let kind = Kind(id: diagnostic.id, file: diagnostic.location?.file)
        let count = counts[kind, default: 0] + 1
        counts[kind] = count
        guard count > Self.perKind else { return true }
        if let index = passedIndex[kind] {
            passed[index].count += 1
        } else {
            passedIndex[kind] = passed.count
            passed.append((kind, diagnostic, 1))
        }
        return false
    }

    /// One diagnostic per kind past the cap, of that kind's severity, at its first unlisted one.
    var summaries: [Diagnostic] {
        passed.map { entry in
            let where_ = entry.kind.file.map { " in \($0)" } ?? ""
            return Diagnostic(
                entry.first.severity, id: entry.first.id,
                "and \(entry.count) more '\(entry.first.id)' \(entry.count == 1 ? "diagnostic" : "diagnostics")\(where_), not listed one by one (the first \(Self.perKind) are)",
                at: entry.first.location)
        }
    }

    /// `diagnostics` with at most ``perKind`` of each kind per file, in their order, then the summaries.
    static func capped(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var cap = DiagnosticCap()
        let kept = diagnostics.filter { cap.admits($0) }
        return kept + cap.summaries
    }
}
