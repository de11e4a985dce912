import Foundation
import OrderedCollections
import RegimenLanguage

/// The adaptation engine behind `adaptPlan`: applies the readiness and progression rules to a
/// plan and writes a change log (docs/requirements.md#readiness-adaptation and #progression).
/// Pure: the same plan and input give the same result.
///
/// Rules are checked against the plan as it came in; the changes are then applied in rule order
/// (readiness rules, then progression rules), each within the plan's bands: an increase never
/// takes a muscle's counted weekly sets above its band's top, a cut may go below its bottom and
/// says so.
struct AdaptationEngine: Sendable {
    package let readiness: ReadinessRules
    let progression: ProgressionRules
    /// Exercise id → facts; exercises not listed count only for their block's muscle.
    package let exercises: [String: ExerciseFacts]
    /// How a set counts toward a muscle's weekly sets (`set_credit` of rules/training-volume.yaml),
    /// so that adaptation counts exactly as the plan did.
    package let setCredit: TrainingRules.SetCredit
    /// The plans' one calorie precedence (rules/nutrition.yaml `calorie_precedence` and the goal
    /// bands): every calorie step goes through it. `nil` when adaptation runs without the
    /// nutrition rules; calorie steps are then not taken.
    let calories: CaloriePrecedence?
    /// The loads adaptation may write (rules/plausibility.yaml `plan.load_kg`, within what a plan
    /// document may hold): a step past it holds the load and says so.
    let loadLimit: ClosedRange<Double>

    init(
        readiness: ReadinessRules, progression: ProgressionRules, exercises: [String: ExerciseFacts] = [:],
        setCredit: TrainingRules.SetCredit, calories: CaloriePrecedence? = nil, loadLimit: ClosedRange<Double> = PlanView.plausible.loadKg
    ) {
        self.calories = calories
        self.loadLimit = loadLimit
        self.readiness = readiness
        self.progression = progression
        self.exercises = exercises
        self.setCredit = setCredit
    }

    /// Adapts `plan` (a `regimen plan` document) to `input`.
    /// - Throws: ``AdaptationInputError`` listing every problem of the plan or the input.
    package func adapt(plan document: Value, input: AdaptationInput) throws(AdaptationInputError) -> AdaptationResult {
        let plan = try PlanView(document: document)
        try validate(input, plan: plan)
        let fingerprint = EvidenceKey.fingerprint(input)
        if plan.adaptations.contains(where: { $0.fingerprint == fingerprint }) {
            // The same request again: applying it twice would compound every cut.
            return AdaptationResult(patchedPlan: document, changeLog: [], warnings: [],
                                    notes: ["this request (\(Self.describe(input))) was already applied to the plan; nothing changed"])
        }
        var input = input
        let weekCounted = input.week == nil
        if weekCounted { input.week = Self.derivedWeek(input, plan: plan) }
        try refuseStale(input, plan: plan)
        // A deload of a plan adapted before deloads had ends lasts its week (its record keeps
        // the blocks from before it).
        var start = plan
        let ended = endDeload(&start, week: input.week ?? 1)
        var run = AdaptationRun(engine: self, plan: start, input: input)
        if run.state.startDate == nil {
            run.state.startDate = input.startDate.flatMap(CalendarDay.init) ?? input.checkIns.compactMap { $0.date.flatMap(CalendarDay.init) }.min()
        }
        run.recordWeighIns()
        if let ended { run.log.append(ended) }
        run.apply()
        let before = AdaptationRun.countedSets(plan, self)
        let after = AdaptationRun.countedSets(run.plan, self)
        let partsBefore = AdaptationRun.setParts(plan, self)
        let partsAfter = AdaptationRun.setParts(run.plan, self)
        var changes: [String: PlanView.SetChange] = [:]
        for muscle in Set(before.keys).union(after.keys) where (after[muscle] ?? 0) != (before[muscle] ?? 0) {
            changes[muscle] = PlanView.SetChange(
                planned: (after[muscle] ?? 0) - (before[muscle] ?? 0),
                direct: (partsAfter[muscle]?.direct ?? 0) - (partsBefore[muscle]?.direct ?? 0),
                indirect: (partsAfter[muscle]?.indirect ?? 0) - (partsBefore[muscle]?.indirect ?? 0))
        }
        let record = AdaptationRecord(
            week: input.week, checkins: input.checkIns.map(EvidenceKey.checkIn), sessions: input.sessions.map(EvidenceKey.session),
            fingerprint: fingerprint, deloadWeek: run.deloaded ? input.week ?? 1 : nil, applied: run.applied)
        // A run that changed nothing leaves the plan as it was (nothing to protect from repeating).
        let patched = run.plan.patchedDocument(setChanges: changes)
        // Bookkeeping alone (a first baseline) is no change; weigh-ins are (the trend needs them
        // next time), and so is a first start date when the week was counted from it: the deload
        // clock counts the next request's week from it (without it a run of quiet weeks with no
        // `week:` never reached its scheduled deload).
        let startRecorded = weekCounted && run.state.startDate != plan.state.startDate
        let unchanged = patched == document && !startRecorded && run.state.adjustments == plan.state.adjustments
            && run.state.weighIns == plan.state.weighIns && run.state.lastKcalChange?.week == plan.state.lastKcalChange?.week
            && run.state.lastKcalChange?.date == plan.state.lastKcalChange?.date
        return AdaptationResult(
            patchedPlan: unchanged ? document : run.plan.patchedDocument(
                setChanges: changes, record: record, keptRecords: keptRecords(week: input.week, latest: Self.latestDate(input)), state: run.state),
            changeLog: run.log, warnings: run.warnings, notes: run.notes)
    }

