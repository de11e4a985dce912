/// Builds the ≤25-minute busy-day version of a session (rules/training-compact.yaml).
///
/// Each muscle of the session, in order, keeps its first exercise when that exercise is
/// superset-safe, or takes the first superset-safe alternative for the muscle (same pattern
/// first). Exercises go into supersets / giant sets that share no primary muscle, and groups are
/// added while the estimate stays within the limit.
struct CompactVariantBuilder {
    let context: PlanningContext

    func variant(for blocks: [WorkoutBlock]) -> CompactVariant? {
        let decided = context.rules.compact
        let rules = decided.value
        var chosen: [(muscle: String, exercise: Exercise)] = []
        var usedIds: Set<String> = []
        var seenMuscles: [String] = []
        for block in blocks where block.kind == .strength && !seenMuscles.contains(block.muscle) {
            seenMuscles.append(block.muscle)
            guard let planned = context.catalog[block.exerciseId] else { continue }
            let exercise = planned.supersetSafe ? planned : alternative(to: planned, muscle: block.muscle, excluding: usedIds)
            guard let exercise, !usedIds.contains(exercise.id) else { continue }
            usedIds.insert(exercise.id)
            chosen.append((block.muscle, exercise))
        }

        var groups: [[(muscle: String, exercise: Exercise)]] = []
        for item in chosen {
            if let last = groups.indices.last, groups[last].count < rules.groupSize,
               !groups[last].contains(where: { !Set($0.exercise.muscles).isDisjoint(with: item.exercise.muscles) }) {
                groups[last].append(item)
            } else {
                groups.append([item])
            }
        }

        var total = rules.warmupSeconds
        var kept: [CompactVariant.Group] = []
        var omitted: [String] = []
        let labels = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for group in groups {
            let work = group.reduce(0) { $0 + $1.exercise.setSeconds }
            let seconds = rules.rounds * (work + (group.count - 1) * rules.transitionSeconds + rules.restBetweenRoundsSeconds)
            guard total + seconds <= rules.maxMinutes * 60 else {
                omitted.append(contentsOf: group.map(\.muscle))
                continue
            }
            total += seconds
            let label = kept.count < labels.count ? String(labels[kept.count]) : "G\(kept.count + 1)"
            kept.append(CompactVariant.Group(
                label: label, rounds: rules.rounds,
                blocks: group.map { compactBlock($0.exercise, muscle: $0.muscle, rounds: rules.rounds) },
                estimatedSeconds: seconds))
        }
        guard !kept.isEmpty else { return nil }
        return CompactVariant(groups: kept, estimatedMinutes: (total + 59) / 60, omittedMuscles: omitted, source: decided.source)
    }

    private func alternative(to exercise: Exercise, muscle: String, excluding used: Set<String>) -> Exercise? {
        let pool = context.index.muscleId(muscle).map { context.safeCandidates[$0] } ?? []
        let candidates = pool.filter { context.catalog.exercises[$0].supersetSafe && !used.contains(context.catalog.exercises[$0].id) }
            .map { context.catalog.exercises[$0] }
        return candidates.first { $0.pattern == exercise.pattern }
            ?? candidates.first { $0.movement == exercise.movement }
            ?? candidates.first
    }

    private func compactBlock(_ exercise: Exercise, muscle: String, rounds: Int) -> WorkoutBlock {
        let prescription = context.modifier.value.prescription(for: exercise.movement)
        return WorkoutBlock(
            muscle: muscle, exerciseId: exercise.id, exerciseName: exercise.name, sets: rounds,
            reps: exercise.hold.map(RangeText.hold) ?? RangeText.of(prescription.reps),
            rir: exercise.hold == nil ? RangeText.of(prescription.rir) : nil, altCompact: true, movement: exercise.movement, kind: exercise.kind,
            sources: [context.rules.compact.source], notes: [])
    }
}
