import ArgumentParser
import Foundation
import RegimenKit

/// `regimen eval`: evaluates one expression, as a coach tries a condition before writing a rule.
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate an expression and print its value as JSON.",
        discussion: """
            Variables come from --vars: each top-level key of the YAML or JSON mapping is a variable \
            (a file with `profile: {weight_kg: 80}` allows `profile.weight_kg * 10`). Helper \
            functions declared in the rules' `kind: functions` files can be called. \
            Exit status: 0 with the value, 1 when the expression does not compile or fails, \
            2 when the command or the variables file is wrong.
            """)

    @Argument(help: "The expression, in Firestore rules syntax.")
    var expression: String

    @Option(name: .long, help: ArgumentHelp("A YAML or JSON file whose top-level keys are the variables.", valueName: "file"))
    var vars: String?

    @Flag(name: .long, help: "Read ISO-8601 date strings in the variables as timestamps.")
    var timestamps = false

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let value: Value
        do {
            value = try ExpressionEvaluation.evaluate(expression, variablesFile: vars, timestamps: timestamps, rules: sources.rules,
                                                      catalogs: sources.catalogs, currentDirectory: context.currentDirectory,
                                                      executable: context.executable)
        } catch {
            throw report(error, in: context)
        }
        context.standardOutput.writeLine(value.jsonString())
    }

    /// Prints why the expression was not evaluated: the expression's own problems (status 1)
    /// with a caret under the column when it is one line, the input's as they are (status 2).
    private func report(_ failure: ExpressionEvaluation.Failure, in context: CommandContext) -> CommandFailure {
        switch failure {
        case .variablesSyntax(let diagnostics), .environment(let diagnostics):
            DiagnosticPrinter.print(diagnostics, to: context.standardError)
            return .usage
        case .variables(let lines):
            for line in lines { context.standardError.writeLine(line) }
            return .usage
        case .sources(let message):
            context.standardError.writeLine("error: \(message)")
            return .usage
        case .functions(let diagnostics):
            DiagnosticPrinter.print(diagnostics, to: context.standardError)
            return .failed
        case .compile(let diagnostics):
            for diagnostic in diagnostics.sorted(by: Diagnostic.sortKey) {
                context.standardError.writeLine(diagnostic.description)
                if let column = diagnostic.location?.column { showCaret(at: column, in: context) }
            }
            return .failed
        case .evaluation(let message, let location):
            context.standardError.writeLine("\(location.map { "\($0): " } ?? "")error: \(message)")
            if let column = location?.column { showCaret(at: column, in: context) }
            return .failed
        }
    }

    private func showCaret(at column: Int, in context: CommandContext) {
        guard !expression.contains("\n") else { return }
        context.standardError.writeLine("  " + expression)
        context.standardError.writeLine("  " + String(repeating: " ", count: max(0, column - 1)) + "^")
    }
}