    /// When `plan` is a deload week that an earlier adaptation made and `week` is a later week,
    /// restores every block's sets and RIR from before the deload and returns the log entry.
    func endDeload(_ plan: inout PlanView, week: Int) -> ChangeLogEntry? {
        guard plan.deload, let record = plan.adaptations.last(where: { $0.deloadWeek != nil }), let deloadWeek = record.deloadWeek,
              week > deloadWeek, !record.beforeDeload.isEmpty else { return nil }
        let before = plan.allBlocks.reduce(0) { $0 + $1.sets }
        for state in record.beforeDeload {
            for d in plan.days.indices {
                for b in plan.days[d].blocks.indices where plan.days[d].blocks[b].workout == state.workout && plan.days[d].blocks[b].block == state.block {
                    plan.days[d].blocks[b].sets = state.sets
                    if let rir = state.rir.flatMap(PlanRange.init(text:)) { plan.days[d].blocks[b].rir = rir }
                }
            }
        }
        plan.deload = false
        let after = plan.allBlocks.reduce(0) { $0 + $1.sets }
        let reason = "week \(week) follows the deload of week \(deloadWeek)"
        return ChangeLogEntry(rule: "deload_over", target: "week", field: "deload", before: .bool(true), after: .bool(false), reason: reason,
                              line: "Deload over: weekly sets \(before) → \(after), RIR as before (\(reason))")
    }

    /// `week 3, check-ins 2026-03-02 to 2026-03-06, 2 sessions`: a request as a note names it.
    static func describe(_ input: AdaptationInput) -> String {
        var parts: [String] = []
        if let week = input.week { parts.append("week \(week)") }
        let dates = input.checkIns.compactMap(\.date).sorted()
        if let first = dates.first, let last = dates.last {
            parts.append(first == last ? "check-in \(first)" : "check-ins \(first) to \(last)")
        } else if !input.checkIns.isEmpty {
            parts.append("\(input.checkIns.count) undated check-in\(input.checkIns.count == 1 ? "" : "s")")
        }
        if !input.sessions.isEmpty { parts.append("\(input.sessions.count) logged session\(input.sessions.count == 1 ? "" : "s")") }
        return parts.isEmpty ? "no check-ins" : parts.joined(separator: ", ")
    }
}
