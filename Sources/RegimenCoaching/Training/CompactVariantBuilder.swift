/// Builds the ≤25-minute busy-day version of a session (rules/training-compact.yaml).
///
/// Each muscle of the session, in order, keeps its first exercise when that exercise is
/// superset-safe, or takes the first superset-safe alternative for the muscle (same pattern
/// first). Exercises go into supersets / giant sets that share no primary muscle, and groups are
/// added while the estimate stays within the limit.
struct CompactVariantBuilder {
    let context: PlanningContext

    /// Exercises are handled by catalog position (ids are unique there), so choosing and grouping
    /// never copies an ``Exercise`` and primary muscles compare as the index's small ids.
    /// `roles`: the day type's roles; an alternative for a role muscle keeps to the role's patterns.
    func variant(for blocks: [WorkoutBlock], shown: ShownPrescriptions, roles: [String: [String]] = [:]) -> CompactVariant? {
        let decided = context.rules.compact
        let rules = decided.value
        let exercises = context.catalog.exercises
        var chosen: [(muscle: String, position: Int)] = []
        var used: [Int] = []
        var seenMuscles: [String] = []
        for block in blocks where block.kind == .strength && !seenMuscles.contains(block.muscle) {
            seenMuscles.append(block.muscle)
            guard let planned = context.catalog.position(of: block.exerciseId) else { continue }
            let position = exercises[planned].supersetSafe ? planned : alternative(to: planned, muscle: block.muscle, excluding: used, role: roles[block.muscle])
            guard let position, !used.contains(position) else { continue }
            used.append(position)
            chosen.append((block.muscle, position))
        }

        let facts = context.index.facts
        var groups: [[(muscle: String, position: Int)]] = []
        for item in chosen {
            let muscles = facts[item.position].muscles
            if let last = groups.indices.last, groups[last].count < rules.groupSize,
               !groups[last].contains(where: { member in facts[member.position].muscles.contains { muscles.contains($0) } }) {
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
            let work = group.reduce(0) { $0 + exercises[$1.position].setSeconds }
            let seconds = rules.rounds * (work + (group.count - 1) * rules.transitionSeconds + rules.restBetweenRoundsSeconds)
            guard total + seconds <= rules.maxMinutes * 60 else {
                omitted.append(contentsOf: group.map(\.muscle))
                continue
            }
            total += seconds
            let label = kept.count < labels.count ? String(labels[kept.count]) : "G\(kept.count + 1)"
            kept.append(CompactVariant.Group(
                label: label, rounds: rules.rounds,
                blocks: group.map { compactBlock(exercises[$0.position], muscle: $0.muscle, rounds: rules.rounds, shown: shown) },
                estimatedSeconds: seconds))
        }
        guard !kept.isEmpty else { return nil }
        return CompactVariant(groups: kept, estimatedMinutes: (total + 59) / 60, omittedMuscles: omitted, source: decided.source)
    }

    private func alternative(to planned: Int, muscle: String, excluding used: [Int], role: [String]?) -> Int? {
        let exercises = context.catalog.exercises
        let pool = context.index.muscleId(muscle).map { context.safeCandidates[$0] } ?? []
        let candidates = pool.filter { exercises[$0].supersetSafe && !used.contains($0) && (role?.contains(exercises[$0].pattern) ?? true) }
        return candidates.first { exercises[$0].pattern == exercises[planned].pattern }
            ?? candidates.first { exercises[$0].movement == exercises[planned].movement }
            ?? candidates.first
    }

    private func compactBlock(_ exercise: Exercise, muscle: String, rounds: Int, shown: ShownPrescriptions) -> WorkoutBlock {
        let prescription = shown[exercise.movement]
        return WorkoutBlock(
            muscle: muscle, exerciseId: exercise.id, exerciseName: exercise.name, sets: rounds,
            reps: exercise.hold.map(RangeText.hold) ?? prescription.reps,
            rir: exercise.hold == nil ? prescription.rir : nil, altCompact: true, movement: exercise.movement, kind: exercise.kind,
            sources: [context.rules.compact.source], notes: [])
    }
}
