import RegimenCoaching
import RegimenLanguage
package import RegimenRules

/// The JSON Schemas (2020-12) `regimen schema` writes: one per rule-file kind, each described
/// from the kind's own decode function (``RuleFileSchema``), so a registered kind always has one
/// and it cannot drift from the loader.
package enum RegimenSchemas {
    /// One schema document with the name it is written under.
    package struct Schema: Sendable {
        /// The `kind:` (or input) it describes.
        package var name: String
        /// `NAME.schema.json`.
        package var fileName: String { RuleFileSchema.fileName(for: name) }
        /// The schema document.
        package var document: Value
        /// The schema as written to disk: pretty JSON with sorted keys and a final newline.
        package var text: String { document.jsonString(pretty: true) + "\n" }
    }

    /// Every kind the loader registers (the shared `functions` kind included), sorted by name.
    package static var kinds: [any RuleFileKind.Type] {
        var seen: Set<String> = []
        let registered: [any RuleFileKind.Type] = [FunctionsFile.self] + RegimenRuleKinds.all
        return registered
            .filter { seen.insert($0.kind).inserted }
            .sorted { $0.kind < $1.kind }
    }

    /// The inputs with a schema: name, title and shape (described from their own decoders).
    package static var inputs: [(name: String, title: String, shape: NodeShape)] {
        [("checkins", "Regimen check-ins (regimen adapt PLAN CHECKINS)", AdaptationInputDecoder.shape)]
    }

    /// Every schema: the kinds, then the inputs, each sorted by name.
    package static func all() -> [Schema] {
        kinds.map { Schema(name: $0.kind, document: RuleFileSchema.document(for: $0)) }
            + inputs.map { Schema(name: $0.name, document: RuleFileSchema.document(named: $0.name, title: $0.title, shape: $0.shape)) }
    }
}
