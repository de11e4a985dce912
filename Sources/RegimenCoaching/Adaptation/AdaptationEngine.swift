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

    public init(name: String, primaryMuscles: [String], secondaryMuscles: [String] = [], equipment: [String] = [], regressions: [String] = []) {
        self.name = name
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.regressions = regressions
    }
}

/// The adaptation engine (seed 003 §4, §3.4, §8.3 `adaptPlan`): applies the readiness and
/// progression rules to a plan and writes a change log. Pure: the same plan and input give the
/// same result.
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
    /// The share of a set a secondary muscle counts toward its weekly sets.
    public let secondaryFraction: Double

    public init(readiness: ReadinessRules, progression: ProgressionRules, exercises: [String: ExerciseFacts] = [:], secondaryFraction: Double = 0.5) {
        self.readiness = readiness
        self.progression = progression
        self.exercises = exercises
        self.secondaryFraction = secondaryFraction
    }

    /// Adapts `plan` (a `regimen plan` document) to `input`.
    /// - Throws: ``AdaptationInputError`` listing every problem of the plan or the input.
    public func adapt(plan document: Value, input: AdaptationInput) throws(AdaptationInputError) -> AdaptationResult {
        let plan = try PlanView(document: document)
        try validate(input, plan: plan)
        var run = AdaptationRun(engine: self, plan: plan, input: input)
        run.apply()
        let before = AdaptationRun.countedSets(plan, self)
        let after = AdaptationRun.countedSets(run.plan, self)
        var changes: [String: Double] = [:]
        for muscle in Set(before.keys).union(after.keys) where (after[muscle] ?? 0) != (before[muscle] ?? 0) {
            changes[muscle] = (after[muscle] ?? 0) - (before[muscle] ?? 0)
        }
        return AdaptationResult(patchedPlan: run.plan.patchedDocument(setChanges: changes), changeLog: run.log, warnings: run.warnings)
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

/// One adaptation in progress: the plan being patched, the log, and what has changed so far.
struct AdaptationRun {
    let engine: AdaptationEngine
    let original: PlanView
    let input: AdaptationInput
    var plan: PlanView
    var log: [ChangeLogEntry] = []
    var warnings: [String] = []
    /// Lifts whose load a rule already changed (one load change per lift per adaptation).
    var loadChanged: Set<String> = []

    private var readiness: ReadinessRules { engine.readiness }

    init(engine: AdaptationEngine, plan: PlanView, input: AdaptationInput) {
        self.engine = engine
        self.original = plan
        self.plan = plan
        self.input = input
    }

    // MARK: - Firing

    /// A rule that fired for one instance (the week, a region, a lift).
    struct Firing {
        let rule: AdaptationRule
        let bindings: [String: Value]
        /// The region or the logged lift the instance is about.
        let region: String?
        let lift: LiftLog?
    }

    /// The latest logged occurrence of one exercise, with the plan block that prescribed it.
    struct LiftLog {
        let exercise: LoggedExercise
        let sessionDay: Int?
        let prescription: PlanView.Block
    }

    mutating func apply() {
        let week = weekBindings()
        var firings: [Firing] = []
        for rule in readiness.rules {
            firings += fire(rule, week: week)
        }
        // Progression: the first rule that holds for a lift is the one that applies.
        for lift in loggedLifts() {
            let bindings = liftBindings(lift, week: week)
            for rule in engine.progression.rules where holds(rule, bindings, about: lift.exercise.exerciseId) {
                firings.append(Firing(rule: rule, bindings: bindings, region: nil, lift: lift))
                break
            }
        }
        var superseded: Set<String> = []
        for firing in firings where !superseded.contains(firing.rule.id) {
            superseded.formUnion(firing.rule.supersedes)
        }
        for firing in firings where !superseded.contains(firing.rule.id) {
            perform(firing, week: week)
        }
    }

    private mutating func fire(_ rule: AdaptationRule, week: [String: Value]) -> [Firing] {
        switch rule.scope {
        case .week:
            return holds(rule, week, about: nil) ? [Firing(rule: rule, bindings: week, region: nil, lift: nil)] : []
        case .soreRegion:
            guard let latest = latestCheckIn() else { return [] }
            var out: [Firing] = []
            for (region, level) in latest.soreness.sorted(by: { $0.key < $1.key }) {
                var bindings = week
                bindings["region"] = .string(region)
                bindings["soreness"] = .int(Int64(level))
                if holds(rule, bindings, about: region) { out.append(Firing(rule: rule, bindings: bindings, region: region, lift: nil)) }
            }
            return out
        case .loggedExercise:
            return loggedLifts().compactMap { lift in
                let bindings = liftBindings(lift, week: week)
                return holds(rule, bindings, about: lift.exercise.exerciseId) ? Firing(rule: rule, bindings: bindings, region: nil, lift: lift) : nil
            }
        }
    }

    /// Whether the rule's condition is true; an error is a warning and the rule does not fire
    /// (adaptation fails safe: no change).
    private mutating func holds(_ rule: AdaptationRule, _ bindings: [String: Value], about subject: String?) -> Bool {
        do {
            let value = try rule.condition.evaluate(bindings)
            if case .bool(let b) = value { return b }
            warnings.append("rule '\(rule.id)'\(subject.map { " (\($0))" } ?? ""): condition gave \(value.typeName), not bool; not applied")
        } catch {
            warnings.append("rule '\(rule.id)'\(subject.map { " (\($0))" } ?? ""): \(error.message); not applied")
        }
        return false
    }

    /// An amount expression's number; an error is a warning and the action is skipped.
    private mutating func amount(_ expression: CompiledExpression, _ rule: AdaptationRule, _ bindings: [String: Value]) -> Double? {
        do {
            let value = try expression.evaluate(bindings)
            if let number = value.numberValue, number.isFinite { return number }
            warnings.append("rule '\(rule.id)': amount gave \(value.typeName), not a number; not applied")
        } catch {
            warnings.append("rule '\(rule.id)': \(error.message); not applied")
        }
        return nil
    }

    // MARK: - Readiness facts

    struct ScoredCheckIn {
        let checkIn: CheckIn
        let day: CalendarDay?
        let readiness: Value
        let low: Bool
        let high: Bool
    }

    /// Check-ins in date order (undated ones after, in input order).
    private func orderedCheckIns() -> [CheckIn] {
        let indexed = input.checkIns.enumerated().map { ($0, $1, $1.date.flatMap(CalendarDay.init)) }
        return indexed.sorted { a, b in
            switch (a.2, b.2) {
            case (let x?, let y?): return x == y ? a.0 < b.0 : x < y
            case (nil, nil): return a.0 < b.0
            case (.some, nil): return true
            case (nil, .some): return false
            }
        }.map(\.1)
    }

    private func latestCheckIn() -> CheckIn? { orderedCheckIns().last }

    private mutating func scoredWeek() -> [ScoredCheckIn] {
        let ordered = orderedCheckIns()
        let latestDay = ordered.compactMap { $0.date.flatMap(CalendarDay.init) }.max()
        var out: [ScoredCheckIn] = []
        for checkIn in ordered {
            let day = checkIn.date.flatMap(CalendarDay.init)
            if let day, let latestDay, day.ordinal <= latestDay.ordinal - 7 { continue }
            let maxSoreness = checkIn.soreness.values.max() ?? 1
            let checkinValue: Value = .map([
                "date": checkIn.date.map(Value.string) ?? .null,
                "sleep_h": .float(checkIn.sleepHours),
                "stress": .int(Int64(checkIn.stress)),
                "motivation": .int(Int64(checkIn.motivation)),
                "soreness": .map(OrderedDictionary(uniqueKeysWithValues: checkIn.soreness.map { ($0.key, Value.int(Int64($0.value))) })),
                "max_soreness": .int(Int64(maxSoreness)),
            ])
            var bindings: [String: Value] = ["checkin": checkinValue]
            var score: Value = .null
            do {
                for binding in readiness.readinessLets {
                    bindings[binding.name] = try binding.expression.evaluate(bindings)
                }
                score = try readiness.readinessScore.evaluate(bindings)
            } catch {
                warnings.append("checkin_readiness\(checkIn.date.map { " (\($0))" } ?? ""): \(error.message); check-in not scored")
                continue
            }
            let dayBindings: [String: Value] = ["readiness": score, "checkin": checkinValue]
            let low = (try? readiness.lowDay.evaluate(dayBindings).boolValue) ?? nil
            let high = (try? readiness.highDay.evaluate(dayBindings).boolValue) ?? nil
            if low == nil || high == nil {
                warnings.append("low_day/high_day\(checkIn.date.map { " (\($0))" } ?? ""): did not give true or false; check-in not counted")
                continue
            }
            out.append(ScoredCheckIn(checkIn: checkIn, day: day, readiness: score, low: low ?? false, high: high ?? false))
        }
        return out
    }

    private mutating func weekBindings() -> [String: Value] {
        let scored = scoredWeek()
        let scores = scored.compactMap(\.readiness.numberValue)
        return [
            "checkin_days": .int(Int64(scored.count)),
            "low_days": .int(Int64(scored.filter(\.low).count)),
            "high_days": .int(Int64(scored.filter(\.high).count)),
            "latest_readiness": scored.last?.readiness ?? .null,
            "mean_readiness": scores.isEmpty ? .null : .float(scores.reduce(0, +) / Double(scores.count)),
            "week": .int(Int64(input.week ?? 1)),
            "weight_trend_2w": input.weightTrend.map { .string($0.rawValue) } ?? .null,
            "adherence_pct": input.adherencePct.map(Value.float) ?? .null,
            "kcal": original.kcal.map(Value.float) ?? .null,
            "bmr": original.bmr.map(Value.float) ?? .null,
        ]
    }

    // MARK: - Logged lifts

    /// The latest logged occurrence of each exercise that the plan prescribes, in log order.
    private mutating func loggedLifts() -> [LiftLog] {
        let sessions = input.sessions.enumerated().sorted { a, b in
            switch (a.element.date.flatMap(CalendarDay.init), b.element.date.flatMap(CalendarDay.init)) {
            case (let x?, let y?) where x != y: return x < y
            default: return a.offset < b.offset
            }
        }.map(\.element)
        var latest: OrderedDictionary<String, LiftLog> = [:]
        var missing: [String] = []
        for session in sessions {
            for exercise in session.exercises {
                let onDay = session.day.flatMap { day in original.days.first { $0.day == day }?.blocks.first { $0.exerciseId == exercise.exerciseId } }
                guard let block = onDay ?? original.allBlocks.first(where: { $0.exerciseId == exercise.exerciseId }) else {
                    if !missing.contains(exercise.exerciseId) { missing.append(exercise.exerciseId) }
                    continue
                }
                latest.removeValue(forKey: exercise.exerciseId)
                latest[exercise.exerciseId] = LiftLog(exercise: exercise, sessionDay: session.day, prescription: block)
            }
        }
        let note = missing.map { "logged exercise '\($0)' is not in the plan; no progression for it" }
        for line in note where !warnings.contains(line) { warnings.append(line) }
        return Array(latest.values)
    }

    private mutating func liftBindings(_ lift: LiftLog, week: [String: Value]) -> [String: Value] {
        let sets = lift.exercise.sets
        let block = lift.prescription
        let rirs = sets.compactMap(\.rir)
        let loads = sets.compactMap(\.loadKg)
        let minReps = sets.map(\.reps).min() ?? 0
        let counted = Self.countedSets(original, engine)
        let band = original.bands[block.muscle]
        var bindings = week
        bindings["exercise"] = .string(block.exerciseId)
        bindings["muscle"] = .string(block.muscle)
        bindings["reps_min"] = block.reps.map { .int(Int64($0.lower)) } ?? .null
        bindings["reps_max"] = block.reps.map { .int(Int64($0.upper)) } ?? .null
        bindings["rir_min"] = block.rir.map { .int(Int64($0.lower)) } ?? .null
        bindings["rir_max"] = block.rir.map { .int(Int64($0.upper)) } ?? .null
        bindings["sets_logged"] = .int(Int64(sets.count))
        bindings["min_reps"] = .int(Int64(minReps))
        bindings["min_rir"] = rirs.min().map(ValueNumber.value) ?? .null
        bindings["all_sets_at_top"] = .bool(block.reps.map { top in sets.allSatisfy { $0.reps >= top.upper } } ?? false)
        bindings["missed_reps"] = .bool(block.reps.map { range in sets.contains { $0.reps < range.lower } } ?? false)
        bindings["load_kg"] = loads.min().map(ValueNumber.value) ?? .null
        bindings["feel"] = lift.exercise.feel.map { .string($0.rawValue) } ?? .null
        let weekly = counted[block.muscle] ?? 0
        bindings["weekly_sets"] = ValueNumber.value(weekly)
        bindings["band_min"] = band.map { ValueNumber.value($0.lowerBound) } ?? .null
        bindings["band_max"] = band.map { ValueNumber.value($0.upperBound) } ?? .null
        var lagging = false
        if let band {
            let laggingBindings: [String: Value] = [
                "muscle": .string(block.muscle), "weekly_sets": ValueNumber.value(weekly),
                "band_min": ValueNumber.value(band.lowerBound), "band_max": ValueNumber.value(band.upperBound),
                "declared_lagging": .bool(input.laggingMuscles.contains(block.muscle)),
            ]
            do {
                lagging = try readiness.lagging.evaluate(laggingBindings).boolValue ?? false
            } catch {
                warnings.append("lagging (\(block.muscle)): \(error.message); treated as not lagging")
            }
        }
        bindings["lagging"] = .bool(lagging)
        return bindings
    }

    // MARK: - Volume accounting

    /// The muscles one set of `block` counts toward, with the share of a set each gets.
    static func contributions(of block: PlanView.Block, _ engine: AdaptationEngine) -> [(muscle: String, share: Double)] {
        guard let facts = engine.exercises[block.exerciseId] else { return [(block.muscle, 1)] }
        var out: [(String, Double)] = facts.primaryMuscles.map { ($0, 1) }
        if !facts.primaryMuscles.contains(block.muscle) { out.append((block.muscle, 1)) }
        out += facts.secondaryMuscles.filter { !facts.primaryMuscles.contains($0) && $0 != block.muscle }.map { ($0, engine.secondaryFraction) }
        return out
    }

    /// Counted weekly sets per muscle: full sets for primary muscles, the secondary share for others.
    static func countedSets(_ plan: PlanView, _ engine: AdaptationEngine) -> [String: Double] {
        var totals: [String: Double] = [:]
        for block in plan.allBlocks {
            for (muscle, share) in contributions(of: block, engine) { totals[muscle, default: 0] += Double(block.sets) * share }
        }
        return totals
    }

    /// Whether `extra` more sets of `block` keep every muscle it counts toward within its band's top.
    /// A muscle the plan gives no band cannot be raised: without a cap there is no safe increase.
    private func canAdd(_ extra: Int, to block: PlanView.Block) -> Bool {
        let counted = Self.countedSets(plan, engine)
        for (muscle, share) in Self.contributions(of: block, engine) where share > 0 {
            guard let band = plan.bands[muscle] else { return false }
            if (counted[muscle] ?? 0) + Double(extra) * share > band.upperBound + 1e-9 { return false }
        }
        return true
    }

    // MARK: - Actions

    private mutating func perform(_ firing: Firing, week: [String: Value]) {
        let rule = firing.rule
        let actions = rule.actions
        let reason = rule.reason.render(firing.bindings)
        if actions.deload && !plan.deload {
            plan.deload = true
            log.append(ChangeLogEntry(rule: rule.id, target: "week", field: "deload", before: .bool(false), after: .bool(true),
                                      reason: reason, line: "Deload week (\(reason))"))
        }
        if let expression = actions.weeklySetsPercent, let percent = amount(expression, rule, firing.bindings) {
            changeWeeklySets(by: percent, rule: rule, reason: reason)
        }
        if let expression = actions.rirFloor, let floor = amount(expression, rule, firing.bindings) {
            raiseRIRFloor(to: floor.saturatingInt(), rule: rule, reason: reason)
        }
        if let expression = actions.sets, let delta = amount(expression, rule, firing.bindings) {
            let sets = delta.saturatingInt()
            if let region = firing.region {
                changeRegionSets(region, by: sets, suggestRegression: actions.suggestRegression, rule: rule, reason: reason)
            } else if let lift = firing.lift {
                changeLiftSets(lift, by: sets, rule: rule, reason: reason)
            }
        }
        if let expression = actions.kcalPercent, let percent = amount(expression, rule, firing.bindings) {
            changeCalories(by: percent, rule: rule, reason: reason, week: week)
        }
        if let expression = actions.loadPercent, let percent = amount(expression, rule, firing.bindings), let lift = firing.lift {
            changeLoad(lift, by: percent, rule: rule, reason: reason)
        }
        if let expression = actions.laggingSet, let lift = firing.lift, let extra = amount(expression, rule, firing.bindings) {
            let sets = extra.saturatingInt()
            let lagging = firing.bindings["lagging"]?.boolValue ?? false
            if lagging, sets > 0, let target = nextOccurrence(of: lift), canAdd(sets, to: target) {
                changeLiftSets(lift, by: sets, rule: rule, reason: reason)
            } else if let otherwise = actions.otherwiseLoadPercent, let percent = amount(otherwise, rule, firing.bindings) {
                changeLoad(lift, by: percent, rule: rule, reason: reason)
            }
        }
        if let note = actions.note {
            log.append(ChangeLogEntry(rule: rule.id, target: "plan", field: "note", before: .null, after: .null,
                                      reason: reason, line: "\(note) (\(reason))"))
        }
    }

    /// Days in training order starting at `start` (wrapping to the start of the week).
    private func days(from start: Int) -> [PlanView.Day] {
        let later = plan.days.filter { $0.day >= start }
        let earlier = plan.days.filter { $0.day < start }
        return later + earlier
    }

    /// The day the user trains next: the request's `next_day`, else the day after the last logged
    /// session, else the plan's first day.
    private var nextDay: Int {
        if let next = input.nextDay { return next }
        if let last = input.sessions.compactMap(\.day).last { return last + 1 }
        return plan.days.first?.day ?? 1
    }

    /// The next block of the lift after the session it was logged in (wrapping to next week).
    private func nextOccurrence(of lift: LiftLog) -> PlanView.Block? {
        let start = lift.sessionDay.map { $0 + 1 } ?? nextDay
        for day in days(from: start) {
            if let block = day.blocks.first(where: { $0.exerciseId == lift.exercise.exerciseId }) { return block }
        }
        return nil
    }

    private mutating func update(_ block: PlanView.Block, _ change: (inout PlanView.Block) -> Void) {
        for d in plan.days.indices {
            for b in plan.days[d].blocks.indices where plan.days[d].blocks[b].workout == block.workout && plan.days[d].blocks[b].block == block.block {
                change(&plan.days[d].blocks[b])
            }
        }
    }

    private func current(_ block: PlanView.Block) -> PlanView.Block {
        plan.allBlocks.first { $0.workout == block.workout && $0.block == block.block } ?? block
    }

    private func exerciseName(_ id: String) -> String { engine.exercises[id]?.name ?? ValueText.label(id) }

    private static func setsText(_ n: Int) -> String { "\(n > 0 ? "+" : "")\(n) set\(abs(n) == 1 ? "" : "s")" }

    /// Region soreness: the region's muscles lose (or gain) sets in the next session that trains them.
    private mutating func changeRegionSets(_ region: String, by delta: Int, suggestRegression: Bool, rule: AdaptationRule, reason: String) {
        guard delta != 0 else { return }
        let muscles = readiness.muscles(ofRegion: region) ?? [region]
        guard let day = days(from: nextDay).first(where: { $0.blocks.contains { muscles.contains($0.muscle) } }) else { return }
        var before: OrderedDictionary<String, Value> = [:]
        var after: OrderedDictionary<String, Value> = [:]
        var details: [Value] = []
        var changes: [Int] = []
        for muscle in muscles {
            let blocks = day.blocks.filter { $0.muscle == muscle }
            guard !blocks.isEmpty else { continue }
            let start = blocks.reduce(0) { $0 + current($1).sets }
            if delta < 0 {
                removeSets(-delta, from: blocks, details: &details, day: day.day)
            } else if let first = blocks.first {
                var added = 0
                while added < delta, canAdd(1, to: current(first)) {
                    update(first) { $0.sets += 1 }
                    added += 1
                }
                if added > 0 { details.append(Self.detail(day: day.day, block: first, before: current(first).sets - added, after: current(first).sets)) }
            }
            let end = blocks.reduce(0) { $0 + current($1).sets }
            before[muscle] = .int(Int64(start))
            after[muscle] = .int(Int64(end))
            if end != start { changes.append(end - start) }
        }
        guard let smallest = changes.min(by: { abs($0) < abs($1) }), let largest = changes.max(by: { abs($0) < abs($1) }) else { return }
        let amount = smallest == largest ? Self.setsText(smallest) : "\(smallest > 0 ? "+" : "")\(smallest) to \(Self.setsText(largest))"
        log.append(ChangeLogEntry(rule: rule.id, target: region, field: "sets", before: .map(before), after: .map(after),
                                  reason: reason, line: "\(ValueText.label(region)) \(amount) (\(reason)\(belowBandNote(muscles)))",
                                  details: details))
        if suggestRegression {
            for block in day.blocks where muscles.contains(block.muscle) {
                guard let regression = engine.exercises[block.exerciseId]?.regressions.first, current(block).suggestedRegression == nil else { continue }
                update(block) { $0.suggestedRegression = regression }
                log.append(ChangeLogEntry(rule: rule.id, target: block.exerciseId, field: "regression", before: .null, after: .string(regression),
                                          reason: reason, line: "\(exerciseName(block.exerciseId)): suggested regression \(exerciseName(regression)) (\(region) \(reason))"))
            }
        }
    }

    /// Takes `count` sets from `blocks`, one at a time from the block with the most sets (the later
    /// block on ties), never below the per-block minimum.
    private mutating func removeSets(_ count: Int, from blocks: [PlanView.Block], details: inout [Value], day: Int) {
        let starting = blocks.map { current($0).sets }
        for _ in 0..<count {
            let candidates = blocks.map(current).enumerated().filter { $0.element.sets > readiness.minSetsPerBlock }
            guard let pick = candidates.max(by: { $0.element.sets == $1.element.sets ? $0.offset < $1.offset : $0.element.sets < $1.element.sets }) else { break }
            update(pick.element) { $0.sets -= 1 }
        }
        for (i, block) in blocks.enumerated() where current(block).sets != starting[i] {
            details.append(Self.detail(day: day, block: block, before: starting[i], after: current(block).sets))
        }
    }

    private static func detail(day: Int, block: PlanView.Block, before: Int, after: Int) -> Value {
        .map(["day": .int(Int64(day)), "exerciseId": .string(block.exerciseId), "muscle": .string(block.muscle),
              "before": .int(Int64(before)), "after": .int(Int64(after))])
    }

    /// `; below band: calves 6/8` for muscles a cut took under their band's bottom.
    private func belowBandNote(_ muscles: [String]) -> String {
        let counted = Self.countedSets(plan, engine)
        let before = Self.countedSets(original, engine)
        let below = muscles.compactMap { muscle -> String? in
            guard let band = plan.bands[muscle], let now = counted[muscle], now + 1e-9 < band.lowerBound,
                  now < (before[muscle] ?? 0) else { return nil }
            return "\(muscle) \(ValueText.number(now, decimals: 1))/\(ValueText.number(band.lowerBound))"
        }
        return below.isEmpty ? "" : "; below band: \(below.joined(separator: ", "))"
    }

    /// A lift gains or loses sets in its next session.
    private mutating func changeLiftSets(_ lift: LiftLog, by delta: Int, rule: AdaptationRule, reason: String) {
        guard delta != 0, let target = nextOccurrence(of: lift) else { return }
        let start = current(target).sets
        var end = start
        if delta < 0 {
            end = max(readiness.minSetsPerBlock, start + delta)
        } else {
            while end - start < delta, canAdd(1, to: current(target)) {
                update(target) { $0.sets += 1 }
                end += 1
            }
        }
        update(target) { $0.sets = end }
        guard end != start else { return }
        let day = plan.days.first { $0.blocks.contains { $0.workout == target.workout && $0.block == target.block } }?.day ?? 0
        let label = delta > 0 && rule.actions.laggingSet != nil ? ValueText.label(target.muscle) : exerciseName(target.exerciseId)
        log.append(ChangeLogEntry(rule: rule.id, target: delta > 0 && rule.actions.laggingSet != nil ? target.muscle : target.exerciseId,
                                  field: "sets", before: .int(Int64(start)), after: .int(Int64(end)), reason: reason,
                                  line: "\(label) \(Self.setsText(end - start)) (\(reason)\(belowBandNote([target.muscle])))",
                                  details: [Self.detail(day: day, block: target, before: start, after: end)]))
    }

    /// The week's total sets change by `percent`, spread one set at a time over the largest
    /// blocks (cuts) or the muscles furthest below their cap (increases).
    private mutating func changeWeeklySets(by percent: Double, rule: AdaptationRule, reason: String) {
        let blocks = plan.allBlocks
        let total = blocks.reduce(0) { $0 + $1.sets }
        guard total > 0, percent != 0 else { return }
        let goal = (Double(total) * (1 + percent / 100)).saturatingInt()
        let perMuscleBefore = Dictionary(grouping: blocks, by: \.muscle).mapValues { $0.reduce(0) { $0 + $1.sets } }
        var moved = 0
        if goal < total {
            for _ in 0..<(total - goal) {
                let candidates = plan.allBlocks.enumerated().filter { $0.element.sets > readiness.minSetsPerBlock }
                guard let pick = candidates.max(by: { a, b in
                    if a.element.sets != b.element.sets { return a.element.sets < b.element.sets }
                    return a.offset < b.offset
                }) else { break }
                update(pick.element) { $0.sets -= 1 }
                moved -= 1
            }
        } else {
            for _ in 0..<(goal - total) {
                let counted = Self.countedSets(plan, engine)
                let candidates = plan.allBlocks.filter { canAdd(1, to: $0) }
                guard let pick = candidates.min(by: { a, b in
                    let roomA = (plan.bands[a.muscle]?.upperBound ?? 0) - (counted[a.muscle] ?? 0)
                    let roomB = (plan.bands[b.muscle]?.upperBound ?? 0) - (counted[b.muscle] ?? 0)
                    return roomA == roomB ? a.sets < b.sets : roomA > roomB
                }) else { break }
                update(pick) { $0.sets += 1 }
                moved += 1
            }
        }
        guard moved != 0 else { return }
        let perMuscleAfter = Dictionary(grouping: plan.allBlocks, by: \.muscle).mapValues { $0.reduce(0) { $0 + $1.sets } }
        let details: [Value] = perMuscleBefore.keys.sorted().compactMap { muscle in
            let b = perMuscleBefore[muscle] ?? 0
            let a = perMuscleAfter[muscle] ?? 0
            return a == b ? nil : .map(["muscle": .string(muscle), "before": .int(Int64(b)), "after": .int(Int64(a))])
        }
        let muscles = perMuscleBefore.keys.sorted()
        log.append(ChangeLogEntry(rule: rule.id, target: "week", field: "weekly_sets", before: .int(Int64(total)), after: .int(Int64(total + moved)),
                                  reason: reason, line: "Weekly sets \(ValueText.signed(percent, decimals: 1))% (\(reason)\(belowBandNote(muscles)))",
                                  details: details))
    }

    /// No block prescribes fewer reps in reserve than `floor` (no sets to failure below it).
    private mutating func raiseRIRFloor(to floor: Int, rule: AdaptationRule, reason: String) {
        var details: [Value] = []
        var beforeTexts: [String] = []
        var afterTexts: [String] = []
        for day in plan.days {
            for block in day.blocks {
                guard let rir = block.rir, rir.lower < floor else { continue }
                let raised = PlanRange(floor, max(rir.upper, floor), dash: rir.dash)
                update(block) { $0.rir = raised }
                details.append(.map(["day": .int(Int64(day.day)), "exerciseId": .string(block.exerciseId),
                                     "before": .string(rir.description), "after": .string(raised.description)]))
                if !beforeTexts.contains(rir.description) { beforeTexts.append(rir.description) }
                if !afterTexts.contains(raised.description) { afterTexts.append(raised.description) }
            }
        }
        guard !details.isEmpty else { return }
        log.append(ChangeLogEntry(rule: rule.id, target: "week", field: "rir", before: .list(beforeTexts.map(Value.string)),
                                  after: .list(afterTexts.map(Value.string)), reason: reason,
                                  line: "RIR floor \(floor), no sets to failure (\(reason))", details: details))
    }

    /// Daily calories change by `percent` (never below the floor on a cut); macros follow.
    private mutating func changeCalories(by percent: Double, rule: AdaptationRule, reason: String, week: [String: Value]) {
        guard let kcal = plan.kcal, kcal > 0 else {
            warnings.append("rule '\(rule.id)': the plan has no kcal; calories not changed")
            return
        }
        var target = (kcal * (1 + percent / 100)).rounded()
        var floorNote = ""
        if percent < 0, let floor = amount(readiness.macros.kcalFloor, rule, week), target < floor {
            target = max(target, min(kcal, floor.rounded(.up)))
            floorNote = "; floor \(ValueText.number(floor.rounded(.up))) kcal"
        }
        guard target != kcal else {
            log.append(ChangeLogEntry(rule: rule.id, target: "calories", field: "note", before: ValueNumber.value(kcal), after: ValueNumber.value(kcal),
                                      reason: reason, line: "Calories unchanged (\(reason)\(floorNote))"))
            return
        }
        let actual = (target / kcal - 1) * 100
        plan.kcal = target
        log.append(ChangeLogEntry(rule: rule.id, target: "calories", field: "kcal", before: ValueNumber.value(kcal), after: ValueNumber.value(target),
                                  reason: reason, line: "Calories \(ValueText.signed(actual, decimals: 1))% (\(reason)\(floorNote))"))
        guard let macros = plan.macros else { return }
        // Protein and fat stay at their grams per kg; carbohydrate takes the difference, and when
        // it would go below zero fat gives way.
        let rule4 = readiness.macros
        var carbs = ((target - macros.proteinG * rule4.proteinKcalPerGram - macros.fatG * rule4.fatKcalPerGram) / rule4.carbKcalPerGram).rounded()
        var fat = macros.fatG
        if carbs < 0 {
            carbs = 0
            fat = max(0, ((target - macros.proteinG * rule4.proteinKcalPerGram) / rule4.fatKcalPerGram).rounded(.down))
        }
        let updated = PlanView.Macros(proteinG: macros.proteinG, fatG: fat, carbG: carbs)
        plan.macros = updated
        let because = "calories \(ValueText.signed(actual, decimals: 1))%"
        for (field, name, old, new) in [("carb_g", "Carbs", macros.carbG, carbs), ("fat_g", "Fat", macros.fatG, fat)] where old != new {
            log.append(ChangeLogEntry(rule: rule.id, target: "macros", field: field, before: ValueNumber.value(old), after: ValueNumber.value(new),
                                      reason: because, line: "\(name) \(ValueText.signed(new - old)) g (\(because))"))
        }
    }

    /// The lift's load changes by `percent` of the load actually lifted, rounded to its loadable
    /// step (at least one step when progressing).
    private mutating func changeLoad(_ lift: LiftLog, by percent: Double, rule: AdaptationRule, reason: String) {
        let id = lift.exercise.exerciseId
        guard !loadChanged.contains(id), percent != 0, let load = lift.exercise.sets.compactMap(\.loadKg).min(), load > 0 else { return }
        let step = engine.progression.incrementKg(forEquipment: engine.exercises[id]?.equipment ?? [])
        var next = (load * (1 + percent / 100) / step).rounded() * step
        if percent > 0 && next <= load { next = ((load / step + 1e-9).rounded(.down) + 1) * step }
        if percent < 0 && next >= load { next = max(step, ((load / step - 1e-9).rounded(.up) - 1) * step) }
        next = (next * 1000).rounded() / 1000
        guard next != load else { return }
        loadChanged.insert(id)
        for block in plan.allBlocks where block.exerciseId == id { update(block) { $0.loadKg = next } }
        log.append(ChangeLogEntry(rule: rule.id, target: id, field: "load_kg", before: ValueNumber.value(load), after: ValueNumber.value(next),
                                  reason: reason, line: "\(exerciseName(id)) \(ValueText.signed(next - load)) kg to \(ValueText.number(next)) kg (\(reason))"))
    }
}
