import OrderedCollections
package import RegimenLanguage

/// The JSON Schema (2020-12) of a rule-file kind, described from the kind's own decode function
/// (see ``ShapeRecorder``): the loader and the schema read one declaration.
package enum RuleFileSchema {
    /// The `$id` base of every schema Regimen writes; each schema is `<base><name>.schema.json`.
    static let idBase = "https://regimen.dev/schemas/"

    /// The file name of the schema for `kind` (`readiness_rules.schema.json`).
    package static func fileName(for kind: String) -> String { "\(kind).schema.json" }

    /// The shape of a file of `type`: `kind:` and `version:` as the loader reads them, then every
    /// key the kind's decode function asks for.
    package static func shape(of type: any RuleFileKind.Type) -> MappingShape {
        let context = DecodingContext.describing()
        let recorded = context.shape { node in
            _ = context.mapping(node, at: DecodingPath()) { map -> Bool? in
                _ = type.decode(&map, text: "")
                return nil
            }
        }
        var shape = MappingShape()
        shape.add("kind", kindShape(type.kind), required: true)
        shape.add("version", .integer(minimum: Double(type.versions.lowerBound), maximum: Double(type.versions.upperBound)), required: true)
        if case .mapping(let body) = recorded {
            for (key, value) in body.properties where key != "kind" && key != "version" {
                shape.add(key, value, required: body.required.contains(key))
            }
            shape.otherKeys = body.otherKeys
        } else {
            shape.otherKeys = .anything(note: "Checked by the loader (regimen check).")
        }
        return shape
    }

    /// `kind:` as the loader reads it: the kind's name, or (deprecated, with a warning) the
    /// same words joined by hyphens (`security-tests`).
    static func kindShape(_ kind: String) -> NodeShape {
        guard kind.contains("_") else { return .oneOf([kind]) }
        let hyphenated = "^(?=.*-)" + kind.split(separator: "_").joined(separator: "[-_]") + "$"
        return .anyOf([
            .oneOf([kind]),
            .deprecated(.pattern(hyphenated), note: "A hyphenated spelling of '\(kind)', still read with a warning (rules.deprecated-kind): write '\(kind)'."),
        ])
    }

    /// The whole schema document for `type`, each vocabulary word an `enum` of `vocabularies`.
    package static func document(for type: any RuleFileKind.Type, vocabularies: SchemaVocabularies = .none) -> Value {
        var shape = shape(of: type)
        shape.summary = """
            A Regimen rule file of kind '\(type.kind)'. The schema checks the file's shape (keys, types, ranges, \
            allowed words); expressions in the rules language and references to other files are checked by the \
            loader alone (regimen check).
            """
        return document(named: type.kind, title: "Regimen \(type.kind) file", shape: .mapping(shape), vocabularies: vocabularies)
    }

    /// A schema document around `shape`: `$schema`, `$id` and `title` first.
    package static func document(named name: String, title: String, shape: NodeShape, vocabularies: SchemaVocabularies = .none) -> Value {
        let schema = shape.jsonSchema(vocabularies)
        guard case .map(let body) = schema else { return schema }
        var document = OrderedDictionary<String, Value>()
        document["$schema"] = .string("https://json-schema.org/draft/2020-12/schema")
        document["$id"] = .string(idBase + fileName(for: name))
        document["title"] = .string(title)
        for (key, value) in body { document[key] = value }
        return .map(document)
    }
}
