import OrderedCollections
import RegimenLanguage

/// What a plan carries between adaptations under its `adaptation` key: the baseline it returns
/// to, the changes in effect with their ends, the weigh-ins of the trend window and the day
/// training started.
///
/// ```yaml
/// adaptation:
///   start_date: 2026-03-02
///   baseline:                  # each block as planned plus what persistent changes earned
///     blocks: [{workout: 0, block: 1, sets: 3, reps: 8–12, rir: 1–3}]
///   adjustments:               # changes in effect, each with its end
///     - {rule: low_readiness_week, lasts: until_readiness_recovers, week: 2, line: "Weekly sets -10% (…)",
///        blocks: [{workout: 0, block: 1, sets: -1, rir: 1–3}], rir_floor: 2}
///   weigh_ins: [{date: 2026-03-02, kg: 78.4}]
///   last_kcal_change: {week: 2, date: 2026-03-08}
/// ```
struct AdaptationState: Sendable, Hashable {
    /// One block as the plan stands without temporary changes.
    struct BlockBaseline: Sendable, Hashable {
        var workout: Int
        var block: Int
        var sets: Int
        var reps: PlanRange?
        var rir: PlanRange?
    }

    /// What one temporary change did to one block: sets moved by `sets`, RIR was `rir` before.
    struct BlockChange: Sendable, Hashable {
        var workout: Int
        var block: Int
        var sets: Int
        var rir: PlanRange?
    }

    /// A change in effect until its end.
    struct Adjustment: Sendable, Hashable {
        var rule: String
        var lasts: AdjustmentLifetime
        var week: Int?
        var line: String
        var blocks: [BlockChange]
        /// The RIR floor it set, if any (re-applied when another change ending restores RIR).
        var rirFloor: Int?
        /// It made the week a deload week.
        var deload: Bool
    }

    struct WeighIn: Sendable, Hashable {
        var date: CalendarDay
        var kg: Double
    }

    var startDate: CalendarDay?
    var baseline: [BlockBaseline] = []
    var adjustments: [Adjustment] = []
    var weighIns: [WeighIn] = []
    /// The last calorie change: its week and the latest check-in date of its request.
    var lastKcalChange: (week: Int?, date: CalendarDay?)?

    static func == (a: AdaptationState, b: AdaptationState) -> Bool {
        a.startDate == b.startDate && a.baseline == b.baseline && a.adjustments == b.adjustments && a.weighIns == b.weighIns
            && a.lastKcalChange?.week == b.lastKcalChange?.week && a.lastKcalChange?.date == b.lastKcalChange?.date
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(startDate)
        hasher.combine(baseline)
        hasher.combine(adjustments)
        hasher.combine(weighIns)
    }

    init() {}

    /// Limits of what a stored state may hold: a hand-edited plan cannot make adaptation loop long.
    static let limits = (blocks: 2_000, adjustments: 200, weighIns: 400)

