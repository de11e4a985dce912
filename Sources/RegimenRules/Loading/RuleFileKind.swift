/// A kind of rule file (`kind: readiness_rules`), decoded into a typed Swift model.
///
/// Domain modules declare one type per kind and hand the types to ``RuleSetLoader``. The loader
/// reads `kind:` and `version:` itself, then calls ``decode(_:)`` with a decoder over the rest of
/// the document; keys the decoder does not read are reported as unknown afterwards. Once every
/// file is decoded, ``validate(_:context:)`` runs once per kind to check references across files.
///
/// ```swift
/// public struct ReadinessRules: RuleFileKind {
///     public static let kind = "readiness_rules"
///     public var rules: [ReadinessRule]
///     public static func decode(_ document: inout MappingDecoder) -> ReadinessRules? {
///         document.list("rules") { node, path in ReadinessRule.decode(from: node, at: path, in: document.context) }
///             .map { ReadinessRules(rules: $0) }
///     }
///     public var ruleCount: Int { rules.count }
/// }
/// ```
package protocol RuleFileKind: Sendable {
    /// The `kind:` value that selects this type, lower-case with underscores.
    static var kind: String { get }
    /// The `version:` values this type reads; defaults to `1...1`.
    static var versions: ClosedRange<Int> { get }
    /// Decodes a file's content (every key but `kind` and `version`), reporting problems to
    /// `document.context`; returns `nil` when the file cannot be used.
    static func decode(_ document: inout MappingDecoder) -> Self?
    /// Decodes with the file's text at hand; the loader calls this one. The default ignores the
    /// text and calls ``decode(_:)``; a kind that keeps the text (a policy, for its excerpts) reads it here.
    static func decode(_ document: inout MappingDecoder, text: String) -> Self?
    /// Checks this kind's files against the whole rule set (dangling references, duplicates across
    /// files). Runs once per kind after all files are decoded; the default does nothing.
    static func validate(_ ruleSet: RuleSet, context: DecodingContext)
    /// How many rules the file holds, for `regimen check`'s summary; defaults to 0.
    var ruleCount: Int { get }
    /// How many catalog entries the file holds, for `regimen check`'s summary; defaults to 0.
    var catalogEntryCount: Int { get }
    /// The variables this kind's expressions may read, by where they are evaluated; empty for a
    /// kind without expressions (or whose expressions read only the shared functions).
    static var expressionScopes: [ExpressionScope] { get }
    /// The parts of this kind's files whose entries coverage counts and explanations cite, one
    /// by one; empty (the default) for a kind whose rules are not named individually.
    static var ruleSections: [RuleSection] { get }
    /// The vocabularies this kind's files name (`goal` → the goal ids), by name, for the strings
    /// expressions compare with an ``ExpressionType/named(_:)`` value; empty by default.
    static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>]
}

extension RuleFileKind {
    package static func decode(_ document: inout MappingDecoder, text: String) -> Self? { decode(&document) }
    package static var versions: ClosedRange<Int> { 1...1 }
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {}
    package var ruleCount: Int { 0 }
    package var catalogEntryCount: Int { 0 }
    package static var expressionScopes: [ExpressionScope] { [] }
    package static var ruleSections: [RuleSection] { [] }
    package static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>] { [:] }
}
