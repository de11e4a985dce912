package import RegimenLanguage
package import RegimenRules

/// The variables a rule kind's expressions may read (`regimen explain-kind KIND`): per group
/// of keys of its files, when they are evaluated and each variable's name, type and meaning.
package struct RuleKindVariables: Sendable {
    /// The `kind:` value.
    package let kind: String
    private let scopes: [ExpressionScope]

    /// Every kind of every module, sorted.
    package static var kinds: [String] { kinds(among: RegimenRuleKinds.all) }

    /// The names of `kinds`, sorted.
    package static func kinds(among kinds: [any RuleFileKind.Type]) -> [String] { kinds.map { $0.kind }.sorted() }

    /// The variables of `kind`, or `nil` for a kind none of `kinds` (every module's by default) is.
    package init?(kind: String, among kinds: [any RuleFileKind.Type] = RegimenRuleKinds.all) {
        guard let type = kinds.first(where: { $0.kind == kind }) else { return nil }
        self.kind = kind
        scopes = type.expressionScopes
    }

    /// Whether no expression of the kind reads a variable (its files hold shared functions only).
    package var isEmpty: Bool { scopes.isEmpty }

    /// The groups as lines a person reads, each line after `prefix`.
    package func lines(prefix: String) -> [String] { ExpressionScope.text(scopes, prefix: prefix) }

    /// The groups as data: `{kind, scopes: [{keys, evaluated, variables: [{name, type, nullable, doc}]}]}`.
    package var value: Value {
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
