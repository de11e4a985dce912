import Foundation
import OrderedCollections
import RegimenLanguage

/// The changes a fired rule makes to the plan being patched, each logged.
extension AdaptationRun {
    // MARK: - Actions

    mutating func perform(_ firing: Firing, week: [String: Value]) {
        let rule = firing.rule
        let actions = rule.actions
        let reason = rule.reason.render(firing.bindings)
        if actions.deload && !plan.deload {
            plan.deload = true
            deloaded = true
            log.append(ChangeLogEntry(rule: rule.id, target: "week", field: "deload", before: .bool(false), after: .bool(true),
                                      reason: reason, line: "Deload week (\(reason))"))
        }
        if let expression = actions.weeklySetsPercent, let percent = amount(expression, rule, firing.bindings) {
            changeWeeklySets(by: percent, rule: rule, reason: reason)
        }
        if let expression = actions.rirFloor, let floor = amount(expression, rule, firing.bindings) {
            raiseRIRFloor(to: Self.whole(floor), rule: rule, reason: reason)
            lastRIRFloor = Self.whole(floor)
        }
        if let expression = actions.sets, let delta = amount(expression, rule, firing.bindings) {
            let sets = Self.whole(delta)
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
            let sets = Self.whole(extra)
            let lagging = firing.bindings["lagging"]?.boolValue ?? false
            if lagging, sets > 0, let target = nextOccurrence(of: lift), canAdd(sets, to: target) {
                changeLiftSets(lift, by: sets, rule: rule, reason: reason)
            } else if !isLoaded(lift.exercise.exerciseId), let otherwise = actions.otherwiseReps {
                progressUnloaded(lift, reps: otherwise, firing: firing, reason: reason)
            } else if let otherwise = actions.otherwiseLoadPercent, let percent = amount(otherwise, rule, firing.bindings) {
                changeLoad(lift, by: percent, rule: rule, reason: reason)
            }
        }
        if actions.harderVariant, let lift = firing.lift {
            moveToHarderVariant(lift, rule: rule, reason: reason)
        }
        if let expression = actions.reps, let lift = firing.lift, let delta = amount(expression, rule, firing.bindings) {
            changeReps(lift, by: Self.whole(delta), rule: rule, reason: reason)
        }
        if let note = actions.note {
            log.append(ChangeLogEntry(rule: rule.id, target: "plan", field: "note", before: .null, after: .null,
                                      reason: reason, line: "\(note) (\(reason))"))
        }
    }

    /// A "too easy" lift without external load: more reps, or at the rep ceiling (the amount is 0
    /// or less) its harder variant with the range the progression rules' variant rule gives.
    mutating func progressUnloaded(_ lift: LiftLog, reps expression: CompiledExpression, firing: Firing, reason: String) {
        // The progression rules move it by reps this run already, with their own line.
        guard !progressedByReps.contains(lift.exercise.exerciseId + " " + lift.prescription.muscle),
              let extra = amount(expression, firing.rule, firing.bindings) else { return }
        let reps = Self.whole(extra)
        if reps > 0 {
            changeReps(lift, by: reps, rule: firing.rule, reason: reason)
            return
        }
        guard let variantRule = engine.progression.rules.first(where: { $0.actions.harderVariant }),
              engine.exercises[lift.exercise.exerciseId]?.progressions.first != nil else {
            log.append(ChangeLogEntry(rule: firing.rule.id, target: lift.exercise.exerciseId, field: "note", before: .null, after: .null, reason: reason,
                                      line: "\(exerciseName(lift.exercise.exerciseId)): at the rep ceiling with no harder variant; add load (a vest or a band) or a progression to the catalog (\(reason))"))
            return
        }
        moveToHarderVariant(lift, rule: firing.rule, reason: reason)
        if let shift = variantRule.actions.reps, let delta = amount(shift, variantRule, firing.bindings) {
            changeReps(lift, by: Self.whole(delta), rule: firing.rule, reason: reason)
        }
    }

    /// Days in training order starting at `start` (wrapping to the start of the week).
    func days(from start: Int) -> [PlanView.Day] {
        let later = plan.days.filter { $0.day >= start }
        let earlier = plan.days.filter { $0.day < start }
        return later + earlier
    }

    /// The day the user trains next: the request's `next_day`, else the day after the last logged
    /// session, else the plan's first day.
    var nextDay: Int {
        if let next = input.nextDay { return next }
        if let last = input.sessions.compactMap(\.day).last { return last + 1 }
        return plan.days.first?.day ?? 1
    }

