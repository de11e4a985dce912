package import RegimenLanguage

/// Every problem of an adaptation's plan or input, each a diagnostic located at
/// `file:line:column` when the input was read from a file, else naming the field path
/// (`checkins[0].stress`).
package struct AdaptationInputError: Error, Sendable, Hashable, CustomStringConvertible {
    package var diagnostics: [Diagnostic]

    init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// Problems known only by their field path (the message starts with it).
    init(_ problems: [String]) {
        diagnostics = problems.map { Diagnostic.error("input.invalid", $0, at: nil) }
    }

    /// Each problem as a line: located ones as `file:line:col: error: message`, the others as
    /// `file: error: message` with `file` naming the input they are about; a problem naming its
    /// field (a plan's `plan.kcal`) has the field before its message.
    package func lines(file: String) -> [String] {
        named.map { $0.location == nil ? "\(file): error: \($0.message)" : $0.description }
    }

    /// Each problem's text: located ones with their location, the others by field path.
    package var problems: [String] { named.map { $0.location == nil ? $0.message : $0.description } }

    /// The diagnostics with each one's field written before its message.
    private var named: [Diagnostic] {
        diagnostics.map { diagnostic in
            guard let field = diagnostic.field else { return diagnostic }
            var named = diagnostic
            named.message = "\(field): \(diagnostic.message)"
            return named
        }
    }

    package var description: String { problems.joined(separator: "\n") }
}
