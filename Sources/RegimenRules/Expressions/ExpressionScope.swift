package import RegimenLanguage

/// The variables one group of a rule kind's expressions may read, declared once: the decoder
/// compiles against them (with their types checked), the engine binds exactly them, and
/// `regimen explain-kind` prints them.
package struct ExpressionScope: Sendable, Hashable {
    /// The keys of the file this scope applies to, as a rule writer sees them (`low_day, high_day`).
    package let name: String
    /// When the expressions are evaluated (`once per check-in`).
    package let doc: String
    package let variables: [VariableDeclaration]

    package init(_ name: String, _ doc: String, _ variables: [VariableDeclaration]) {
        self.name = name
        self.doc = doc
        self.variables = variables
    }

    /// The declared variable called `name`.
    package func variable(_ name: String) -> VariableDeclaration? { variables.first { $0.name == name } }

    /// The names, in order.
    package var names: [String] { variables.map(\.name) }

    /// The scopes as lines of text, names and types aligned: what `regimen explain-kind` prints
    /// and what a rule file's header repeats (each line prefixed with `prefix`).
    package static func text(_ scopes: [ExpressionScope], prefix: String = "") -> [String] {
        let nameWidth = scopes.flatMap(\.variables).map(\.name.count).max() ?? 0
        let typeWidth = scopes.flatMap(\.variables).map(\.type.description.count).max() ?? 0
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        var lines: [String] = []
        for scope in scopes {
            lines.append("\(prefix)\(scope.name) (\(scope.doc)):")
            for variable in scope.variables {
                lines.append("\(prefix)  \(padded(variable.name, nameWidth))  \(padded(variable.type.description, typeWidth))  \(variable.doc)")
            }
        }
        return lines
    }
}

extension DecodingContext {
    /// An environment with the declared `variables` in this order, their types checked, plus
    /// every shared function of the rule set. Cached per declaration list. A declaration list
    /// that does not compile is reported (at `location`, the rule declaring them, when the
    /// problem has no place of its own), never dropped in silence.
    package func environment(declaring variables: [VariableDeclaration], at location: SourceLocation? = nil) -> ExpressionEnvironment {
        let key = variables.map { "\($0.name): \($0.type)" }
        if let cached = environments[key] { return cached }
        let root = services.expressionEnvironment
        let environment: ExpressionEnvironment
        do {
            environment = try ExpressionEnvironment(declaring: variables, parent: root)
        } catch {
            report(contentsOf: error.diagnostics.map { diagnostic in
                var located = diagnostic
                located.location = diagnostic.location ?? location
                return located
            })
            environment = root
        }
        environments[key] = environment
        return environment
    }
}

extension Dictionary where Key == String, Value == RegimenLanguage.Value {
    /// Binds a declared variable: bindings are made through the declaration, so a name cannot
    /// drift from what the expressions were compiled against.
    package mutating func bind(_ variable: VariableDeclaration, _ value: RegimenLanguage.Value) {
        self[variable.name] = value
    }
}
