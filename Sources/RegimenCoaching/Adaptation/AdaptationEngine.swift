import Foundation
import OrderedCollections
import RegimenLanguage

/// What adaptation needs to know about an exercise (from `catalogs/exercises.yaml`).
public struct ExerciseFacts: Sendable, Hashable {
    public var name: String
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]
    public var equipment: [String]
    /// Easier variants, best first.
    public var regressions: [String]
    /// Harder variants, next step first.
    public var progressions: [String]

    public init(
        name: String, primaryMuscles: [String], secondaryMuscles: [String] = [], equipment: [String] = [], regressions: [String] = [],
        progressions: [String] = []
    ) {
        self.name = name
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.regressions = regressions
        self.progressions = progressions
    }
}

/// The adaptation engine behind `adaptPlan`: applies the readiness and progression rules to a
/// plan and writes a change log (docs/requirements.md#readiness-adaptation and #progression).
/// Pure: the same plan and input give the same result.
///
/// Rules are checked against the plan as it came in; the changes are then applied in rule order
/// (readiness rules, then progression rules), each within the plan's bands: an increase never
/// takes a muscle's counted weekly sets above its band's top, a cut may go below its bottom and
/// says so.
public struct AdaptationEngine: Sendable {
    public let readiness: ReadinessRules
    public let progression: ProgressionRules
    /// Exercise id → facts; exercises not listed count only for their block's muscle.
    public let exercises: [String: ExerciseFacts]
    /// How a set counts toward a muscle's weekly sets (`set_credit` of rules/training-volume.yaml),
    /// so that adaptation counts exactly as the plan did.
    public let setCredit: TrainingRules.SetCredit

    public init(
        readiness: ReadinessRules, progression: ProgressionRules, exercises: [String: ExerciseFacts] = [:],
        setCredit: TrainingRules.SetCredit = TrainingRules.SetCredit(direct: 1, indirect: 0.5)
    ) {
        self.readiness = readiness
        self.progression = progression
        self.exercises = exercises
        self.setCredit = setCredit
    }

    /// Adapts `plan` (a `regimen plan` document) to `input`.
    /// - Throws: ``AdaptationInputError`` listing every problem of the plan or the input.
    public func adapt(plan document: Value, input: AdaptationInput) throws(AdaptationInputError) -> AdaptationResult {
        let plan = try PlanView(document: document)
        try validate(input, plan: plan)
        let fingerprint = EvidenceKey.fingerprint(input)
        if plan.adaptations.contains(where: { $0.fingerprint == fingerprint }) {
            // The same request again: applying it twice would compound every cut.
            return AdaptationResult(patchedPlan: document, changeLog: [], warnings: [],
                                    notes: ["this request (\(Self.describe(input))) was already applied to the plan; nothing changed"])
        }
        // A deload lasts its week: the week after, the plan trains as before the deload again.
        var start = plan
        let ended = endDeload(&start, week: input.week ?? 1)
        var run = AdaptationRun(engine: self, plan: start, input: input)
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
            fingerprint: fingerprint, deloadWeek: run.deloaded ? input.week ?? 1 : nil, applied: run.applied,
            beforeDeload: run.deloaded ? start.allBlocks.map { .init(workout: $0.workout, block: $0.block, sets: $0.sets, rir: $0.rir?.description) } : [])
        // A run that changed nothing leaves the plan as it was (nothing to protect from repeating).
        let patched = run.plan.patchedDocument(setChanges: changes)
        return AdaptationResult(patchedPlan: patched == document ? document : run.plan.patchedDocument(setChanges: changes, record: record), changeLog: run.log,
                                warnings: run.warnings, notes: run.notes)
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

    /// Two check-ins of one date would count one day twice (two low days from one bad night):
    /// each date may appear once.
    func duplicateDateProblems(_ input: AdaptationInput) -> [String] {
        var firstIndex: [String: Int] = [:]
        var problems: [String] = []
        for (i, checkIn) in input.checkIns.enumerated() {
            guard let date = checkIn.date else { continue }
            if let first = firstIndex[date] {
                problems.append("checkins[\(i)].date: \(date) is already the date of checkins[\(first)]; give one check-in per day")
            } else {
                firstIndex[date] = i
            }
        }
        return problems
    }

