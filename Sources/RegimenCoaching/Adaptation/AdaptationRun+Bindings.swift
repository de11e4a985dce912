import OrderedCollections
import RegimenLanguage
import RegimenRules

/// The facts adaptation expressions read, bound through the declarations of
/// ``AdaptationVariables``: per check-in, per week, per sore region, per logged lift.
extension AdaptationRun {
    // MARK: - Readiness facts

    struct ScoredCheckIn {
        let checkIn: CheckIn
        let day: CalendarDay?
        let readiness: Value
        let low: Bool
        let high: Bool
    }

    mutating func scoredWeek() -> [ScoredCheckIn] {
        var out: [ScoredCheckIn] = []
        for checkIn in windowCheckIns() {
            let day = checkIn.date.flatMap(CalendarDay.init)
            var bindings = Self.checkinBindings(checkIn)
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
            // low_day and high_day were type-checked against a numeric score.
            guard AdaptationVariables.readiness.type.admits(score) else {
                warnings.append("checkin_readiness\(checkIn.date.map { " (\($0))" } ?? ""): score gave \(score.typeName), not a number; check-in not scored")
                continue
            }
            let dayBindings = Self.dayBindings(readiness: score, checkin: bindings[AdaptationVariables.checkin.name] ?? .null)
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
        let clock = readiness.deloadClock
        let scores = scored.compactMap(\.readiness.numberValue)
        typealias V = AdaptationVariables
        var bindings: [String: Value] = [:]
        bindings.bind(V.checkinDays, .int(Int64(scored.count)))
        bindings.bind(V.lowDays, .int(Int64(scored.filter(\.low).count)))
        bindings.bind(V.highDays, .int(Int64(scored.filter(\.high).count)))
        bindings.bind(V.latestReadiness, scored.last?.readiness ?? .null)
        bindings.bind(V.meanReadiness, scores.isEmpty ? .null : .float(scores.reduce(0, +) / Double(scores.count)))
        bindings.bind(V.week, .int(Int64(week)))
        bindings.bind(V.blockWeeks, .int(Int64(clock.blockWeeks)))
        bindings.bind(V.weekInBlock, .int(Int64(clock.weekInBlock(week))))
        bindings.bind(V.deloadedThisBlock, .bool(original.adaptations.contains { record in
            record.deloadWeek.map { clock.block(of: $0) == clock.block(of: week) } ?? false
        }))
        bindings.bind(V.weightTrend, weightTrend().map { .string($0.rawValue) } ?? .null)
        bindings.bind(V.adherencePct, input.adherencePct.map(Value.float) ?? .null)
        bindings.bind(V.kcal, original.kcal.map(Value.float) ?? .null)
        bindings.bind(V.bmr, original.bmr.map(Value.float) ?? .null)
        return bindings
    }

    /// The week's bindings plus one region of the latest check-in.
    static func regionBindings(week: [String: Value], region: String, soreness: Int) -> [String: Value] {
        var bindings = week
        bindings.bind(AdaptationVariables.region, .string(region))
        bindings.bind(AdaptationVariables.soreness, .int(Int64(soreness)))
        return bindings
    }

    /// What `checkin_readiness` reads about one check-in.
    static func checkinBindings(_ checkIn: CheckIn) -> [String: Value] {
        let maxSoreness = checkIn.soreness.values.max() ?? 1
        let checkinValue: Value = .map([
            "date": checkIn.date.map(Value.string) ?? .null,
            "sleep_h": .float(checkIn.sleepHours),
            "stress": .int(Int64(checkIn.stress)),
            "motivation": .int(Int64(checkIn.motivation)),
            "soreness": .map(OrderedDictionary(uniqueKeysWithValues: checkIn.soreness.map { ($0.key, Value.int(Int64($0.value))) })),
            "max_soreness": .int(Int64(maxSoreness)),
        ])
        var bindings: [String: Value] = [:]
        bindings.bind(AdaptationVariables.checkin, checkinValue)
        return bindings
    }

    /// What `low_day` and `high_day` read.
    static func dayBindings(readiness: Value, checkin: Value) -> [String: Value] {
        var bindings: [String: Value] = [:]
        bindings.bind(AdaptationVariables.readiness, readiness)
        bindings.bind(AdaptationVariables.checkin, checkin)
        return bindings
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
        typealias V = AdaptationVariables
        var bindings = week
        bindings.bind(V.exercise, .string(block.exerciseId))
        bindings.bind(V.muscle, .string(block.muscle))
        bindings.bind(V.repsMin, block.reps.map { .int(Int64($0.lower)) } ?? .null)
        bindings.bind(V.repsMax, block.reps.map { .int(Int64($0.upper)) } ?? .null)
        bindings.bind(V.rirMin, block.rir.map { .int(Int64($0.lower)) } ?? .null)
        bindings.bind(V.rirMax, block.rir.map { .int(Int64($0.upper)) } ?? .null)
        bindings.bind(V.setsLogged, .int(Int64(sets.count)))
        bindings.bind(V.minReps, .int(Int64(minReps)))
        bindings.bind(V.minRir, rirs.min().map(ValueNumber.value) ?? .null)
        bindings.bind(V.allSetsAtTop, .bool(block.reps.map { top in sets.allSatisfy { $0.reps >= top.upper } } ?? false))
        bindings.bind(V.missedReps, .bool(block.reps.map { range in sets.contains { $0.reps < range.lower } } ?? false))
        bindings.bind(V.loadKg, loads.min().map(ValueNumber.value) ?? .null)
        bindings.bind(V.feel, lift.exercise.feel.map { .string($0.rawValue) } ?? .null)
        bindings.bind(V.loaded, .bool(isLoaded(block.exerciseId)))
        bindings.bind(V.harderVariant, engine.exercises[block.exerciseId]?.progressions.first.map(Value.string) ?? .null)
        let weekly = counted[block.muscle] ?? 0
        bindings.bind(V.weeklySets, ValueNumber.value(weekly))
        bindings.bind(V.bandMin, band.map { ValueNumber.value($0.lowerBound) } ?? .null)
        bindings.bind(V.bandMax, band.map { ValueNumber.value($0.upperBound) } ?? .null)
        var lagging = false
        if let band {
            let laggingBindings = Self.laggingBindings(muscle: block.muscle, weeklySets: weekly, band: band, declared: input.laggingMuscles.contains(block.muscle))
            do {
                lagging = try readiness.lagging.evaluate(laggingBindings).boolValue ?? false
            } catch {
                warnings.append("lagging (\(block.muscle)): \(error.message); treated as not lagging")
            }
        }
        bindings.bind(V.lagging, .bool(lagging))
        return bindings
    }

    /// What the `lagging` expression reads about a muscle with a band.
    static func laggingBindings(muscle: String, weeklySets: Double, band: ClosedRange<Double>, declared: Bool) -> [String: Value] {
        var bindings: [String: Value] = [:]
        bindings.bind(AdaptationVariables.muscle, .string(muscle))
        bindings.bind(AdaptationVariables.weeklySets, ValueNumber.value(weeklySets))
        bindings.bind(AdaptationVariables.laggingBandMin, ValueNumber.value(band.lowerBound))
        bindings.bind(AdaptationVariables.laggingBandMax, ValueNumber.value(band.upperBound))
        bindings.bind(AdaptationVariables.declaredLagging, .bool(declared))
        return bindings
    }

    /// A lift carries an external load when its equipment has a load step in
    /// rules/progression-rules.yaml `increments` (a bodyweight, band or pull-up-bar lift does not); a
    /// lift the catalog does not know is taken as loaded.
    func isLoaded(_ exerciseId: String) -> Bool {
        guard let facts = engine.exercises[exerciseId] else { return true }
        return engine.progression.increments.contains { facts.equipment.contains($0.equipment) }
    }
}
