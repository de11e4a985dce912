import ArgumentParser
import RegimenLanguage
import RegimenRules

/// `regimen check`: loads and validates every rule and catalog file.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load and validate every rule and catalog file.",
        discussion: """
            Prints every problem as file:line:column: error: message and exits 1 if there is any \
            error; on success prints one line counting files, rules and catalog entries.
            """)

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let located = try sources.locate(in: context)
        let result = RuleKindRegistry.loader.load(from: located)
        DiagnosticPrinter.print(result.diagnostics, to: context.standardError)
        let files = DiagnosticPrinter.plural(result.fileCount, "file")
        if result.hasErrors {
            context.standardError.writeLine("check failed: \(DiagnosticPrinter.tally(result.diagnostics)) in \(files)")
            throw CommandFailure.failed
        }
        let ruleSet = result.ruleSet
        var summary = "ok: \(files), \(DiagnosticPrinter.plural(ruleSet.ruleCount, "rule")), \(DiagnosticPrinter.plural(ruleSet.catalogEntryCount, "catalog entry", "catalog entries"))"
        let warnings = result.diagnostics.filter { $0.severity == .warning }.count
        if warnings > 0 { summary += ", \(DiagnosticPrinter.plural(warnings, "warning"))" }
        context.standardOutput.writeLine(summary)
    }
}
