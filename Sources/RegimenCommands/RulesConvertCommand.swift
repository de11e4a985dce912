import ArgumentParser
import Foundation
import RegimenKit

/// `regimen rules`: tools for security policies.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Work with security policies (.rules files and their YAML form).",
        subcommands: [RulesConvertCommand.self, RulesProveCommand.self, RulesDiffCommand.self]
    )

    init() {}
}

/// `regimen rules convert FILE`: native `.rules` ⇄ YAML (`kind: security_rules`).
struct RulesConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a policy between the native .rules syntax and the YAML form.",
        discussion: "A .rules file becomes YAML and a .yaml file becomes .rules; the result makes the same decisions."
    )

    @Argument(help: "The policy to convert (.rules, or .yaml/.yml with kind: security_rules).")
    var file: String

    @Option(name: .shortAndLong, help: "Write here instead of standard output.")
    var output: String?

    init() {}

    package func run() throws {
        // Compiled before it is converted: a policy that would not run is not rewritten.
        let policy: Policy
        do {
            policy = try Policy(file: file)
        } catch {
            CommandContext.current.standardError.write(DiagnosticPrinter.lines(error.diagnostics) + "\n")
            throw CommandFailure.usage
        }
        let text = policy.convertedText
        if let output {
            do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                CommandContext.current.standardError.write("error: cannot write \(output)\n")
                throw CommandFailure.usage
            }
        } else {
            CommandContext.current.standardOutput.write(text)
        }
    }
}
