public import RegimenLanguage
import OrderedCollections

extension TrainingWeek {
    /// The `workouts` array of `generatePlan` (docs/requirements.md#generateplan): `[{day,
    /// blocks: [{muscle, exerciseId, sets, reps, rir, alt_compact}]}]`, each workout also carrying
    /// its focus, estimated minutes and busy-day variant. With `explain`, each block lists the
    /// rules behind it.
    public func contractWorkouts(explain: Bool = false) -> Value {
        .list(workouts.map { workout in
            var entry: [(String, Value)] = [
                ("blocks", .list(workout.blocks.map { $0.contractValue(explain: explain) })),
                ("day", .int(Int64(workout.day))),
                ("estimated_minutes", .int(Int64(workout.estimatedMinutes))),
                ("focus", .string(workout.focus)),
            ]
            if let compact = workout.compact {
                let groups: [Value] = compact.groups.map { group in
                    sortedMap([
                        ("blocks", .list(group.blocks.map { $0.contractValue(explain: false) })),
                        ("kind", .string(group.kind)), ("label", .string(group.label)),
                        ("rounds", .int(Int64(group.rounds))),
                    ])
                }
                entry.append(("compact", sortedMap([
                    ("estimated_minutes", .int(Int64(compact.estimatedMinutes))),
                    ("groups", .list(groups)),
                    ("omitted_muscles", .list(compact.omittedMuscles.map(Value.string))),
                ])))
            }
            if workout.isRecovery { entry.append(("recovery", .bool(true))) }
            if explain { entry.append(("rules", .list(workout.sources.map { .string($0.description) }))) }
            return sortedMap(entry)
        })
    }

    /// The week's accounting beside the seed's fields: split, weekly sets per muscle with band and
    /// shortfall reasons, notes and assumptions.
    public func contractSummary(explain: Bool = false) -> Value {
        var splitFields: [(String, Value)] = [
            ("id", .string(split.templateId)), ("name", .string(split.name)),
            ("options", .list(split.options.map(Value.string))),
            ("recovery_days", .int(Int64(split.recoveryDays))), ("training_days", .int(Int64(split.trainingDays))),
        ]
        if explain { splitFields.append(("rules", .list([.string(split.source.description)]))) }
        let weekly: [Value] = volume.map { muscle in
            var fields: [(String, Value)] = [
                ("band", .string(RangeText.of(muscle.band))), ("direct_sets", .int(Int64(muscle.directSets))),
                ("indirect_sets", .int(Int64(muscle.indirectSets))), ("muscle", .string(muscle.muscle)),
                ("planned", .number(muscle.planned)),
                ("sessions", .int(Int64(muscle.sessions))), ("target", .int(Int64(muscle.target))),
            ]
            if muscle.isShort { fields.append(("shortfall", .list(muscle.shortfallReasons.map(Value.string)))) }
            if let adjustment = muscle.injuryAdjustment { fields.append(("injury_adjustment", .string(adjustment))) }
            if explain {
                fields.append(("rules", .list(muscle.sources.map { .string($0.description) })))
                fields.append(("from", .list(muscle.contributions.map(Value.string))))
            }
            return sortedMap(fields)
        }
        return sortedMap([
            ("assumptions", .list(assumptions.map(Value.string))),
            ("cautions", .list(cautions.map(Value.string))),
            ("notes", .list(notes.map(Value.string))),
            ("split", sortedMap(splitFields)),
            ("weekly_sets", .list(weekly)),
        ])
    }
}

extension WorkoutBlock {
    /// One entry of the seed's `blocks[]`, with the exercise name and notes added.
    func contractValue(explain: Bool) -> Value {
        var fields: [(String, Value)] = [
            ("alt_compact", .bool(altCompact)), ("exerciseId", .string(exerciseId)), ("muscle", .string(muscle)),
            ("name", .string(exerciseName)), ("reps", .string(reps)), ("rir", rir.map(Value.string) ?? .null),
            ("sets", .int(Int64(sets))),
        ]
        if !notes.isEmpty { fields.append(("notes", .list(notes.map(Value.string)))) }
        if explain { fields.append(("rules", .list(sources.map { .string($0.description) }))) }
        return sortedMap(fields)
    }
}

/// A map value with its keys in sorted order, so JSON and YAML output is stable.
func sortedMap(_ pairs: [(String, Value)]) -> Value {
    guard case .map(var map) = Value.map(["": .null]) else { return .null }
    map.removeAll()
    for (key, value) in pairs.sorted(by: { $0.0 < $1.0 }) { map[key] = value }
    return .map(map)
}
