import RegimenLanguage
import RegimenRules

/// Policies, test files, documents and request bodies are read by RegimenRules' ``YAMLReader``,
/// so they get the same located syntax errors, duplicate-key checks and size limits as every
/// other rule file.
enum SecurityYAML {
    /// The single document of `text`; an empty document is an empty mapping, so a blank file is
    /// reported for the keys it lacks.
    static func read(_ text: String, file: String) throws(DiagnosticsError) -> LocatedNode {
        let result = YAMLReader.read(text, file: file)
        if !result.diagnostics.isEmpty { throw DiagnosticsError(result.diagnostics) }
        return result.document ?? LocatedNode(.mapping([]), at: SourceLocation(file: file, line: 1, column: 1))
    }
}

extension LocatedNode {
    /// A plain, untagged null (`~`, `null` or nothing at all), as in `- list:` with no condition.
    var isNull: Bool { tag == nil && scalar?.plainType == .null }
}

/// Reads a YAML mapping key by key, reporting unknown keys, missing keys and wrong types.
struct YAMLMapping {
    let node: LocatedNode
    let context: String
    private var seen: Set<String> = []

    init?(_ node: LocatedNode, context: String, diagnostics: inout DiagnosticCollector) {
        guard node.mapping != nil else {
            diagnostics.error("yaml.type", "\(context) must be a mapping, not \(node.kindDescription)", at: node.location)
            return nil
        }
        self.node = node
        self.context = context
    }

    mutating func value(_ key: String) -> LocatedNode? {
        seen.insert(key)
        return node[key]
    }

    /// The location of `key` itself (for "missing"/"conflict" messages).
    func keyLocation(_ key: String) -> SourceLocation? {
        node.mapping?.first { $0.key.scalar?.text == key }?.key.location
    }

    mutating func string(_ key: String, diagnostics: inout DiagnosticCollector) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.scalar?.text, !v.isNull else {
            diagnostics.error("yaml.type", "'\(key)' in \(context) must be a string", at: v.location)
            return nil
        }
        return s
    }

    /// Reports every key not read by `value(_:)`, with a suggestion when one is close.
    func reportUnknownKeys(_ diagnostics: inout DiagnosticCollector) {
        for pair in node.mapping ?? [] {
            let key = pair.key.scalar?.text ?? "?"
            if !seen.contains(key) {
                let notes = Suggestion.closest(to: key, among: seen.sorted()).map { ["did you mean '\($0)'?"] } ?? []
                diagnostics.error("yaml.unknown-key", "unknown key '\(key)' in \(context)", at: pair.key.location, notes: notes)
            }
        }
    }
}