    /// The next block of the lift after the session it was logged in (wrapping to next week).
    /// The lift is the exercise for its block's muscle: a block of the same exercise for another
    /// muscle is a different lift.
    func nextOccurrence(of lift: LiftLog) -> PlanView.Block? {
        let start = lift.sessionDay.map { $0 + 1 } ?? nextDay
        for day in days(from: start) {
            if let block = day.blocks.first(where: { $0.exerciseId == lift.exercise.exerciseId && $0.muscle == lift.prescription.muscle }) {
                return block
            }
        }
        return nil
    }

    mutating func update(_ block: PlanView.Block, _ change: (inout PlanView.Block) -> Void) {
        for d in plan.days.indices {
            for b in plan.days[d].blocks.indices where plan.days[d].blocks[b].workout == block.workout && plan.days[d].blocks[b].block == block.block {
                change(&plan.days[d].blocks[b])
            }
        }
    }

    func current(_ block: PlanView.Block) -> PlanView.Block {
        plan.allBlocks.first { $0.workout == block.workout && $0.block == block.block } ?? block
    }

    func exerciseName(_ id: String) -> String { engine.exercises[id]?.name ?? ValueText.label(id) }

    static func setsText(_ n: Int) -> String { "\(n > 0 ? "+" : "")\(n) set\(abs(n) == 1 ? "" : "s")" }

