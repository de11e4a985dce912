package import Foundation
package import RegimenLanguage
import OrderedCollections
import RegimenRules

/// `regimen eval`: one rules-language expression, compiled with the variables of a YAML or
/// JSON file and the shared functions of the rules' `kind: functions` files in scope, and
/// evaluated.
package enum ExpressionEvaluation {
    /// Why the expression was not evaluated, in the order the steps run.
    package enum Failure: Error {
        /// The variables file does not parse (the caller's input).
        case variablesSyntax([Diagnostic])
        /// The variables file parses but is not usable: each problem as a located line (the
        /// caller's input).
        case variables([String])
        /// `--rules` or `--catalogs` names a folder that is not there (the caller's input).
        case sources(String)
        /// The rules' function files do not load (the rules' fault).
        case functions([Diagnostic])
        /// A variable's name cannot be declared beside the functions (the caller's input).
        case environment([Diagnostic])
        /// The expression does not compile: each problem at its column (status 1).
        case compile([Diagnostic])
        /// The expression failed while evaluating, at `location` when known (status 1).
        case evaluation(message: String, location: SourceLocation?)
    }

    /// Evaluates `expression` with the top-level keys of the file at `variablesFile` (relative
    /// to `currentDirectory`) as variables, ISO-8601 strings read as timestamps when
    /// `timestamps` is set. The shared functions come from `--rules`/`--catalogs` as the command
    /// resolves them; without either, the repository's own, and none when it has none.
    package static func evaluate(_ expression: String, variablesFile: String?, timestamps: Bool, rules: String?, catalogs: String?,
                                 currentDirectory: URL, executable: URL?) throws(Failure) -> Value {
        let variables = try readVariables(variablesFile, timestamps: timestamps, currentDirectory: currentDirectory)
        let root = try sharedFunctions(rules: rules, catalogs: catalogs, currentDirectory: currentDirectory, executable: executable)
        let environment: ExpressionEnvironment
        do {
            environment = try ExpressionEnvironment(variables: Array(variables.keys), parent: root)
        } catch {
            throw .environment(error.diagnostics)
        }
        let source = SourceText(expression, startingAt: SourceLocation(file: "<expression>", line: 1, column: 1))
        let compiled: CompiledExpression
        do {
            compiled = try CompiledExpression(source, environment: environment)
        } catch {
            throw .compile(error.diagnostics)
        }
        do {
            return try compiled.evaluate(Dictionary(uniqueKeysWithValues: variables.map { ($0.key, $0.value) }))
        } catch {
            throw .evaluation(message: error.message, location: compiled.location(of: error))
        }
    }

    private static func readVariables(_ path: String?, timestamps: Bool, currentDirectory: URL) throws(Failure) -> OrderedDictionary<String, Value> {
        guard let path else { return [:] }
        let read = YAMLReader.read(contentsOf: RuleSources.resolve(path, against: currentDirectory), displayPath: path)
        guard read.diagnostics.isEmpty else { throw .variablesSyntax(read.diagnostics) }
        guard let document = read.document else { return [:] }
        if timestamps {
            let invalid = document.invalidTimestamps.map { node in
                "\(node.location): error: '\(node.scalar?.text ?? "")' is not a valid date or date-time (--timestamps reads ISO-8601 strings as timestamps)"
            }
            if !invalid.isEmpty { throw .variables(invalid) }
        }
        guard case .map(let map) = document.value(options: ValueConversionOptions(timestamps: timestamps)), document.mapping != nil else {
            throw .variables(["\(document.location): error: the variables file must be a mapping of variable names to values, not \(document.kindDescription)"])
        }
        return map
    }

    /// The functions of the rules' `kind: functions` files; none when no rules folder is found
    /// and none was named.
    private static func sharedFunctions(rules: String?, catalogs: String?, currentDirectory: URL, executable: URL?) throws(Failure) -> ExpressionEnvironment {
        let located: RuleSources
        switch RuleSources.locate(rules: rules, catalogs: catalogs, currentDirectory: currentDirectory, executable: executable) {
        case .success(let sources): located = sources
        case .failure(let error):
            guard rules == nil, catalogs == nil else { throw .sources(error.description) }
            return .empty
        }
        let result = RuleSetLoader(kinds: RegimenRuleKinds.all).load(from: located, scope: .functionsOnly)
        if result.hasErrors { throw .functions(result.diagnostics) }
        return result.ruleSet.expressionEnvironment
    }
}
