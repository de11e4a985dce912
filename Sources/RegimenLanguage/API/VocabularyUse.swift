/// A string literal an expression compares with a value of a named vocabulary
/// (``ExpressionType/vocabulary``): `item.id == 'caffeine'` uses `'caffeine'` of the supplement
/// catalog's ids. Only the whole rule set knows the vocabulary, so the loader checks it.
package struct VocabularyUse: Sendable, Hashable {
    package var vocabulary: String
    package var value: String
    /// What the literal is compared with (`item.id`), for messages.
    package var subject: String
    /// The literal's opening quote.
    package var location: SourceLocation?

}