    /// Every problem of the input at once, each naming the field, the value and what is allowed.
    func validate(_ input: AdaptationInput, plan: PlanView) throws(AdaptationInputError) {
        var problems: [String] = []
        let muscles = Set(plan.allBlocks.map(\.muscle)).union(plan.bands.keys)
        // A check-in may name a region, or any muscle a region covers or the plan trains.
        let regionNames = readiness.regions.map(\.region)
        let soreNames = Set(regionNames).union(readiness.regions.flatMap(\.muscles)).union(muscles)
        for (i, checkIn) in input.checkIns.enumerated() {
            let path = "checkins[\(i)]"
            if let date = checkIn.date, CalendarDay(date) == nil {
                problems.append("\(path).date: '\(date)' is not a date written YYYY-MM-DD")
            }
            if !(0...24).contains(checkIn.sleepHours) || checkIn.sleepHours.isNaN {
                problems.append("\(path).sleep_h: \(ValueText.number(checkIn.sleepHours)) is outside 0–24 hours")
            }
            if !(1...5).contains(checkIn.stress) { problems.append("\(path).stress: \(checkIn.stress) is outside 1–5") }
            if !(1...5).contains(checkIn.motivation) { problems.append("\(path).motivation: \(checkIn.motivation) is outside 1–5") }
            for (region, level) in checkIn.soreness {
                if !(1...5).contains(level) { problems.append("\(path).soreness.\(region): \(level) is outside 1–5") }
                if !soreNames.contains(region) {
                    let known = (regionNames + soreNames.subtracting(regionNames).sorted()).joined(separator: ", ")
                    problems.append("\(path).soreness.\(region): unknown region; known regions: \(known)")
                }
            }
        }
        for (s, session) in input.sessions.enumerated() {
            let path = "sessions[\(s)]"
            if let date = session.date, CalendarDay(date) == nil {
                problems.append("\(path).date: '\(date)' is not a date written YYYY-MM-DD")
            }
            if let day = session.day, !plan.days.contains(where: { $0.day == day }) {
                problems.append("\(path).day: \(day) is not a day of the plan (\(plan.days.map { String($0.day) }.joined(separator: ", ")))")
            }
            for (e, exercise) in session.exercises.enumerated() {
                if exercise.sets.isEmpty { problems.append("\(path).exercises[\(e)].sets: at least one set is needed") }
                for (k, set) in exercise.sets.enumerated() {
                    let setPath = "\(path).exercises[\(e)].sets[\(k)]"
                    if set.reps < 0 || set.reps > 100 { problems.append("\(setPath).reps: \(set.reps) is outside 0–100") }
                    if let load = set.loadKg, !(0...1000).contains(load) { problems.append("\(setPath).load_kg: \(ValueText.number(load)) is outside 0–1000") }
                    if let rir = set.rir, !(0...10).contains(rir) { problems.append("\(setPath).rir: \(ValueText.number(rir)) is outside 0–10") }
                }
            }
        }
        if let adherence = input.adherencePct, !(0...100).contains(adherence) {
            problems.append("last_week_adherence_pct: \(ValueText.number(adherence)) is outside 0–100")
        }
        if let week = input.week, week < 1 { problems.append("week: \(week) must be 1 or more") }
        if let next = input.nextDay, !plan.days.contains(where: { $0.day == next }) {
            problems.append("next_day: \(next) is not a day of the plan")
        }
        problems += duplicateDateProblems(input)
        for muscle in input.laggingMuscles where !muscles.contains(muscle) {
            problems.append("lagging_muscles: '\(muscle)' is not a muscle of the plan")
        }
        if !problems.isEmpty { throw AdaptationInputError(problems) }
    }
}

/// A `YYYY-MM-DD` date as a day number, for "the last 7 days".
struct CalendarDay: Comparable, Hashable {
    let ordinal: Int

    /// Only a plain date (ten characters); the language's timestamp parser validates it.
    init?(_ text: String) {
        guard text.utf8.count == 10, let midnight = Timestamp(iso8601: text) else { return nil }
        ordinal = Int(midnight.seconds / 86_400)
    }

    static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.ordinal < rhs.ordinal }
}
