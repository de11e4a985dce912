import ArgumentParser
import Foundation
import OrderedCollections
import RegimenLanguage
import RegimenRules

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
        let variables = try loadVariables(in: context)
        let root = try sharedFunctions(in: context)
        let environment: ExpressionEnvironment
        do {
            environment = try ExpressionEnvironment(variables: Array(variables.keys), parent: root)
        } catch {
            DiagnosticPrinter.print(error.diagnostics, to: context.standardError)
            throw CommandFailure.usage
        }
        let source = SourceText(expression, startingAt: SourceLocation(file: "<expression>", line: 1, column: 1))
        let compiled: CompiledExpression
        do {
            compiled = try CompiledExpression(source, environment: environment)
        } catch {
            for diagnostic in error.diagnostics.sorted(by: Diagnostic.sortKey) {
                context.standardError.writeLine(diagnostic.description)
                if let column = diagnostic.location?.column { showCaret(at: column, in: context) }
            }
            throw CommandFailure.failed
        }
        do {
            let value = try compiled.evaluate(Dictionary(uniqueKeysWithValues: variables.map { ($0.key, $0.value) }))
            context.standardOutput.writeLine(value.jsonString())
        } catch {
            let location = compiled.location(of: error)
            context.standardError.writeLine("\(location.map { "\($0): " } ?? "")error: \(error.message)")
            if let column = location?.column { showCaret(at: column, in: context) }
            throw CommandFailure.failed
        }
    }

    /// The expression with a caret under `column`, so a coach sees where it went wrong.
    private func showCaret(at column: Int, in context: CommandContext) {
        guard !expression.contains("\n") else { return }
        context.standardError.writeLine("  " + expression)
        context.standardError.writeLine("  " + String(repeating: " ", count: max(0, column - 1)) + "^")
    }

    private func loadVariables(in context: CommandContext) throws(CommandFailure) -> OrderedDictionary<String, Value> {
        guard let vars else { return [:] }
        let url = RuleSources.resolve(vars, against: context.currentDirectory)
        let read = YAMLReader.read(contentsOf: url, displayPath: vars)
        guard read.diagnostics.isEmpty else {
            DiagnosticPrinter.print(read.diagnostics, to: context.standardError)
            throw .usage
        }
        guard let document = read.document else { return [:] }
        if timestamps {
            let invalid = document.invalidTimestamps
            for node in invalid {
                context.standardError.writeLine("\(node.location): error: '\(node.scalar?.text ?? "")' is not a valid date or date-time (--timestamps reads ISO-8601 strings as timestamps)")
            }
            if !invalid.isEmpty { throw .usage }
        }
        guard case .map(let map) = document.value(options: ValueConversionOptions(timestamps: timestamps)), document.mapping != nil else {
            context.standardError.writeLine("\(document.location): error: the variables file must be a mapping of variable names to values, not \(document.kindDescription)")
            throw .usage
        }
        return map
    }

    /// The rule set's shared helper functions, when a rules directory can be found.
    private func sharedFunctions(in context: CommandContext) throws(CommandFailure) -> ExpressionEnvironment {
        let explicit = sources.rules != nil || sources.catalogs != nil
        guard case .success(let located) = RuleSources.locate(
            rules: sources.rules, catalogs: sources.catalogs, currentDirectory: context.currentDirectory, executable: context.executable)
        else {
            if explicit { _ = try sources.locate(in: context) }
            return .empty
        }
        let result = RuleKindRegistry.loader.load(from: located, scope: .functionsOnly)
        if result.hasErrors {
            DiagnosticPrinter.print(result.diagnostics, to: context.standardError)
            throw .failed
        }
        return result.ruleSet.expressionEnvironment
    }
}
