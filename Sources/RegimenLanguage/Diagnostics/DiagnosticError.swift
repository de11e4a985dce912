/// Whose input an error is about, which decides what a caller does with it: a command's exit
/// status, a service's response, whether an app shows the message to its user or to a coach.
public enum ErrorKind: String, Sendable, Hashable, CaseIterable {
    /// What the caller sent is wrong: a profile, a request, an option, a file that cannot be read.
    /// The caller fixes it (the `regimen` command exits 2).
    case input
    /// The rules are wrong or said no: a rule or catalog file, a rule expression that failed
    /// while computing, a failing test. A coach or an auditor fixes it (the command exits 1).
    case rules
}

/// An error every module throws: one or more ``Diagnostic``s (id, severity, location, notes)
/// and the ``ErrorKind`` that says whose input is at fault.
///
/// The kind belongs to the error, decided where the error is made, so no caller has to guess it
/// from the message or from whether a location is present. Conform with the two properties;
/// ``description`` defaults to the diagnostics, one compiler-style line each.
public protocol DiagnosticError: Error, Sendable, CustomStringConvertible {
    /// Whose input is at fault.
    var kind: ErrorKind { get }
    /// Every problem found, each with its location where known.
    var diagnostics: [Diagnostic] { get }
}

extension DiagnosticError {
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension DiagnosticsError: DiagnosticError {}
