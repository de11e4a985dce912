/// A variable an expression compares with a declared enumeration or a named vocabulary:
/// `item.id in minor_allowed` compares the fact `minor_allowed` with the supplement catalog's
/// ids. The variable's own expression is in another place of the file (a fact), so the loader
/// checks the strings written there (``LiteralString``) once every file is read: a misspelt id
/// in a fact's list is an error at the id, as it is when written beside `item.id` itself.
package struct ComparedName: Sendable, Hashable {
    /// The variable compared (a fact's name).
    package var name: String
    /// What it is compared with: its declared values or vocabulary.
    package var type: ExpressionType
    /// What it is compared with (`item.id`), for messages.
    package var subject: String
    /// Where the variable is written in the comparing expression.
    package var location: SourceLocation?

}

/// A string literal an expression's value consists of: the expression itself (`'caffeine'`) or
/// an element of the list literal it is (`['whey_protein', 'omega_3']`), at its opening quote.
/// A fact whose value is such a literal is checked against what cautions compare it with
/// (``ComparedName``).
package struct LiteralString: Sendable, Hashable {
    package var text: String
    package var location: SourceLocation?

    package init(text: String, location: SourceLocation?) {
        self.text = text
        self.location = location
    }
}