    /// Region soreness: the region's muscles lose (or gain) sets in the next session that trains them.
    mutating func changeRegionSets(_ region: String, by delta: Int, suggestRegression: Bool, rule: AdaptationRule, reason: String) {
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
    mutating func removeSets(_ count: Int, from blocks: [PlanView.Block], details: inout [Value], day: Int) {
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

    static func detail(day: Int, block: PlanView.Block, before: Int, after: Int) -> Value {
        .map(["day": .int(Int64(day)), "exerciseId": .string(block.exerciseId), "muscle": .string(block.muscle),
              "before": .int(Int64(before)), "after": .int(Int64(after))])
    }

    /// `; below band: calves 6/8` for muscles a cut took under their band's bottom.
    func belowBandNote(_ muscles: [String]) -> String {
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
    mutating func changeLiftSets(_ lift: LiftLog, by delta: Int, rule: AdaptationRule, reason: String) {
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
    mutating func changeWeeklySets(by percent: Double, rule: AdaptationRule, reason: String) {
        let blocks = plan.allBlocks
        let total = blocks.reduce(0) { $0 + $1.sets }
        guard total > 0, percent != 0 else { return }
        // A change beyond ±100% has no meaning for a week's sets; bounding it keeps the loop short.
        let goal = (Double(total) * (1 + max(-100, min(100, percent)) / 100)).saturatingInt()
        let perMuscleBefore = Dictionary(grouping: blocks, by: \.muscle).mapValues { $0.reduce(0) { $0 + $1.sets } }
        var moved = 0
        if goal < total {
            moved = -spreadCut(total - goal, total: total, perMuscle: perMuscleBefore)
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

    /// Takes `cut` sets from the week in proportion to each muscle's sets (a muscle with a third
    /// of the week's sets gives a third of the cut), each from the muscle's largest block. A set
    /// that would take a muscle below its band's bottom goes to a muscle that stays within its
    /// band where there is one. Returns the sets taken.
    mutating func spreadCut(_ cut: Int, total: Int, perMuscle: [String: Int]) -> Int {
        var removed: [String: Int] = [:]
        var taken = 0
        for _ in 0..<cut {
            let counted = Self.countedSets(plan, engine)
            var safe: [(muscle: String, block: PlanView.Block)] = []
            var any: [(muscle: String, block: PlanView.Block)] = []
            for muscle in perMuscle.keys.sorted() {
                // The muscle's largest block (the later one on ties) that may lose a set.
                let blocks = plan.allBlocks.filter { $0.muscle == muscle && $0.sets > readiness.minSetsPerBlock }
                guard let block = blocks.max(by: { $0.sets == $1.sets ? ($0.workout, $0.block) < ($1.workout, $1.block) : $0.sets < $1.sets }) else { continue }
                any.append((muscle, block))
                let keepsBands = Self.contributions(of: block, engine).allSatisfy { part in
                    guard let band = plan.bands[part.muscle], part.share > 0 else { return true }
                    return (counted[part.muscle] ?? 0) - part.share >= band.lowerBound - 1e-9
                }
                if keepsBands { safe.append((muscle, block)) }
            }
            let pool = safe.isEmpty ? any : safe
            // The muscle furthest behind its share of the cut.
            func behind(_ muscle: String) -> Double {
                Double(cut) * Double(perMuscle[muscle] ?? 0) / Double(max(1, total)) - Double(removed[muscle] ?? 0)
            }
            guard let pick = pool.max(by: { a, b in
                let x = behind(a.muscle), y = behind(b.muscle)
                return abs(x - y) < 1e-9 ? a.muscle > b.muscle : x < y
            }) else { break }
            update(pick.block) { $0.sets -= 1 }
            removed[pick.muscle, default: 0] += 1
            taken += 1
        }
        return taken
    }

    /// No block prescribes fewer reps in reserve than `floor` (no sets to failure below it).
    mutating func raiseRIRFloor(to floor: Int, rule: AdaptationRule, reason: String) {
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

    /// Daily calories change by `percent`, at most once per trend window, through the plans' one
    /// calorie precedence (safety floors > pregnancy > goal band > this step); macros follow. At
    /// the band's edge or a floor the log says so and what a coach would do instead.
    mutating func changeCalories(by percent: Double, rule: AdaptationRule, reason: String, week: [String: Value]) {
        guard let kcal = plan.kcal, kcal > 0 else {
            warnings.append("rule '\(rule.id)': the plan has no kcal; calories not changed")
            return
        }
        if let days = daysSinceRecentKcalChange() {
            let window = readiness.weightTrend?.windowDays ?? 14
            log.append(ChangeLogEntry(rule: rule.id, target: "calories", field: "note", before: ValueNumber.value(kcal), after: ValueNumber.value(kcal),
                                      reason: reason, line: "Calories unchanged (\(reason); last change \(days) days ago, one change per \(window) days)"))
            return
        }
        let proposed = (kcal * (1 + percent / 100)).rounded()
        guard let (decision, planned, precedence) = calorieDecision(proposed: proposed) else {
            warnings.append("rule '\(rule.id)': calories not changed: the calorie precedence (rules/nutrition.yaml calorie_precedence) needs the nutrition rules and the plan's idx.TDEE and idx.BMR")
            return
        }
        // Whole kcal inside what the precedence allows (a band's edges round inward, a floor up),
        // and a step never turns around: a cut never raises the plan's kcal, an increase never
        // lowers it (a plan already outside its band stays until a step moves it back).
        let allowed: Double = switch decision.bound {
        case .goalBandHigh?: decision.kcal.rounded(.down)
        case nil: decision.kcal.rounded()
        default: decision.kcal.rounded(.up)
        }
        let target = percent < 0 ? min(kcal, allowed) : max(kcal, allowed)
        var floorNote = ""
        var edge: String?
        let advice = readiness.calorieBand
        let bandName = goal.map { "the \(ValueText.label($0).lowercased()) band" } ?? "the goal's band"
        switch decision.bound {
        case .goalBandLow? where percent < 0:
            edge = "at the floor of \(bandName), \(ValueText.number(allowed)) kcal: " + (advice?.atFloor ?? "no further cut")
        case .goalBandHigh? where percent > 0:
            edge = "at the top of \(bandName), \(ValueText.number(allowed)) kcal: " + (advice?.atCeiling ?? "no further increase")
        case .pregnancy? where percent < 0:
            floorNote = "; floor \(ValueText.number(allowed)) kcal"
            let name = precedence.floor(of: planned, bmr: original.bmr)?.name ?? "pregnancy: no deficit"
            edge = "at the floor of \(name): " + (advice?.inPregnancy ?? advice?.atFloor ?? "no further cut")
        case .absoluteFloor? where percent < 0, .bmrFloor? where percent < 0:
            floorNote = "; floor \(ValueText.number(allowed)) kcal"
            let name = precedence.floor(of: planned, bmr: original.bmr)?.name ?? "the safety floor"
            edge = "at \(name): " + (advice?.atFloor ?? "no further cut")
        default:
            break
        }
        let precedenceDetail: [Value] = decision.reason.map { [.map(["calorie_precedence": .string($0)])] } ?? []
        guard target != kcal else {
            log.append(ChangeLogEntry(rule: rule.id, target: "calories", field: "note", before: ValueNumber.value(kcal), after: ValueNumber.value(kcal),
                                      reason: reason, line: "Calories unchanged (\(reason))\(edge.map { ": " + $0 } ?? "")", details: precedenceDetail))
            return
        }
        state.lastKcalChange = (input.week, AdaptationEngine.latestDate(input))
        defer {
            if let edge {
                log.append(ChangeLogEntry(rule: rule.id, target: "calories", field: "note", before: ValueNumber.value(target), after: ValueNumber.value(target),
                                          reason: reason, line: "Calories \(edge)"))
            }
        }
        let actual = (target / kcal - 1) * 100
        plan.kcal = target
        log.append(ChangeLogEntry(rule: rule.id, target: "calories", field: "kcal", before: ValueNumber.value(kcal), after: ValueNumber.value(target),
                                  reason: reason, line: "Calories \(ValueText.signed(actual, decimals: 1))% (\(reason)\(floorNote))", details: precedenceDetail))
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

    /// A rule's amount as a whole number of sets, reps or RIR, bounded so that an expression
    /// giving an absurd figure cannot overflow (no plan holds a thousand of anything).
    static func whole(_ amount: Double) -> Int {
        Int(max(-1000, min(1000, amount.rounded())))
    }

    /// The lift's rep range moves by `delta` at both ends in every block of the lift (the week's
    /// blocks of the exercise for that muscle); the low end never goes below one rep.
    mutating func changeReps(_ lift: LiftLog, by delta: Int, rule: AdaptationRule, reason: String) {
        // The lift's blocks as the plan came in, as they are now (a variant change keeps their place).
        let blocks = original.allBlocks.filter { $0.exerciseId == lift.exercise.exerciseId && $0.muscle == lift.prescription.muscle }.map(current)
        guard delta != 0, let first = blocks.first, let range = first.reps else { return }
        let shift = max(delta, 1 - range.lower)
        guard shift != 0 else { return }
        let (upper, overflow) = range.upper.addingReportingOverflow(shift)
        guard !overflow else { return }
        let moved = PlanRange(range.lower + shift, upper, dash: range.dash)
        for block in blocks { update(block) { $0.reps = moved } }
        log.append(ChangeLogEntry(rule: rule.id, target: first.exerciseId, field: "reps", before: .string(range.description),
                                  after: .string(moved.description), reason: reason,
                                  line: "\(exerciseName(first.exerciseId)) reps \(range.description) → \(moved.description) (\(reason))"))
    }

    /// The lift's blocks move to the first harder variant of its catalog `progressions`.
    mutating func moveToHarderVariant(_ lift: LiftLog, rule: AdaptationRule, reason: String) {
        let id = lift.exercise.exerciseId
        guard let harder = engine.exercises[id]?.progressions.first else { return }
        let blocks = plan.allBlocks.filter { $0.exerciseId == id && $0.muscle == lift.prescription.muscle }
        guard !blocks.isEmpty else { return }
        let name = engine.exercises[harder]?.name
        for block in blocks {
            update(block) {
                $0.exerciseId = harder
                $0.exerciseName = name
            }
        }
        log.append(ChangeLogEntry(rule: rule.id, target: id, field: "exerciseId", before: .string(id), after: .string(harder), reason: reason,
                                  line: "\(exerciseName(id)) → \(exerciseName(harder)) (\(reason))"))
    }

    /// The lift's load changes by `percent` of the load actually lifted, rounded to its loadable
    /// step (at least one step when progressing).
    mutating func changeLoad(_ lift: LiftLog, by percent: Double, rule: AdaptationRule, reason: String) {
        let id = lift.exercise.exerciseId
        // A lift without external load (bodyweight, bands) progresses by reps and variants, never kg.
        guard isLoaded(id), !loadChanged.contains(id), percent != 0, let load = lift.exercise.sets.compactMap(\.loadKg).min(), load > 0 else { return }
        let step = engine.progression.incrementKg(forEquipment: engine.exercises[id]?.equipment ?? [])
        if percent > 0, let allowed = engine.progression.loadStepPercent {
            increaseLoad(lift, from: load, by: max(percent, allowed.lowerBound), step: step, allowed: allowed, rule: rule, reason: reason)
            return
        }
        var next = (load * (1 + percent / 100) / step).rounded() * step
        if percent > 0 && next <= load { next = ((load / step + 1e-9).rounded(.down) + 1) * step }
        if percent < 0 && next >= load { next = max(step, ((load / step - 1e-9).rounded(.up) - 1) * step) }
        next = (next * 1000).rounded() / 1000
        guard next != load else { return }
        setLoad(id, from: load, to: next, rule: rule, reason: reason, suffix: "")
    }

    mutating func setLoad(_ id: String, from load: Double, to next: Double, rule: AdaptationRule, reason: String, suffix: String) {
        loadChanged.insert(id)
        // Adaptation never writes a plan it would refuse to read: a load past the plan's limit is
        // held, with a note, instead of written (`adapt` at 1,000 kg wrote 1,050 kg, then refused
        // its own output).
        let limit = engine.loadLimit
        guard limit.contains(next) else {
            log.append(ChangeLogEntry(rule: rule.id, target: id, field: "note", before: ValueNumber.value(load), after: ValueNumber.value(load), reason: reason,
                                      line: "\(exerciseName(id)) load held at \(ValueText.number(load)) kg: \(ValueText.number(next)) kg would leave the \(ValueText.number(limit.lowerBound))–\(ValueText.number(limit.upperBound)) kg a plan may hold (rules/plausibility.yaml; \(reason))"))
            return
        }
        for block in plan.allBlocks where block.exerciseId == id { update(block) { $0.loadKg = next } }
        log.append(ChangeLogEntry(rule: rule.id, target: id, field: "load_kg", before: ValueNumber.value(load), after: ValueNumber.value(next),
                                  reason: reason, line: "\(exerciseName(id)) \(ValueText.signed(next - load)) kg to \(ValueText.number(next)) kg\(suffix) (\(reason))"))
    }

    /// A load increase of `percent` (seed §3.4: 2.5–5%): the smallest loadable step at or above
    /// it. Where that step is more than the rules allow, the lift earns it with reps first: the
    /// top of its rep range grows by `extend_reps`; once the lift is at the extended top, the
    /// load takes the step and the reps go back to the planned range.
    mutating func increaseLoad(_ lift: LiftLog, from load: Double, by percent: Double, step: Double, allowed: ClosedRange<Double>,
                               rule: AdaptationRule, reason: String) {
        let id = lift.exercise.exerciseId
        var next = ((load * (1 + percent / 100) / step) - 1e-9).rounded(.up) * step
        if next <= load { next = ((load / step + 1e-9).rounded(.down) + 1) * step }
        next = (next * 1000).rounded() / 1000
        let stepPercent = (next / load - 1) * 100
        guard stepPercent > allowed.upperBound + 1e-9 else {
            setLoad(id, from: load, to: next, rule: rule, reason: reason, suffix: "")
            return
        }
        let blocks = plan.allBlocks.filter { $0.exerciseId == id && $0.muscle == lift.prescription.muscle }
        guard let first = blocks.first, let range = first.reps else {
            log.append(ChangeLogEntry(rule: rule.id, target: id, field: "note", before: ValueNumber.value(load), after: ValueNumber.value(load), reason: reason,
                                      line: "\(exerciseName(id)) load held at \(ValueText.number(load)) kg: the next \(ValueText.number(step)) kg step is +\(ValueText.number(stepPercent, decimals: 1))%, above \(ValueText.number(allowed.upperBound))% (\(reason))"))
            return
        }
        let planned = state.baseline(workout: first.workout, block: first.block)?.reps ?? range
        let extendedTop = planned.upper + engine.progression.extendReps
        if range.upper < extendedTop {
            let extended = PlanRange(range.lower, extendedTop, dash: range.dash)
            for block in blocks {
                update(block) { $0.reps = extended }
                extendedBlocks.insert(BlockKey(workout: block.workout, block: block.block))
            }
            loadChanged.insert(id)
            log.append(ChangeLogEntry(rule: rule.id, target: id, field: "reps", before: .string(range.description), after: .string(extended.description), reason: reason,
                                      line: "\(exerciseName(id)) reps \(range.description) → \(extended.description) at \(ValueText.number(load)) kg: the next \(ValueText.number(step)) kg step is +\(ValueText.number(stepPercent, decimals: 1))%, above \(ValueText.number(allowed.upperBound))%, so reps first (\(reason))"))
            return
        }
        for block in blocks {
            update(block) { $0.reps = planned }
            extendedBlocks.insert(BlockKey(workout: block.workout, block: block.block))
        }
        setLoad(id, from: load, to: next, rule: rule, reason: reason,
                suffix: ", reps back to \(planned.description) (start at \(planned.lower)): \(range.description) reached, the step is +\(ValueText.number(stepPercent, decimals: 1))%")
    }
}
