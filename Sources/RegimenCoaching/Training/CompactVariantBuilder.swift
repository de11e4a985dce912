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

        var omitted: [String] = []
        let groups = Self.grouped(chosen, size: rules.groupSize, facts: context.index.facts, omitted: &omitted)

        var total = rules.warmupSeconds
        var kept: [CompactVariant.Group] = []
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

    /// Supersets / giant sets of up to `size` exercises sharing no primary muscle, in order: each
    /// exercise joins the first group with room and no shared muscle. A superset holds two or more
    /// exercises, so an exercise left alone joins a group with room, else takes a member from a
    /// group of three or more that can spare one, else is left out (`omitted`); a lone exercise
    /// with no other group stays as straight sets.
    static func grouped(
        _ chosen: [(muscle: String, position: Int)], size: Int, facts: [CatalogIndex.Facts], omitted: inout [String]
    ) -> [[(muscle: String, position: Int)]] {
        typealias Item = (muscle: String, position: Int)
        func clashes(_ item: Item, _ group: [Item]) -> Bool {
            group.contains { member in facts[member.position].muscles.contains { facts[item.position].muscles.contains($0) } }
        }
        var groups: [[Item]] = []
        for item in chosen {
            if let open = groups.firstIndex(where: { $0.count < size && !clashes(item, $0) }) {
                groups[open].append(item)
            } else {
                groups.append([item])
            }
        }
        var index = 0
        while index < groups.count {
            guard groups[index].count < 2, let alone = groups[index].first else {
                index += 1
                continue
            }
            let others = groups.indices.filter { $0 != index }
            if let host = others.first(where: { groups[$0].count >= 2 && groups[$0].count < size && !clashes(alone, groups[$0]) }) {
                groups[host].append(alone)
                groups.remove(at: index)
            } else if let donor = others.first(where: { groups[$0].count > 2 }),
                      let member = groups[donor].lastIndex(where: { !clashes($0, [alone]) }) {
                groups[index].append(groups[donor].remove(at: member))
                index += 1
            } else if groups.count == 1 {
                // Nothing to pair with at all: the one exercise stays as straight sets
                // (`kind: straight_sets`) rather than leaving the busy day empty.
                index += 1
            } else {
                omitted.append(alone.muscle)
                groups.remove(at: index)
            }
        }
        return groups
    }

    private func alternative(to planned: Int, muscle: String, excluding used: [Int], role: [String]?) -> Int? {
        let exercises = context.catalog.exercises
        let pool = context.index.muscleId(muscle).map { context.safeCandidates[$0] } ?? []
        let choice = context.rules.exerciseChoice
        let safe = pool.filter { exercises[$0].supersetSafe && !used.contains($0) && (role?.contains(exercises[$0].pattern) ?? true) }
        // Loaded before bodyweight-only here too (`exercise_choice`), core excepted; the sort is stable.
        let candidates = choice.bodyweightMuscles.contains(muscle) ? safe
            : safe.filter { !choice.isBodyweightOnly(exercises[$0]) } + safe.filter { choice.isBodyweightOnly(exercises[$0]) }
        return candidates.first { exercises[$0].pattern == exercises[planned].pattern }
            ?? candidates.first { exercises[$0].movement == exercises[planned].movement }
            ?? candidates.first
    }

    private func compactBlock(_ exercise: Exercise, muscle: String, rounds: Int, shown: ShownPrescriptions) -> WorkoutBlock {
        let prescription = shown[exercise.movement]
        return WorkoutBlock(
            muscle: muscle, exerciseId: exercise.id, exerciseName: exercise.name, sets: rounds,
            reps: shown.reps(for: exercise, muscle: muscle, rules: context.rules.exerciseChoice),
            rir: exercise.hold == nil ? prescription.rir : nil, altCompact: true, movement: exercise.movement, kind: exercise.kind,
            sources: [context.rules.compact.source], notes: [])
    }
}
