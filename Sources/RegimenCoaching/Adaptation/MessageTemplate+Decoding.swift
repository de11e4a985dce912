import RegimenLanguage
import RegimenRules

extension DecodingContext {
    /// Compiles the message template written in `node`, reporting each part's problems at its
    /// character, prefixed with `path`'s subject.
    func compileTemplate(_ node: LocatedNode, at path: DecodingPath, in environment: ExpressionEnvironment) -> MessageTemplate? {
        // A message is any scalar but null; its `{…}` parts are compiled by the loader alone.
        if describe(.text, for: node) { return nil }
        guard let scalar = node.scalar, scalar.plainType != .null, let source = ExpressionSource(node) else {
            wrongType(node, expected: "a message", at: path)
            return nil
        }
        do {
            return try MessageTemplate(source.sourceText, environment: environment)
        } catch {
            for diagnostic in error.diagnostics {
                var corrected = source.correcting(diagnostic)
                corrected.message = path.prefixed(corrected.message)
                report(corrected)
            }
            return nil
        }
    }
}

extension MappingDecoder {
    /// The required message template under `key`.
    mutating func requiredTemplate(_ key: String, in environment: ExpressionEnvironment) -> MessageTemplate? {
        guard let value = requiredNode(key) else { return nil }
        return context.compileTemplate(value, at: path.appending(key: key), in: environment)
    }
}
