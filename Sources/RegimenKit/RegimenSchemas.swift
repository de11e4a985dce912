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
    package static var kinds: [any RuleFileKind.Type] { kinds(RegimenRuleKinds.all) }

    /// `registered` and the shared `functions` kind, each once, sorted by name.
    package static func kinds(_ registered: [any RuleFileKind.Type]) -> [any RuleFileKind.Type] {
        var seen: Set<String> = []
        return ([FunctionsFile.self] + registered)
            .filter { seen.insert($0.kind).inserted }
            .sorted { $0.kind < $1.kind }
    }

    /// The inputs with a schema: name, title and shape (described from their own decoders).
    /// The profile's ranges, goals, age ranges and diets come from the rules `profile` was made
    /// from, so its schema is written only when one is given.
    package static func inputs(profile: ProfileDecoder?) -> [(name: String, title: String, shape: NodeShape)] {
        var inputs = [("checkins", "Regimen check-ins (regimen adapt PLAN CHECKINS)", AdaptationInputDecoder.shape)]
        if let profile {
            inputs.append(("profile", "Regimen client profile (regimen plan PROFILE)", Self.profileShape(profile)))
        }
        return inputs
    }

    /// The profile decoder's shape with the hover text editors show for the file.
    private static func profileShape(_ decoder: ProfileDecoder) -> NodeShape {
        guard case .mapping(var shape) = decoder.shape else { return decoder.shape }
        shape.summary = """
            A client profile as `regimen plan` reads it (YAML or JSON). Ranges, goals, age ranges and diets are \
            the bundled rules' (rules/profile-fields.yaml, age-ranges.yaml, goals.yaml, dietary-exclusions.yaml); \
            a field may be null, read as absent, except sex. pregnant: true with sex: male is refused by the \
            loader alone.
            """
        return .mapping(shape)
    }

    /// Every schema: the kinds, then the inputs, each sorted by name; the profile's only with
    /// `profile` (the decoder of the loaded rules); muscles, equipment tags and exercise ids as
    /// `enum`s of `vocabularies` (the loaded rules' and catalogs' words).
    /// - Parameter registered: the kinds described: every module's by default.
    package static func all(
        profile: ProfileDecoder? = nil, vocabularies: SchemaVocabularies = .none, kinds registered: [any RuleFileKind.Type] = RegimenRuleKinds.all
    ) -> [Schema] {
        kinds(registered).map { Schema(name: $0.kind, document: RuleFileSchema.document(for: $0, vocabularies: vocabularies)) }
            + inputs(profile: profile).map {
                Schema(name: $0.name, document: RuleFileSchema.document(named: $0.name, title: $0.title, shape: $0.shape, vocabularies: vocabularies))
            }
    }

    /// Every schema, the profile's and the vocabularies described against `ruleSet` and the
    /// profile decoder made from it: what `regimen schema` writes.
    package static func all(ruleSet: RuleSet, profile: ProfileDecoder) -> [Schema] {
        all(profile: profile, vocabularies: SchemaVocabulary.vocabularies(of: ruleSet))
    }

    /// Every schema described against `engine`'s rules and catalogs (as `regimen schema` on the
    /// same folders writes them).
    package static func all(engine: RegimenEngine) -> [Schema] {
        all(profile: engine.profileDecoder, vocabularies: engine.schemaVocabularies)
    }
}

extension RegimenEngine {
    /// The decoder of profiles under this engine's rules (its shape is the profile's schema).
    package var profileDecoder: ProfileDecoder { planner.nutrition.profileDecoder }
}
