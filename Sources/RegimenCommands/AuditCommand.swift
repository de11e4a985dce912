import ArgumentParser
import Foundation
import RegimenKit

/// `regimen audit RULES`: finds policy mistakes without running a test.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check security policies for mistakes: shadowed validation, conditions that always error, open writes, and more.",
        discussion: "Prints each finding as file:line:column: severity: message [id] with an explanation. Exits 1 when a finding is an error, 2 when a policy cannot be loaded."
    )

    @Argument(help: "Policy files (.rules, or .yaml with kind: security_rules).")
    var files: [String]

    init() {}

    package func run() throws {
        var errors = 0, warnings = 0
        var loadFailed = false
        var loaded = 0
        var output = ""
        for file in files {
            do {
                let policy = try Policy(file: file)
                loaded += 1
                for finding in policy.audit() {
                    output += finding.rendered + "\n"
                    if finding.severity == .error { errors += 1 } else { warnings += 1 }
                }
            } catch {
                CommandContext.current.standardError.write(DiagnosticPrinter.lines(error.diagnostics) + "\n")
                // A file that cannot be read or compiled counts in the summary: "0 errors" after
                // an error message would read as a clean audit.
                errors += max(1, error.diagnostics.filter { $0.severity == .error }.count)
                loadFailed = true
            }
        }
        // A policy that cannot be read was not audited: no summary claims it is clean.
        if loaded > 0 {
            output += "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            output += loadFailed ? " in \(loaded) of \(files.count) files; the others could not be read\n" : "\n"
            CommandContext.current.standardOutput.write(output)
        }
        if loadFailed { throw CommandFailure.usage }
        if errors > 0 { throw CommandFailure.failed }
    }
}
