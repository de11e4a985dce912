package import RegimenLanguage

extension RuleSetLoader {
    /// Decodes `text` as one file of `type` on its own, read as a load reads a file of the rule
    /// tree: the same YAML reader, `kind:` and `version:` checked against `type` alone, and every
    /// key `body` does not read reported as unknown. For files a caller names directly (a policy
    /// passed to `regimen security`, a test file, a request body) rather than the tree's.
    /// - Parameters:
    ///   - file: Where the diagnostics point.
    ///   - body: Reads the file's keys besides `kind` and `version`; `nil` when unusable.
    /// - Returns: What `body` made, or every problem found (warnings are dropped when it succeeds).
    package static func decodeFile<Content>(
        _ text: String, file: String, as type: any RuleFileKind.Type, _ body: (inout MappingDecoder) -> Content?
    ) -> Result<Content, DiagnosticsError> {
        let context = DecodingContext()
        guard let node = document(text, file: file, in: context) else { return .failure(DiagnosticsError(context.diagnostics)) }
        // As in a load, a file whose header is wrong is not decoded further.
        guard header(of: node, kinds: [type.kind: type], in: context) != nil else { return .failure(DiagnosticsError(context.diagnostics)) }
        let content = context.mapping(node, at: DecodingPath()) { map in
            map.allow("kind", "version")
            return body(&map)
        }
        guard !context.hasErrors, let content else { return .failure(DiagnosticsError(context.diagnostics)) }
        return .success(content)
    }
}
