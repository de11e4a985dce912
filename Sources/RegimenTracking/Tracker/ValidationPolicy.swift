import RegimenLanguage

/// The field rules of tracker documents, as `rules/tracker/tracker-validation.yaml` states them.
public struct ValidationPolicy: Sendable, Hashable {
    /// The type a field's value must have.
    public enum FieldType: String, Sendable, Hashable, CaseIterable {
        case string, int, number, bool, timestamp
    }

    /// What one field of a level must satisfy.
    public struct FieldRule: Sendable, Hashable {
        public var type: FieldType
        public var required: Bool
        public var nullable: Bool
        public var trim: Bool
        public var minLength: Int?
        public var maxLength: Int?
        public var min: Double?
        public var max: Double?
        public var oneOf: [String]?
        /// The value must be the user id of the document's path (its owner).
        public var owner: Bool

        public init(type: FieldType, required: Bool = false, nullable: Bool = false, trim: Bool = false,
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
    public enum UniqueScope: String, Sendable, Hashable {
        /// Among all documents of the level under the same user (program names).
        case user
        /// Among the documents of the same parent (week order within a program).
        case parent
    }

    public struct UniqueRule: Sendable, Hashable {
        public var field: String
        public var scope: UniqueScope
        public var caseSensitive: Bool

        public init(field: String, scope: UniqueScope, caseSensitive: Bool = true) {
            self.field = field
            self.scope = scope
            self.caseSensitive = caseSensitive
        }
    }

    /// The rules of one level.
    public struct LevelRules: Sendable, Hashable {
        public var fields: [String: FieldRule]
        public var unique: [UniqueRule]
        public var atLeastOneOf: [String]

        public init(fields: [String: FieldRule], unique: [UniqueRule] = [], atLeastOneOf: [String] = []) {
            self.fields = fields
            self.unique = unique
            self.atLeastOneOf = atLeastOneOf
        }
    }

    /// Which set fields an exercise type requires, allows and shows.
    public struct SetFields: Sendable, Hashable {
        public var required: [String]
        public var allowed: [String]
        public var shown: [String]

        public init(required: [String], allowed: [String], shown: [String]) {
            self.required = required
            self.allowed = allowed
            self.shown = shown
        }
    }

    public var levels: [TrackerLevel: LevelRules]
    public var setFieldsByExerciseType: [String: SetFields]

    public init(levels: [TrackerLevel: LevelRules], setFieldsByExerciseType: [String: SetFields]) {
        self.levels = levels
        self.setFieldsByExerciseType = setFieldsByExerciseType
    }

    /// The metric fields a set may carry: every field any exercise type requires or allows.
    public var metricFields: Set<String> {
        setFieldsByExerciseType.values.reduce(into: Set<String>()) { $0.formUnion($1.required + $1.allowed) }
    }
}
