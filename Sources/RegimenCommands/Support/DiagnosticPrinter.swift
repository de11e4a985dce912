import RegimenKit

/// Prints diagnostics the way compilers do, one `file:line:column: severity: message` per problem
/// (notes indented below), sorted by file, line and column, so editors can jump to them.
enum DiagnosticPrinter {
    static func print(_ diagnostics: [Diagnostic], to output: TextOutput) {
        for diagnostic in diagnostics.sorted(by: Diagnostic.sortKey) {
            output.writeLine(diagnostic.description)
        }
    }

    /// The diagnostics one per line in the order given, as a policy's loader reports them.
    static func lines(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(\.description).joined(separator: "\n")
    }

    /// `2 errors, 1 warning`.
    static func tally(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        var parts = [plural(errors, "error")]
        if warnings > 0 { parts.append(plural(warnings, "warning")) }
        return parts.joined(separator: ", ")
    }

    static func plural(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
