import RegimenLanguage

/// The parts of a plan that are sequences (a day's workout blocks) compared by aligning them,
/// so a change is named where it is: a swapped exercise as that exercise in its block, a new
/// exercise as one added block, not as every later block of the day changed.
extension PlanFacts {
    /// One workout block as the client reads it.
    struct Block: Sendable, Hashable {
        var exerciseId: String
        var name: String
        /// `3 × 8–12`.
        var dose: String

        /// `Barbell bench press (barbell_bench_press) 3 × 8–12`.
        var text: String { "\(exercise) \(dose)" }
        /// `Barbell bench press (barbell_bench_press)`.
        var exercise: String { "\(name) (\(exerciseId))" }

        init(_ block: Value) {
            exerciseId = block["exerciseId"]?.stringValue ?? "?"
            name = block["name"]?.stringValue ?? exerciseId
            let sets = block["sets"]?.numberValue.map(NumberText.tenths) ?? "?"
            dose = "\(sets) × \(block["reps"]?.stringValue ?? "?")"
        }
    }

    /// One training day: `day 2 (Upper body)` and its blocks in order.
    struct Day: Sendable, Hashable {
        var name: String
        var blocks: [Block]
    }

    /// The training days of a plan, keyed by `day N` (a day is the same day in both plans when
    /// its number is: the split's own order).
    static func days(_ plan: Value) -> [(key: String, day: Day)] {
        var days: [(key: String, day: Day)] = []
        for workout in plan["workouts"]?.listValue ?? [] {
            let number = workout["day"]?.numberValue.map(NumberText.tenths) ?? "?"
            var key = "day \(number)"
            // A repeated day number (not written by the planner) stays a day of its own.
            while days.contains(where: { $0.key == key }) { key += "′" }
            let focus = workout["focus"]?.stringValue.map { " (\($0))" } ?? ""
            days.append((key, Day(name: key + focus, blocks: (workout["blocks"]?.listValue ?? []).map(Block.init))))
        }
        return days
    }

    /// Every block of both plans, day by day in the new plan's order (days only the base plan
    /// has come last), each day's blocks aligned by exercise id.
    static func blockRows(from before: [(key: String, day: Day)], to after: [(key: String, day: Day)]) -> [PlanImpact.BlockRow] {
        let afterKeys = Set(after.map(\.key))
        let pairs: [(old: Day?, new: Day?)] = after.map { entry in (before.first { $0.key == entry.key }?.day, entry.day) }
            + before.filter { !afterKeys.contains($0.key) }.map { ($0.day, nil) }
        var rows: [PlanImpact.BlockRow] = []
        for (oldDay, newDay) in pairs {
            let oldBlocks = oldDay?.blocks ?? [], newBlocks = newDay?.blocks ?? []
            func place(_ day: Day?, _ index: Int) -> String { "\(day?.name ?? "day ?") block \(index + 1)" }
            for step in SequenceAlignment.align(oldBlocks.map(\.exerciseId), newBlocks.map(\.exerciseId)) {
                switch step {
                case .kept(let b, let a), .replaced(let b, let a):
                    rows.append(PlanImpact.BlockRow(place: place(newDay, a), old: oldBlocks[b], new: newBlocks[a]))
                case .removed(let b):
                    rows.append(PlanImpact.BlockRow(place: place(oldDay, b), old: oldBlocks[b], new: nil))
                case .inserted(let a):
                    rows.append(PlanImpact.BlockRow(place: place(newDay, a), old: nil, new: newBlocks[a]))
                }
            }
        }
        return rows
    }

    /// The block changes, in plan order: an exercise swapped in its block (`day 2 (Upper body)
    /// block 3: Barbell bench press (barbell_bench_press) 3 × 8–12 → Dumbbell bench press
    /// (dumbbell_bench_press) 3 × 8–12`), the dose of the same exercise (`day 1 (Push) block 2,
    /// Push-up (push_up): 3 × 8–15 → 4 × 8–15`), a block added or dropped.
    static func blockChanges(_ rows: [PlanImpact.BlockRow]) -> [PlanImpact.Change] {
        rows.compactMap { row in
            switch (row.old, row.new) {
            case (let was?, let now?) where was == now:
                return nil
            case (let was?, let now?) where was.exerciseId == now.exerciseId && was.name == now.name:
                // The same exercise: its name goes with the place, the sides are its dose.
                return PlanImpact.Change(measure: "\(row.place), \(now.exercise)", before: was.dose, after: now.dose, percent: nil)
            default:
                return PlanImpact.Change(measure: row.place, before: row.before ?? "", after: row.after ?? "", percent: nil)
            }
        }
    }
}

extension PlanImpact {
    /// One block of either plan, placed by the alignment: `day 2 (Upper body) block 3`, one-based
    /// as the plan prints blocks (the new plan's place; a removed block's place in the base plan),
    /// and the block on each side (`nil` where it does not exist). The playground's compare table
    /// shows these rows, so it places blocks as the changes name them.
    package struct BlockRow: Sendable, Hashable {
        package var place: String
        var old: PlanFacts.Block?
        var new: PlanFacts.Block?
        /// The block in the base plan, as the client reads it.
        package var before: String? { old?.text }
        /// The block in the new plan, as the client reads it.
        package var after: String? { new?.text }
    }
}
