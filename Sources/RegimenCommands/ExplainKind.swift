import ArgumentParser
import RegimenKit
import RegimenRules

/// `regimen explain-kind KIND`: the variables each expression of a rule kind may read, with
/// their types, from the same declarations the decoder compiles against and the engine binds.
struct ExplainKind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain-kind",
        abstract: "List the variables a rule kind's expressions may read, with types.",
        discussion: """
            KIND is a `kind:` value such as readiness_rules. Each group names the keys of the file \
            it applies to and when they are evaluated, then one line per variable: name, type \
            ('or null' when the value may be missing; 'number' is an int or a float) and meaning. \
            Exit status: 0, or 2 for a kind no module defines.
            """)

    @Argument(help: "The rule kind, as written after `kind:`.")
    var kind: String

    @Option(name: .long, help: "text (default), json or yaml.")
    var format: ReportFormat = .text

    func run() throws {
        let context = CommandContext.current
        guard let variables = RuleKindVariables(kind: kind) else {
            let known = RuleKindVariables.kinds
            var message = "error: unknown kind '\(kind)'"
            if let close = RegimenEngine.closestName(to: kind, among: known) { message += " (did you mean '\(close)'?)" }
            context.standardError.writeLine(message)
            context.standardError.writeLine("  note: known kinds: \(known.joined(separator: ", "))")
            throw CommandFailure.usage
        }
        switch format {
        case .text:
            context.standardOutput.writeLine("kind: \(kind)")
            if variables.isEmpty {
                context.standardOutput.writeLine("no expressions read variables (shared functions only)")
            }
            for line in variables.lines(prefix: "  ") { context.standardOutput.writeLine(line) }
        case .json:
            context.standardOutput.writeLine(variables.value.jsonString(pretty: true))
        case .yaml:
            context.standardOutput.write(variables.value.yamlString())
        }
    }
}
