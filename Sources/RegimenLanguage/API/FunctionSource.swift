/// A user-defined function written in text, as a rule file declares it:
/// `function name(a, b) { let x = …; return … }` split into its parts.
package struct FunctionSource: Sendable {
    package var name: String
    package var parameters: [String]
    /// `let` bindings in order; each may use parameters and earlier lets.
    package var lets: [(name: String, value: SourceText)]
    package var result: SourceText
    /// Where the function is declared, for diagnostics about the whole function.
    package var location: SourceLocation?

    package init(name: String, parameters: [String], lets: [(name: String, value: SourceText)] = [], result: SourceText, location: SourceLocation? = nil) {
        self.name = name
        self.parameters = parameters
        self.lets = lets
        self.result = result
        self.location = location
    }
}

/// A function whose parts are already parsed (the `.rules` parser produces these).
package struct FunctionDefinition: Sendable {
    package var name: String
    package var parameters: [(name: String, span: SourceSpan)]
    package var lets: [(name: String, value: Expr, span: SourceSpan)]
    package var result: Expr
    /// The text the spans index into.
    package var source: SourceText
    package var location: SourceLocation?

}

/// A function the embedding application implements (see ``EvaluationHost``).
package struct HostFunction: Sendable, Hashable {
    package var name: String
    var arity: ClosedRange<Int>

    package init(name: String, arity: ClosedRange<Int>) {
        self.name = name
        self.arity = arity
    }
}
