import ArgumentParser
import RegimenLanguage
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
        let declared = Self.declarations()
        guard let scopes = declared[kind] else {
            let known = declared.keys.sorted()
            var message = "error: unknown kind '\(kind)'"
            if let close = Suggestions.closest(kind, known) { message += " (did you mean '\(close)'?)" }
            context.standardError.writeLine(message)
            context.standardError.writeLine("  note: known kinds: \(known.joined(separator: ", "))")
            throw CommandFailure.usage
        }
        switch format {
        case .text:
            context.standardOutput.writeLine("kind: \(kind)")
            if scopes.isEmpty {
                context.standardOutput.writeLine("no expressions read variables (shared functions only)")
            }
            for line in ExpressionScope.text(scopes, prefix: "  ") { context.standardOutput.writeLine(line) }
        case .json:
            context.standardOutput.writeLine(Self.document(kind, scopes).jsonString(pretty: true))
        case .yaml:
            context.standardOutput.write(Self.document(kind, scopes).yamlString())
        }
    }

    /// Every registered kind's declared scopes, by kind.
    static func declarations() -> [String: [ExpressionScope]] {
        var declared: [String: [ExpressionScope]] = [:]
        for type in RuleKindRegistry.all { declared[type.kind] = type.expressionScopes }
        return declared
    }

    /// `{kind, scopes: [{keys, evaluated, variables: [{name, type, nullable, doc}]}]}`.
    static func document(_ kind: String, _ scopes: [ExpressionScope]) -> Value {
        .map([
            "kind": .string(kind),
            "scopes": .list(scopes.map { scope in
                .map([
                    "keys": .string(scope.name),
                    "evaluated": .string(scope.doc),
                    "variables": .list(scope.variables.map { variable in
                        .map([
                            "name": .string(variable.name), "type": .string(variable.type.base.rawValue),
                            "nullable": .bool(variable.type.nullable), "doc": .string(variable.doc),
                        ])
                    }),
                ])
            }),
        ])
    }
}
