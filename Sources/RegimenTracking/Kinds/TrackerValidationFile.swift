import RegimenLanguage
import RegimenRules

/// `kind: tracker_validation` — decodes `rules/tracker/tracker-validation.yaml` into a ``ValidationPolicy``.
struct TrackerValidationFile: RuleFileKind {
    package static let kind = "tracker_validation"
    package let policy: ValidationPolicy

    package var ruleCount: Int { policy.levels.values.reduce(0) { $0 + $1.fields.count } + policy.setFieldsByExerciseType.count }

    package static func decode(_ document: inout MappingDecoder) -> TrackerValidationFile? {
        let context = document.context
        var levels: [TrackerLevel: ValidationPolicy.LevelRules] = [:]
        _ = document.mapping("levels") { map -> Bool? in
            // Each level by name (the schema lists them; any other key is unknown).
            for level in TrackerLevel.allCases {
                levels[level] = map.mapping(level.rawValue, required: false) { decodeLevel(&$0, level: level, context: context) }
            }
            return true
        }
        var byType: [String: ValidationPolicy.SetFields] = [:]
        _ = document.mapping("set_fields_by_exercise_type") { map -> Bool? in
            for type in map.keys {
                map.path = map.path.about("exercise type '\(type)'")
                byType[type] = map.mapping(type) { entry in
                    ValidationPolicy.SetFields(required: entry.strings("required"), allowed: entry.strings("allowed"),
                                               shown: entry.strings("shown"))
                }
            }
            return true
        }
        if let exerciseType = levels[.exercise]?.fields["exerciseType"]?.oneOf {
            for type in exerciseType where byType[type] == nil {
                context.error("tracker.missing-type", "exercise type '\(type)' has no entry in 'set_fields_by_exercise_type'",
                              at: document.location(ofKey: "set_fields_by_exercise_type"))
            }
        }
        let setFields = levels[.set]?.fields ?? [:]
        for type in byType.keys.sorted() {
            guard let entry = byType[type] else { continue }
            for name in entry.required + entry.allowed + entry.shown where setFields[name] == nil {
                context.error("rules.unknown-reference", "exercise type '\(type)': '\(name)' is not a field of 'levels.set.fields'",
                              at: document.node["set_fields_by_exercise_type"]?[type]?.location)
            }
            for name in entry.required where !entry.shown.contains(name) {
                context.error("tracker.hidden-required", "exercise type '\(type)': required field '\(name)' must also be shown",
                              at: document.node["set_fields_by_exercise_type"]?[type]?.location)
            }
        }
        guard !context.hasErrors else { return nil }
        return TrackerValidationFile(policy: ValidationPolicy(levels: levels, setFieldsByExerciseType: byType))
    }

    private static func decodeLevel(_ map: inout MappingDecoder, level: TrackerLevel, context: DecodingContext) -> ValidationPolicy.LevelRules? {
        map.path = map.path.about("level '\(level.rawValue)'")
        var fields: [String: ValidationPolicy.FieldRule] = [:]
        _ = map.mapping("fields") { fieldsMap -> Bool? in
            for name in fieldsMap.keys {
                fields[name] = fieldsMap.mapping(name) { field -> ValidationPolicy.FieldRule? in
                    field.path = field.path.about("field '\(level.rawValue).\(name)'")
                    // Every key is read before the type is checked, so a bad type does not also
                    // report the field's other keys as unknown.
                    let typeName = field.required("type", as: String.self)
                    let required = field.optional("required", default: false), nullable = field.optional("nullable", default: false)
                    let trim = field.optional("trim", default: false), minLength = field.optional("min_length", as: Int.self, in: 0...1_000_000)
                    let maxLength = field.optional("max_length", as: Int.self, in: 0...1_000_000)
                    let min = field.optional("min", as: Double.self), max = field.optional("max", as: Double.self)
                    let oneOf = field.optional("one_of", as: [String].self), owner = field.optional("owner", default: false)
                    guard let typeName else { return nil }
                    guard let type = ValidationPolicy.FieldType(rawValue: typeName) else {
                        context.error("rules.bad-value", field.path.message("has unknown type '\(typeName)'; expected one of \(ValidationPolicy.FieldType.allCases.map(\.rawValue).joined(separator: ", "))"),
                                      at: field.node["type"]?.location)
                        return nil
                    }
                    return ValidationPolicy.FieldRule(
                        type: type, required: required, nullable: nullable, trim: trim, minLength: minLength, maxLength: maxLength,
                        min: min, max: max, oneOf: oneOf, owner: owner)
                }
            }
            return true
        }
        let unique = map.list("unique", required: false) { node, path in
            context.mapping(node, at: path) { entry -> ValidationPolicy.UniqueRule? in
                let field = entry.required("field", as: String.self), within = entry.required("within", as: String.self)
                let caseSensitive = entry.optional("case_sensitive", default: true)
                guard let field, let within else { return nil }
                guard let scope = ValidationPolicy.UniqueScope(rawValue: within) else {
                    context.error("rules.bad-value", entry.path.message("'within' must be user or parent, not '\(within)'"), at: entry.node["within"]?.location)
                    return nil
                }
                if fields[field] == nil {
                    context.error("rules.unknown-reference", entry.path.message("names field '\(field)', which the level does not list"), at: entry.node["field"]?.location)
                }
                return ValidationPolicy.UniqueRule(field: field, scope: scope, caseSensitive: caseSensitive)
            }
        } ?? []
        let atLeastOne = map.optional("at_least_one_of", as: [String].self) ?? []
        for name in atLeastOne where fields[name] == nil {
            context.error("rules.unknown-reference", map.path.message("'at_least_one_of' names field '\(name)', which the level does not list"),
                          at: map.node["at_least_one_of"]?.location)
        }
        return ValidationPolicy.LevelRules(fields: fields, unique: unique, atLeastOneOf: atLeastOne)
    }
}
