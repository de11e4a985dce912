import RegimenLanguage

/// The field rules of tracker documents, as `rules/tracker/tracker-validation.yaml` states them.
package struct ValidationPolicy: Sendable, Hashable {
    /// The type a field's value must have.
    package enum FieldType: String, Sendable, Hashable, CaseIterable {
        case string, int, number, bool, timestamp
    }

    /// What one field of a level must satisfy.
    package struct FieldRule: Sendable, Hashable {
        package var type: FieldType
        package var required: Bool
        package var nullable: Bool
        var trim: Bool
        var minLength: Int?
        var maxLength: Int?
        var min: Double?
        package var max: Double?
        package var oneOf: [String]?
        /// The value must be the user id of the document's path (its owner).
        package var owner: Bool

        init(type: FieldType, required: Bool = false, nullable: Bool = false, trim: Bool = false,
                    minLength: Int? = nil, maxLength: Int? = nil, min: Double? = nil, max: Double? = nil,
                    oneOf: [String]? = nil, owner: Bool = false) {
            self.type = type
            self.required = required
            self.nullable = nullable
            self.trim = trim
            self.minLength = minLength
            self.maxLength = maxLength
            self.min = min
            self.max = max
            self.oneOf = oneOf
            self.owner = owner
        }
    }

    /// Where a field's values must be unique.
    package enum UniqueScope: String, Sendable, Hashable {
        /// Among all documents of the level under the same user (program names).
        case user
        /// Among the documents of the same parent (week order within a program).
        case parent
    }

    package struct UniqueRule: Sendable, Hashable {
        package var field: String
        package var scope: UniqueScope
        var caseSensitive: Bool

        init(field: String, scope: UniqueScope, caseSensitive: Bool = true) {
            self.field = field
            self.scope = scope
            self.caseSensitive = caseSensitive
        }
    }

    /// The rules of one level.
    package struct LevelRules: Sendable, Hashable {
        package var fields: [String: FieldRule]
        var unique: [UniqueRule]
        var atLeastOneOf: [String]

        init(fields: [String: FieldRule], unique: [UniqueRule] = [], atLeastOneOf: [String] = []) {
            self.fields = fields
            self.unique = unique
            self.atLeastOneOf = atLeastOneOf
        }
    }

    /// Which set fields an exercise type requires, allows and shows.
    struct SetFields: Sendable, Hashable {
        package var required: [String]
        var allowed: [String]
        var shown: [String]

    }

    var levels: [TrackerLevel: LevelRules]
    var setFieldsByExerciseType: [String: SetFields]

    /// The metric fields a set may carry: every field any exercise type requires or allows.
    var metricFields: Set<String> {
        setFieldsByExerciseType.values.reduce(into: Set<String>()) { $0.formUnion($1.required + $1.allowed) }
    }
}