    /// Reads the plan's `adaptation` value; entries that are not what `adapt` writes are dropped
    /// (the state is adaptation's bookkeeping, not the plan).
    init(value: Value?) {
        guard let value, case .map(let map) = value else { return }
        startDate = map["start_date"]?.stringValue.flatMap(CalendarDay.init)
        func index(_ v: Value?) -> Int? { v?.intValue.flatMap { (0...10_000).contains($0) ? Int($0) : nil } }
        func range(_ v: Value?) -> PlanRange? { v?.stringValue.flatMap(PlanRange.init(text:)) }
        baseline = (map["baseline"]?["blocks"]?.listValue ?? []).prefix(Self.limits.blocks).compactMap { entry in
            guard let w = index(entry["workout"]), let b = index(entry["block"]), let sets = index(entry["sets"]), sets <= 100 else { return nil }
            return BlockBaseline(workout: w, block: b, sets: sets, reps: range(entry["reps"]), rir: range(entry["rir"]))
        }
        adjustments = (map["adjustments"]?.listValue ?? []).prefix(Self.limits.adjustments).compactMap { entry in
            guard let rule = entry["rule"]?.stringValue, let lasts = entry["lasts"]?.stringValue.flatMap(AdjustmentLifetime.init(rawValue:)) else { return nil }
            let blocks: [BlockChange] = (entry["blocks"]?.listValue ?? []).prefix(Self.limits.blocks).compactMap { block in
                guard let w = index(block["workout"]), let b = index(block["block"]), let sets = block["sets"]?.intValue, (-100...100).contains(sets) else { return nil }
                return BlockChange(workout: w, block: b, sets: Int(sets), rir: range(block["rir"]))
            }
            let floor = entry["rir_floor"]?.intValue.flatMap { (0...10).contains($0) ? Int($0) : nil }
            return Adjustment(rule: rule, lasts: lasts, week: index(entry["week"]), line: entry["line"]?.stringValue ?? rule,
                              blocks: blocks, rirFloor: floor, deload: entry["deload"]?.boolValue ?? false)
        }
        weighIns = (map["weigh_ins"]?.listValue ?? []).prefix(Self.limits.weighIns).compactMap { entry in
            guard let day = entry["date"]?.stringValue.flatMap(CalendarDay.init), let kg = entry["kg"]?.numberValue, (20...400).contains(kg) else { return nil }
            return WeighIn(date: day, kg: kg)
        }
        if let change = map["last_kcal_change"], case .map = change {
            lastKcalChange = (index(change["week"]), change["date"]?.stringValue.flatMap(CalendarDay.init))
        }
    }

    var isEmpty: Bool { startDate == nil && baseline.isEmpty && adjustments.isEmpty && weighIns.isEmpty && lastKcalChange == nil }

    /// The state as the plan stores it.
    var value: Value {
        var map: OrderedDictionary<String, Value> = [:]
        if let startDate { map["start_date"] = .string(startDate.description) }
        map["baseline"] = .map(["blocks": .list(baseline.map { block in
            var entry: OrderedDictionary<String, Value> = [
                "workout": .int(Int64(block.workout)), "block": .int(Int64(block.block)), "sets": .int(Int64(block.sets)),
            ]
            if let reps = block.reps { entry["reps"] = .string(reps.description) }
            if let rir = block.rir { entry["rir"] = .string(rir.description) }
            return .map(entry)
        })])
        map["adjustments"] = .list(adjustments.map { adjustment in
            var entry: OrderedDictionary<String, Value> = ["rule": .string(adjustment.rule), "lasts": .string(adjustment.lasts.rawValue)]
            if let week = adjustment.week { entry["week"] = .int(Int64(week)) }
            entry["line"] = .string(adjustment.line)
            entry["blocks"] = .list(adjustment.blocks.map { block in
                var b: OrderedDictionary<String, Value> = [
                    "workout": .int(Int64(block.workout)), "block": .int(Int64(block.block)), "sets": .int(Int64(block.sets)),
                ]
                if let rir = block.rir { b["rir"] = .string(rir.description) }
                return .map(b)
            })
            if let floor = adjustment.rirFloor { entry["rir_floor"] = .int(Int64(floor)) }
            if adjustment.deload { entry["deload"] = .bool(true) }
            return .map(entry)
        })
        map["weigh_ins"] = .list(weighIns.map { .map(["date": .string($0.date.description), "kg": ValueNumber.value($0.kg)]) })
        if let change = lastKcalChange {
            var entry: OrderedDictionary<String, Value> = [:]
            if let week = change.week { entry["week"] = .int(Int64(week)) }
            if let date = change.date { entry["date"] = .string(date.description) }
            map["last_kcal_change"] = .map(entry)
        }
        return .map(map)
    }

    /// The baseline of the block at `workout`/`block`.
    func baseline(workout: Int, block: Int) -> BlockBaseline? {
        baseline.first { $0.workout == workout && $0.block == block }
    }
}
