import ArgumentParser
import RegimenKit

/// `regimen check`: loads and validates every rule and catalog file.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load and validate every rule and catalog file.",
        discussion: """
            Prints every problem as file:line:column: error: message and exits 1 if there is any \
            error; on success prints one line counting files, rules and catalog entries. With \
            --format json (or yaml) prints {ok, files, rules, catalog_entries, diagnostics: [{id, \
            severity, message, file, line, column, notes}]} instead, with the same exit status.
            """)

    @OptionGroup var sources: RuleSourceOptions

    @Option(name: .long, help: "text (default), json or yaml.")
    var format: ReportFormat = .text

    func run() throws {
        let context = CommandContext.current
        let result = try EngineInput.run({ () throws(RegimenError) in
            try RuleCheck(rules: sources.rules, catalogs: sources.catalogs, currentDirectory: context.currentDirectory, executable: context.executable)
        }, in: context)
        if format != .text {
            format.write(Self.report(result), in: context)
            if result.hasErrors { throw CommandFailure.failed }
            return
        }
        DiagnosticPrinter.print(result.diagnostics, to: context.standardError)
        let files = DiagnosticPrinter.plural(result.fileCount, "file")
        if result.hasErrors {
            context.standardError.writeLine("check failed: \(DiagnosticPrinter.tally(result.diagnostics)) in \(files)")
            throw CommandFailure.failed
        }
        var summary = "ok: \(files), \(DiagnosticPrinter.plural(result.ruleCount, "rule")), \(DiagnosticPrinter.plural(result.catalogEntryCount, "catalog entry", "catalog entries"))"
        let warnings = result.diagnostics.filter { $0.severity == .warning }.count
        if warnings > 0 { summary += ", \(DiagnosticPrinter.plural(warnings, "warning"))" }
        context.standardOutput.writeLine(summary)
    }

    /// The load as data, for programs (the schema agreement check reads diagnostic ids from it).
    static func report(_ result: RuleCheck) -> Value {
        let diagnostics: [Value] = result.diagnostics.map { diagnostic in
            var entry: OrderedDictionary<String, Value> = [
                "id": .string(diagnostic.id), "severity": .string(diagnostic.severity.rawValue), "message": .string(diagnostic.message),
            ]
            if let location = diagnostic.location {
                entry["file"] = .string(location.file)
                entry["line"] = .int(Int64(location.line))
                entry["column"] = .int(Int64(location.column))
            }
            entry["notes"] = .list(diagnostic.notes.map(Value.string))
            return .map(entry)
        }
        return .map([
            "ok": .bool(!result.hasErrors), "files": .int(Int64(result.fileCount)), "rules": .int(Int64(result.ruleCount)),
            "catalog_entries": .int(Int64(result.catalogEntryCount)), "diagnostics": .list(diagnostics),
        ])
    }
}
