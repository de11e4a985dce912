import RegimenLanguage

/// What a duplicate copies, as `rules/tracker/tracker-duplication.yaml` states it.
package struct CopyPolicy: Sendable {
    /// The copy rules of one level above sets.
    package struct LevelCopy: Sendable {
        /// Fields copied from the source when present.
        package var copy: [String]
        /// Fields computed for the document the user chose to duplicate (not for its
        /// descendants). Variables: `source` (map) and `max_sibling_value`.
        var whenDuplicated: [String: Formula]
        /// For a field the validation rules want unique: the n-th value to try (n = 2, 3, …)
        /// when the copy's value is taken. Variables: `source` (map) and `n`.
        var whenTaken: [String: Formula]

        init(copy: [String], whenDuplicated: [String: Formula] = [:], whenTaken: [String: Formula] = [:]) {
            self.copy = copy
            self.whenDuplicated = whenDuplicated
            self.whenTaken = whenTaken
        }
    }

    /// The copy rules of sets of one exercise type.
    struct SetCopy: Sendable, Hashable {
        package var copy: [String]
        /// Fields set to a fixed value on the copy (`checked: false`).
        package var reset: [String: Value]

    }

    /// At most this many writes go into one batch.
    var maxOperationsPerBatch: Int
    /// Fields set to the duplication time on every copy.
    var timestampFields: [String]
    /// Fields kept from the source on every copy.
    var keptFields: [String]
    /// The field set on every copy to the duplicating user's id (`userId`: every tracker document
    /// names its owner; docs/requirements.md#tracker-data-model).
    var ownerField: String?
    var levels: [TrackerLevel: LevelCopy]
    var setsByExerciseType: [String: SetCopy]

    init(maxOperationsPerBatch: Int, timestampFields: [String], keptFields: [String], ownerField: String? = nil,
                levels: [TrackerLevel: LevelCopy], setsByExerciseType: [String: SetCopy]) {
        self.ownerField = ownerField
        self.maxOperationsPerBatch = maxOperationsPerBatch
        self.timestampFields = timestampFields
        self.keptFields = keptFields
        self.levels = levels
        self.setsByExerciseType = setsByExerciseType
    }

    /// The fields of the copy of `source`, a set of exercise type `exerciseType` or a document
    /// of another level; `nil` when the policy has no rule for it.
    func copiedFields(of source: TrackerDocument, exerciseType: String?, now: Timestamp) -> [String: Value]? {
        var fields: [String: Value] = [:]
        if source.level == .set {
            guard let exerciseType, let rule = setsByExerciseType[exerciseType] else { return nil }
            for name in rule.copy { if let value = source.fields[name] { fields[name] = value } }
            for (name, value) in rule.reset { fields[name] = value }
        } else {
            guard let rule = levels[source.level] else { return nil }
            for name in rule.copy { if let value = source.fields[name] { fields[name] = value } }
        }
        for name in keptFields { if let value = source.fields[name] { fields[name] = value } }
        for name in timestampFields { fields[name] = .timestamp(now) }
        return fields
    }
}
