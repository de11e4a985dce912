/// Bounds on one evaluation, so hostile rules or inputs end in an error, never a hang.
package struct EvaluationLimits: Sendable, Hashable {
    /// Nodes evaluated per top-level evaluation.
    package var maxSteps: Int
    /// Nested user-function calls (Firestore allows 20).
    var maxCallDepth: Int
    /// Longest string an operation may produce, in UTF-8 bytes.
    var maxStringLength: Int
    /// Largest list, set or map an operation may produce.
    var maxCollectionSize: Int
    /// Work of one `matches`, `split` or `replace` (instructions of the regular-expression
    /// matcher). Matching is linear, but in text length × pattern size, and both may be large;
    /// about 0.1 s of work by default.
    package var maxPatternSteps: Int
    /// Work of one evaluation in the units of the cost table (``Cost``): elements of the
    /// collections and bytes of the strings each operation touches. About 0.1–0.5 s of work.
    package var maxCost: Int

    package init(
        maxSteps: Int = 100_000, maxCallDepth: Int = 20, maxStringLength: Int = 1 << 20, maxCollectionSize: Int = 100_000,
        maxPatternSteps: Int = 1 << 25, maxCost: Int = 4_000_000
    ) {
        self.maxCost = maxCost
        self.maxSteps = maxSteps
        self.maxCallDepth = maxCallDepth
        self.maxStringLength = maxStringLength
        self.maxCollectionSize = maxCollectionSize
        self.maxPatternSteps = maxPatternSteps
    }

    package static let `default` = EvaluationLimits()
}

/// Functions an embedding application supplies at evaluation time (Firestore's `get()` and
/// `exists()` read the request's documents). Called only from the evaluating thread.
package protocol EvaluationHost: AnyObject {
    /// Calls host function `index` (its position in the environment's host function list).
    func callHost(_ index: Int, name: String, arguments: [Value]) throws(EvaluationError) -> Value
}

/// Receives the value or error of each sub-expression as it is evaluated, for explanations.
package protocol EvaluationTracer: AnyObject {
    func record(span: SourceSpan, outcome: Result<Value, EvaluationError>)
}
