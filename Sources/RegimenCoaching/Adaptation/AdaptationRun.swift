import Foundation
import OrderedCollections
import RegimenLanguage

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
    /// The rules this run applied and the evidence each fired on (recorded in the patched plan).
    var applied: [AdaptationRecord.Applied] = []
    /// Rules not applied because an earlier adaptation of this plan applied them to the same evidence.
    var notes: [String] = []
    /// Whether this run made the week a deload week.
    var deloaded = false

    var readiness: ReadinessRules { engine.readiness }

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
        /// The evidence it fired on (see ``AdaptationRecord``).
        let basis: [String]
    }

    /// The latest logged occurrence of one exercise, with the plan block that prescribed it.
    struct LiftLog {
        let exercise: LoggedExercise
        let sessionDay: Int?
        /// ``EvidenceKey/session(_:)`` of the session it was logged in.
        let sessionKey: String
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
                firings.append(Firing(rule: rule, bindings: bindings, region: nil, lift: lift, basis: liftBasis(lift)))
                break
            }
        }
        var superseded: Set<String> = []
        for firing in firings where !superseded.contains(firing.rule.id) {
            superseded.formUnion(firing.rule.supersedes)
        }
        // A firing that an earlier adaptation already applied to the same evidence still
        // supersedes (an applied deload keeps the -10% cut away) but changes nothing again.
        for firing in firings where !superseded.contains(firing.rule.id) {
            if let earlier = alreadyApplied(firing) {
                let note = "rule '\(firing.rule.id)' was already applied to \(earlier.joined(separator: ", ")); not repeated"
                if !notes.contains(note) { notes.append(note) }
                continue
            }
            perform(firing, week: week)
            applied.append(AdaptationRecord.Applied(rule: firing.rule.id, basis: firing.basis))
        }
    }

    /// The evidence an earlier adaptation of the plan applied this firing's rule to, if any
    /// of it is this firing's evidence too.
    func alreadyApplied(_ firing: Firing) -> [String]? {
        let basis = Set(firing.basis)
        var shared: [String] = []
        for record in original.adaptations {
            for entry in record.applied where entry.rule == firing.rule.id {
                for key in entry.basis where basis.contains(key) && !shared.contains(key) { shared.append(key) }
            }
        }
        return shared.isEmpty ? nil : shared
    }

    /// A week-level rule fires on the week's check-ins and the block week; with neither, on the
    /// request itself.
    func weekBasis() -> [String] {
        var basis = windowCheckIns().map(EvidenceKey.checkIn)
        if let week = input.week { basis.append("week \(week)") }
        return basis.isEmpty ? ["request \(EvidenceKey.fingerprint(input))"] : basis
    }

    func liftBasis(_ lift: LiftLog) -> [String] { ["\(lift.sessionKey) \(lift.exercise.exerciseId) \(lift.prescription.muscle)"] }

    mutating func fire(_ rule: AdaptationRule, week: [String: Value]) -> [Firing] {
        switch rule.scope {
        case .week:
            return holds(rule, week, about: nil) ? [Firing(rule: rule, bindings: week, region: nil, lift: nil, basis: weekBasis())] : []
        case .soreRegion:
            guard let latest = latestCheckIn() else { return [] }
            let latestKey = EvidenceKey.checkIn(latest)
            var out: [Firing] = []
            for (region, level) in latest.soreness.sorted(by: { $0.key < $1.key }) {
                var bindings = week
                bindings["region"] = .string(region)
                bindings["soreness"] = .int(Int64(level))
                if holds(rule, bindings, about: region) {
                    out.append(Firing(rule: rule, bindings: bindings, region: region, lift: nil, basis: ["\(latestKey) \(region)"]))
                }
            }
            return out
        case .loggedExercise:
            return loggedLifts().compactMap { lift in
                let bindings = liftBindings(lift, week: week)
                return holds(rule, bindings, about: lift.exercise.exerciseId)
                    ? Firing(rule: rule, bindings: bindings, region: nil, lift: lift, basis: liftBasis(lift)) : nil
            }
        }
    }

    /// Whether the rule's condition is true; an error is a warning and the rule does not fire
    /// (adaptation fails safe: no change).
    mutating func holds(_ rule: AdaptationRule, _ bindings: [String: Value], about subject: String?) -> Bool {
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
    mutating func amount(_ expression: CompiledExpression, _ rule: AdaptationRule, _ bindings: [String: Value]) -> Double? {
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
    func orderedCheckIns() -> [CheckIn] {
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

    func latestCheckIn() -> CheckIn? { orderedCheckIns().last }

    /// The check-ins of the week: the 7 days up to the latest dated one, and undated ones.
    func windowCheckIns() -> [CheckIn] {
        let ordered = orderedCheckIns()
        let latestDay = ordered.compactMap { $0.date.flatMap(CalendarDay.init) }.max()
        return ordered.filter { checkIn in
            guard let day = checkIn.date.flatMap(CalendarDay.init), let latestDay else { return true }
            return day.ordinal > latestDay.ordinal - 7
        }
    }

    mutating func scoredWeek() -> [ScoredCheckIn] {
        var out: [ScoredCheckIn] = []
        for checkIn in windowCheckIns() {
            let day = checkIn.date.flatMap(CalendarDay.init)
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

    mutating func weekBindings() -> [String: Value] {
        let scored = scoredWeek()
        let week = input.week ?? 1
        let blockWeeks = max(1, readiness.blockWeeks)
        let scores = scored.compactMap(\.readiness.numberValue)
        return [
            "checkin_days": .int(Int64(scored.count)),
            "low_days": .int(Int64(scored.filter(\.low).count)),
            "high_days": .int(Int64(scored.filter(\.high).count)),
            "latest_readiness": scored.last?.readiness ?? .null,
            "mean_readiness": scores.isEmpty ? .null : .float(scores.reduce(0, +) / Double(scores.count)),
            "week": .int(Int64(week)),
            "block_weeks": .int(Int64(blockWeeks)),
            "week_in_block": .int(Int64((week - 1) % blockWeeks + 1)),
            "deloaded_this_block": .bool(original.adaptations.contains { record in
                record.deloadWeek.map { ($0 - 1) / blockWeeks == (week - 1) / blockWeeks } ?? false
            }),
            "weight_trend_2w": input.weightTrend.map { .string($0.rawValue) } ?? .null,
            "adherence_pct": input.adherencePct.map(Value.float) ?? .null,
            "kcal": original.kcal.map(Value.float) ?? .null,
            "bmr": original.bmr.map(Value.float) ?? .null,
        ]
    }

    // MARK: - Logged lifts

    /// The latest logged occurrence of each exercise that the plan prescribes, in log order.
    mutating func loggedLifts() -> [LiftLog] {
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
                // A block is the exercise for one muscle: the same exercise may serve two muscles
                // (chin-ups for back on one day, biceps on another), and the lift's muscle decides
                // lagging, bands and which later block changes.
                let matches: (PlanView.Block) -> Bool = { block in
                    block.exerciseId == exercise.exerciseId && (exercise.muscle.map { block.muscle == $0 } ?? true)
                }
                let onDay = session.day.flatMap { day in original.days.first { $0.day == day }?.blocks.first(where: matches) }
                guard let block = onDay ?? original.allBlocks.first(where: matches) else {
                    let name = exercise.exerciseId + (exercise.muscle.map { " for \($0)" } ?? "")
                    if !missing.contains(name) { missing.append(name) }
                    continue
                }
                if onDay == nil, exercise.muscle == nil {
                    let muscles = Array(Set(original.allBlocks.filter { $0.exerciseId == exercise.exerciseId }.map(\.muscle))).sorted()
                    let line = "logged exercise '\(exercise.exerciseId)' is prescribed for \(muscles.joined(separator: " and ")); judged as \(block.muscle) work (give the session's `day` or the exercise's `muscle` to say which)"
                    if muscles.count > 1, !warnings.contains(line) { warnings.append(line) }
                }
                let key = "\(exercise.exerciseId) \(block.muscle)"
                latest.removeValue(forKey: key)
                latest[key] = LiftLog(exercise: exercise, sessionDay: session.day, sessionKey: EvidenceKey.session(session), prescription: block)
            }
        }
        let note = missing.map { "logged exercise '\($0)' is not in the plan; no progression for it" }
        for line in note where !warnings.contains(line) { warnings.append(line) }
        return Array(latest.values)
    }

    mutating func liftBindings(_ lift: LiftLog, week: [String: Value]) -> [String: Value] {
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
        bindings["loaded"] = .bool(isLoaded(block.exerciseId))
        bindings["harder_variant"] = engine.exercises[block.exerciseId]?.progressions.first.map(Value.string) ?? .null
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

    /// A lift carries an external load when its equipment has a load step in
    /// rules/progression.yaml `increments` (a bodyweight, band or pull-up-bar lift does not); a
    /// lift the catalog does not know is taken as loaded.
    func isLoaded(_ exerciseId: String) -> Bool {
        guard let facts = engine.exercises[exerciseId] else { return true }
        return engine.progression.increments.contains { facts.equipment.contains($0.equipment) }
    }

    // MARK: - Volume accounting

    /// The muscles one set of `block` counts toward, with the share of a set each gets and
    /// whether it counts as a direct set (a primary muscle, or the block's own muscle).
    static func contributions(of block: PlanView.Block, _ engine: AdaptationEngine) -> [(muscle: String, share: Double)] {
        muscles(of: block, engine).map { ($0.muscle, $0.direct ? engine.setCredit.direct : engine.setCredit.indirect) }
    }

    static func muscles(of block: PlanView.Block, _ engine: AdaptationEngine) -> [(muscle: String, direct: Bool)] {
        guard let facts = engine.exercises[block.exerciseId] else { return [(block.muscle, true)] }
        var out: [(String, Bool)] = facts.primaryMuscles.map { ($0, true) }
        if !facts.primaryMuscles.contains(block.muscle) { out.append((block.muscle, true)) }
        out += facts.secondaryMuscles.filter { !facts.primaryMuscles.contains($0) && $0 != block.muscle }.map { ($0, false) }
        return out
    }

    /// Direct and indirect sets per muscle, the two parts of the weekly-set count.
    static func setParts(_ plan: PlanView, _ engine: AdaptationEngine) -> [String: (direct: Int, indirect: Int)] {
        var parts: [String: (direct: Int, indirect: Int)] = [:]
        for block in plan.allBlocks {
            for (muscle, direct) in muscles(of: block, engine) {
                var entry = parts[muscle] ?? (0, 0)
                if direct { entry.direct += block.sets } else { entry.indirect += block.sets }
                parts[muscle] = entry
            }
        }
        return parts
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
    func canAdd(_ extra: Int, to block: PlanView.Block) -> Bool {
        let counted = Self.countedSets(plan, engine)
        for (muscle, share) in Self.contributions(of: block, engine) where share > 0 {
            guard let band = plan.bands[muscle] else { return false }
            if (counted[muscle] ?? 0) + Double(extra) * share > band.upperBound + 1e-9 { return false }
        }
        return true
    }
}
