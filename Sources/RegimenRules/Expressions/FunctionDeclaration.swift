import RegimenLanguage

/// A helper function declared in a `kind: functions` rule file, callable from any expression:
/// the YAML form of a Firestore rules `function name(params) { let x = …; return …; }`.
public struct FunctionDeclaration: Sendable {
    /// The name expressions call it by.
    public let name: String
    /// Parameter names, in call order.
    public let parameters: [String]
    /// `let` bindings in order, each visible to the bindings after it and to the body.
    public let bindings: [(name: String, expression: ExpressionSource)]
    /// The `return` expression.
    public let body: ExpressionSource
    /// Where the declaration's `name` is written.
    public let location: SourceLocation

    public init(name: String, parameters: [String], bindings: [(name: String, expression: ExpressionSource)], body: ExpressionSource, location: SourceLocation) {
        self.name = name
        self.parameters = parameters
        self.bindings = bindings
        self.body = body
        self.location = location
    }
}

/// The helper functions every expression of a rule set can call, in declaration order.
public struct ExpressionFunctions: Sendable {
    /// The declarations, ordered by file path and position within the file.
    public let declarations: [FunctionDeclaration]

    public init(_ declarations: [FunctionDeclaration] = []) {
        self.declarations = declarations
    }

    /// The declared names, in order.
    public var names: [String] { declarations.map(\.name) }
}

/// Whether `text` is a name the expression language accepts: a letter or `_`, then letters, digits, `_`.
func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
}
