import RegimenLanguage
import RegimenRules
import OrderedCollections

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
