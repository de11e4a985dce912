import OrderedCollections
import RegimenLanguage

/// The ends of changes: each adaptation first gives the plan back what ended changes took, and
/// records the temporary changes it makes with their ends (see ``AdjustmentLifetime``).
extension AdaptationRun {
    /// One block's sets and RIR, to see what a rule changed.
    struct BlockSnapshot: Equatable {
        var sets: Int
        var rir: PlanRange?
        var reps: PlanRange?
        var exerciseId: String
    }

    func snapshot() -> [BlockKey: BlockSnapshot] {
        var out: [BlockKey: BlockSnapshot] = [:]
        for block in plan.allBlocks {
            out[BlockKey(workout: block.workout, block: block.block)] = BlockSnapshot(sets: block.sets, rir: block.rir, reps: block.reps, exerciseId: block.exerciseId)
        }
        return out
    }

    /// Every block as it is now, as the baseline of a plan adapted the first time.
    static func initialBaseline(_ plan: PlanView) -> [AdaptationState.BlockBaseline] {
        plan.allBlocks.map { .init(workout: $0.workout, block: $0.block, sets: $0.sets, reps: $0.reps, rir: $0.rir) }
    }

    /// Ends the adjustments whose time is over, restoring what they took, each with a log line.
    mutating func endAdjustments(week: [String: Value]) {
        guard !state.adjustments.isEmpty else { return }
        let requestWeek = input.week
        var recovered: Bool?
        var kept: [AdaptationState.Adjustment] = []
        var ended: [(AdaptationState.Adjustment, String)] = []
        for adjustment in state.adjustments {
            let why: String?
            switch adjustment.lasts {
            case .persistent:
                why = nil
            case .nextSession:
                why = "the next session is done"
            case .thisWeek:
                if let made = adjustment.week, let now = requestWeek, now <= made {
                    why = nil
                } else {
                    why = adjustment.week.map { "week \($0) is over" } ?? "its week is over"
                }
            case .untilReadinessRecovers:
                if recovered == nil { recovered = readinessRecovered(week) }
                if recovered == true {
                    let mean = week[AdaptationVariables.meanReadiness.name]?.numberValue
                    why = "readiness back to \(mean.map { ValueText.number($0, decimals: 1) } ?? "normal")"
                } else {
                    why = nil
                }
            }
            if let why { ended.append((adjustment, why)) } else { kept.append(adjustment) }
        }
        guard !ended.isEmpty else { return }
        state.adjustments = kept
        for (adjustment, why) in ended.reversed() {
            let before = plan.allBlocks.reduce(0) { $0 + $1.sets }
            var details: [Value] = []
            for change in adjustment.blocks {
                guard let block = plan.allBlocks.first(where: { $0.workout == change.workout && $0.block == change.block }) else { continue }
                let restoredSets = max(0, min(Int(PlanView.plausible.sets.upperBound), block.sets - change.sets))
                // RIR goes back to the baseline's (under the floors of changes still in effect,
                // applied below), not to what it was when this change was made: another change
                // in effect then may have ended since.
                let restoredRIR = change.rir.map { state.baseline(workout: change.workout, block: change.block)?.rir ?? $0 }
                update(block) { entry in
                    entry.sets = restoredSets
                    if let restoredRIR { entry.rir = restoredRIR }
                }
                if restoredSets != block.sets || (change.rir != nil && change.rir != block.rir) {
                    details.append(.map(["workout": .int(Int64(change.workout)), "block": .int(Int64(change.block)), "exerciseId": .string(block.exerciseId),
                                         "before": .int(Int64(block.sets)), "after": .int(Int64(restoredSets))]))
                }
            }
            if adjustment.deload, !kept.contains(where: \.deload) { plan.deload = false }
            let after = plan.allBlocks.reduce(0) { $0 + $1.sets }
            let line: String
            if adjustment.deload {
                let because = (adjustment.week.flatMap { made in requestWeek.map { "week \($0) follows the deload of week \(made)" } }) ?? why
                line = "Deload over: weekly sets \(before) → \(after), RIR as before (\(because))"
            } else {
                let sets = before != after ? "weekly sets \(before) → \(after); " : ""
                line = "\(Self.restoredWhat(adjustment)): \(why) (\(sets)was “\(adjustment.line)”)"
            }
            log.append(ChangeLogEntry(rule: adjustment.deload ? "deload_over" : "adjustment_ended", target: adjustment.rule, field: "adjustment",
                                      before: .string(adjustment.lasts.rawValue), after: .null, reason: why, line: line, details: details))
        }
        // A change still in effect keeps its RIR floor, whatever an ended one restored.
        for floor in kept.compactMap(\.rirFloor) {
            for block in plan.allBlocks {
                guard let rir = block.rir, rir.lower < floor else { continue }
                update(block) { $0.rir = PlanRange(floor, max(rir.upper, floor), dash: rir.dash) }
            }
        }
    }

