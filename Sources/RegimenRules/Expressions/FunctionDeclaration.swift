package import RegimenLanguage

/// A helper function declared in a `kind: functions` rule file, callable from any expression:
/// the YAML form of a Firestore rules `function name(params) { let x = …; return …; }`.
package struct FunctionDeclaration: Sendable {
    /// The name expressions call it by.
    package let name: String
    /// Parameter names, in call order.
    package let parameters: [String]
    /// `let` bindings in order, each visible to the bindings after it and to the body.
    package let bindings: [(name: String, expression: ExpressionSource)]
    /// The `return` expression.
    package let body: ExpressionSource
    /// Where the declaration's `name` is written.
    package let location: SourceLocation

    package init(name: String, parameters: [String], bindings: [(name: String, expression: ExpressionSource)], body: ExpressionSource, location: SourceLocation) {
        self.name = name
        self.parameters = parameters
        self.bindings = bindings
        self.body = body
        self.location = location
    }
}

/// The helper functions every expression of a rule set can call, in declaration order.
package struct ExpressionFunctions: Sendable {
    /// The declarations, ordered by file path and position within the file.
    let declarations: [FunctionDeclaration]

    init(_ declarations: [FunctionDeclaration] = []) {
        self.declarations = declarations
    }

    /// The declared names, in order.
    var names: [String] { declarations.map(\.name) }
}

/// Whether `text` is a name the expression language accepts: a letter or `_`, then letters, digits, `_`.
func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
}
