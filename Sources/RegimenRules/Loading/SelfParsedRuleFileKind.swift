package import RegimenLanguage

/// A rule-file kind that keeps its own reader and parses the file's text itself (security
/// policies do, for their round trip with native `.rules` files). Registering one lets
/// `regimen check` validate those files alongside every other kind.
///
/// The loader still checks `kind:` and `version:`; everything else, unknown keys included, is
/// the parser's to report.
package protocol SelfParsedRuleFileKind: RuleFileKind {
    /// Parses the whole file.
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - path: The file's path as diagnostics show it (relative to the working directory).
    /// - Returns: The model, or every problem found.
    static func parse(_ text: String, path: String) -> Result<Self, DiagnosticsError>

    /// The file's keys besides `kind` and `version`, described from the parser's own reads
    /// (its schema); `nil` when the parser describes none, and the schema checks only those two.
    static var describedShape: MappingShape? { get }
}

extension SelfParsedRuleFileKind {
    static var describedShape: MappingShape? { nil }

    package static func decode(_ document: inout MappingDecoder, text: String) -> Self? {
        for key in document.keys { document.allow(key) }
        switch parse(text, path: document.node.location.file) {
        case .success(let content):
            return content
        case .failure(let error):
            document.context.report(contentsOf: error.diagnostics)
            return nil
        }
    }

    /// Only reachable when called directly: without the text there is nothing to parse.
    package static func decode(_ document: inout MappingDecoder) -> Self? {
        for key in document.keys { document.allow(key) }
        document.context.error("rules.needs-text", "kind '\(kind)' is parsed from its file's text", at: document.node.location)
        return nil
    }
}