    /// `Weekly sets restored`, `Sets restored`, `RIR restored`: what ending the change gives back.
    static func restoredWhat(_ adjustment: AdaptationState.Adjustment) -> String {
        let sets = adjustment.blocks.contains { $0.sets != 0 }
        let rir = adjustment.rirFloor != nil
        let scope = adjustment.blocks.count > 3 ? "Weekly sets" : "Sets"
        switch (sets, rir) {
        case (true, true): return "\(scope) and RIR restored"
        case (true, false): return "\(scope) restored"
        case (false, true): return "RIR restored"
        case (false, false): return "Change ended"
        }
    }

    /// Whether the rules' `adjustments.recovered` holds for the week (no rule: it does).
    mutating func readinessRecovered(_ week: [String: Value]) -> Bool {
        guard let policy = readiness.adjustments else { return true }
        do {
            return try policy.recovered.evaluate(week).boolValue ?? false
        } catch {
            warnings.append("adjustments.recovered: \(error.message); changes until readiness recovers stay")
            return false
        }
    }

    /// An adjustment of `rule` still in effect (made by an earlier adaptation).
    func activeAdjustment(of rule: AdaptationRule) -> AdaptationState.Adjustment? {
        guard rule.lasts != .persistent else { return nil }
        return state.adjustments.first { $0.rule == rule.id }
    }

    /// After a rule changed the plan: a temporary change becomes an adjustment with its end; a
    /// persistent one moves the baseline with it.
    mutating func account(_ firing: Firing, before: [BlockKey: BlockSnapshot], logStart: Int, rirFloor: Int?) {
        let after = snapshot()
        var changes: [AdaptationState.BlockChange] = []
        for (key, old) in before.sorted(by: { $0.key < $1.key }) {
            guard let new = after[key], new != old else { continue }
            if firing.rule.lasts == .persistent {
                if let index = state.baseline.firstIndex(where: { $0.workout == key.workout && $0.block == key.block }) {
                    state.baseline[index].sets = max(0, state.baseline[index].sets + new.sets - old.sets)
                    if new.reps != old.reps && !extendedBlocks.contains(key) { state.baseline[index].reps = new.reps }
                }
            } else {
                changes.append(.init(workout: key.workout, block: key.block, sets: new.sets - old.sets, rir: new.rir != old.rir ? old.rir : nil))
            }
        }
        guard firing.rule.lasts != .persistent, !changes.isEmpty || plan.deload != original.deload else { return }
        let lines = log[logStart...].map(\.line)
        state.adjustments.append(.init(
            rule: firing.rule.id, lasts: firing.rule.lasts, week: input.week, line: lines.first ?? firing.rule.id,
            blocks: changes, rirFloor: rirFloor, deload: firing.rule.actions.deload && deloaded))
    }
}

/// A block's place in the plan document.
struct BlockKey: Hashable, Comparable {
    let workout: Int
    let block: Int

    static func < (a: BlockKey, b: BlockKey) -> Bool { (a.workout, a.block) < (b.workout, b.block) }
}
