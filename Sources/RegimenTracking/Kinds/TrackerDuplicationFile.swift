import RegimenLanguage
import RegimenRules
import OrderedCollections

/// `kind: tracker_duplication` — decodes `rules/tracker/tracker-duplication.yaml` into a ``CopyPolicy``.
struct TrackerDuplicationFile: RuleFileKind {
    package static let kind = "tracker_duplication"
    package static var expressionScopes: [ExpressionScope] { [TrackerDuplicationVariables.duplicatedScope, TrackerDuplicationVariables.takenScope] }
    package let policy: CopyPolicy

    package var ruleCount: Int { policy.levels.count + policy.setsByExerciseType.count }

    package static func decode(_ document: inout MappingDecoder) -> TrackerDuplicationFile? {
        let context = document.context
        let maxOperations = document.required("max_operations_per_batch", as: Int.self, in: 1...500)
        let timestamps = document.strings("timestamps")
        let keep = document.optional("keep", as: [String].self) ?? []
        let ownerField = document.optional("owner_field", as: String.self)
        var levels: [TrackerLevel: CopyPolicy.LevelCopy] = [:]
        _ = document.mapping("levels") { map -> Bool? in
            // Each level by name (the schema lists them; any other key is unknown). Sets are
            // copied by `sets_by_exercise_type`, not here.
            for level in TrackerLevel.allCases where level != .set {
                let key = level.rawValue
                levels[level] = map.mapping(key, required: false) { entry -> CopyPolicy.LevelCopy? in
                    entry.path = entry.path.about("level '\(key)'")
                    let copy = entry.strings("copy")
                    var computed: [String: Formula] = [:]
                    _ = entry.mapping("when_duplicated", required: false) { fields -> Bool? in
                        for name in fields.keys {
                            if let formula = fields.formula(name, declaring: TrackerDuplicationVariables.duplicatedScope.variables) { computed[name] = formula }
                        }
                        return true
                    }
                    var taken: [String: Formula] = [:]
                    _ = entry.mapping("when_taken", required: false) { fields -> Bool? in
                        for name in fields.keys {
                            if let formula = fields.formula(name, declaring: TrackerDuplicationVariables.takenScope.variables) { taken[name] = formula }
                        }
                        return true
                    }
                    return CopyPolicy.LevelCopy(copy: copy, whenDuplicated: computed, whenTaken: taken)
                }
            }
            return true
        }
        var sets: [String: CopyPolicy.SetCopy] = [:]
        _ = document.mapping("sets_by_exercise_type") { map -> Bool? in
            for type in map.keys {
                sets[type] = map.mapping(type) { entry -> CopyPolicy.SetCopy? in
                    entry.path = entry.path.about("sets of exercise type '\(type)'")
                    let copy = entry.strings("copy")
                    var reset: [String: Value] = [:]
                    for (key, value) in entry.optional("reset", as: Value.self)?.mapValue ?? [:] { reset[key] = value }
                    return CopyPolicy.SetCopy(copy: copy, reset: reset)
                }
            }
            return true
        }
        guard !context.hasErrors, let maxOperations else { return nil }
        return TrackerDuplicationFile(policy: CopyPolicy(maxOperationsPerBatch: maxOperations, timestampFields: timestamps,
                                                         keptFields: keep, ownerField: ownerField, levels: levels, setsByExerciseType: sets))
    }
}
