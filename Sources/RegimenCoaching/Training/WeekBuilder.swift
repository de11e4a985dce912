import RegimenLanguage
import Foundation
/// The mutable side of planning one week: sessions being filled and the week's running totals.
struct WeekBuilder {
    let context: PlanningContext
    private var rules: TrainingRules { context.rules }

    private var catalogIndex: CatalogIndex { context.index }

    /// A block being built, with the catalog entry it uses.
    struct PlannedBlock {
        var position: Int
        /// Tracked muscle id.
        var muscle: Int
        var sets: Int
        var notes: [String]
    }

    struct Session {
        var dayType: TrainingRules.DayType
        var blocks: [PlannedBlock] = []
        var directSets = 0
        /// Seconds of planned work, warm-up excluded.
        var seconds = 0
        /// Sets counted today by tracked muscle id.
        var countedToday: [Double]
        var budgetSeconds: Int
    }

    private var sessions: [Session] = []
    /// Sets counted this week by tracked muscle id.
    private var counted: [Double]
    /// Direct sets this week by tracked muscle id (the muscle is a primary mover).
    private var directSets: [Int]
    /// Indirect sets this week by tracked muscle id (the muscle is a secondary mover).
    private var indirectSets: [Int]
    /// Per tracked muscle id, by catalog position: how many blocks of the week use it (dense, as
    /// ranking candidates reads it for every candidate).
    private var usage: [[Int]]
    /// Why each muscle stopped short of its target, in first-seen order.
    private var reasons: [String: [String]] = [:]
    private var notes: [String] = []
    /// What one set counts for a primary (`direct`) and a secondary (`fraction`) muscle.
    private let direct: Double
    private let fraction: Double
    /// The goal's rest between sets, by movement, looked up once for the week.
    private let compoundRest: Int
    private let isolationRest: Int
    /// Per catalog position: whether the exercise needs nothing but the body (rules/training-selection.yaml `exercise_choice.bodyweight_tags`).
    private let bodyweightOnly: [Bool]
    /// Per tracked muscle id: whether its bodyweight work keeps catalog order (core).
    private let bodyweightMuscle: [Bool]
    /// Per muscle id (catalog muscles included): the most exercises it may have in one session.
    private let maxExercisesPerSession: [Int]
    /// True while the top-up pass spends leftover room: the upper/lower balance binds then.
    private var balancing = false

    init(context: PlanningContext) {
        self.context = context
        self.direct = context.rules.setCredit.value.direct
        self.fraction = context.rules.setCredit.value.indirect
        let finisherSeconds = context.modifier.value.finisherMinutes * 60
        let budget = context.limits.value.maxMinutes * 60 - context.rules.warmupSeconds - finisherSeconds
        let trackedCount = context.index.trackedCount
        sessions = context.days.map {
            Session(dayType: $0, countedToday: Array(repeating: 0, count: trackedCount), budgetSeconds: max(0, budget))
        }
        counted = Array(repeating: 0, count: trackedCount)
        directSets = Array(repeating: 0, count: trackedCount)
        indirectSets = Array(repeating: 0, count: trackedCount)
        usage = Array(repeating: Array(repeating: 0, count: context.index.facts.count), count: trackedCount)
        let rests = context.rules.restSeconds[context.modifier.value.name]
        compoundRest = rests?[.compound]?.value ?? 0
        isolationRest = rests?[.isolation]?.value ?? 0
        let choice = context.rules.exerciseChoice
        bodyweightOnly = context.catalog.exercises.map(choice.isBodyweightOnly)
        bodyweightMuscle = context.index.muscles.map(choice.bodyweightMuscles.contains)
        maxExercisesPerSession = context.index.muscles.map {
            choice.maxExercises(for: $0, general: context.rules.maxExercisesPerMusclePerSession)
        }
    }

    mutating func build() -> TrainingWeek {
        let quotas = dailyQuotas()
        planMainPatterns()
        for session in sessions.indices {
            for muscle in sessions[session].dayType.muscles {
                guard let id = catalogIndex.trackedMuscleId(muscle) else { continue }
                fill(id, session: session, quota: Double(quotas[session][muscle] ?? 0))
            }
        }
        topUp()
        return assemble()
    }

    // MARK: - Distribution

    /// Each muscle's target spread evenly over the sessions that train it (earlier sessions take
    /// the remainder), each share capped by the per-muscle session limit.
    private func dailyQuotas() -> [[String: Int]] {
        var quotas = Array(repeating: [String: Int](), count: sessions.count)
        let cap = context.limits.value.maxSetsPerMusclePerSession
        for muscle in rules.trackedMuscles {
            let days = sessions.indices.filter { sessions[$0].dayType.muscles.contains(muscle) }
            guard !days.isEmpty, let target = context.muscleTargets[muscle]?.target else { continue }
            for (rank, day) in days.enumerated() {
                let share = target / days.count + (rank < target % days.count ? 1 : 0)
                quotas[day][muscle] = min(share, cap)
            }
        }
        // A session whose shares add up to more than it can hold gives every muscle a fair part
        // first (so the last muscles of the day are not left with nothing); the top-up pass then
        // spends whatever room is left in the day's order.
        for index in sessions.indices {
            let total = quotas[index].values.reduce(0, +)
            let room = estimatedSetRoom(sessions[index])
            guard total > room, total > 0 else { continue }
            for (muscle, quota) in quotas[index] {
                quotas[index][muscle] = max(min(quota, rules.minSetsPerExercise), quota * room / total)
            }
        }
        return quotas
    }

    /// About how many sets fit in a session: its set limit, or its time budget spent on compound
    /// sets of typical length, whichever is smaller. A catalog with no strength compound gives no
    /// typical set length, and then only the set limit applies.
    private func estimatedSetRoom(_ session: Session) -> Int {
        guard let typical = context.catalog.exercises.first(where: { $0.kind == .strength && $0.movement == .compound }) else {
            return context.limits.value.maxSetsPerSession
        }
        let perSet = typical.setSeconds + (rules.restSeconds[context.modifier.value.name]?[.compound]?.value ?? 0)
        let byTime = perSet > 0 ? session.budgetSeconds / perSet : Int.max
        return min(context.limits.value.maxSetsPerSession, byTime)
    }

    /// After every session had its share, give muscles still below target more sets wherever a
    /// session that trains them has room: in rounds of `min_sets_per_exercise` sets, one muscle
    /// at a time, so the first muscles of the rules' order cannot take all the room (a 1-day
    /// plan gave chest 9 sets and glutes 2), and with the upper/lower balance binding.
    private mutating func topUp() {
        let cap = Double(context.limits.value.maxSetsPerMusclePerSession)
        let step = Double(max(1, rules.minSetsPerExercise))
        let ids = rules.trackedMuscles.compactMap { catalogIndex.trackedMuscleId($0) }
        balancing = true
        defer { balancing = false }
        // Every round that continues adds at least one set, and sets are bounded by the session
        // limits; the round count bound only guards against a rule set that defeats both.
        var round = 0
        while round < 256 {
            round += 1
            var progressed = false
            for id in ids {
                let muscle = catalogIndex.muscles[id]
                for session in sessions.indices where sessions[session].dayType.muscles.contains(muscle) {
                    guard remainingTarget(id) >= 1 else { break }
                    let before = counted[id]
                    fill(id, session: session, quota: min(cap, sessions[session].countedToday[id] + step))
                    if counted[id] > before + 1e-9 {
                        progressed = true
                        break
                    }
                }
            }
            if !progressed { return }
        }
    }

    // MARK: - The strength goal's main patterns

    /// For the strength goal at enough training days, each main pattern (squat, hinge,
    /// horizontal and vertical press) gets its weekly minimum of hard sets first, spread over the
    /// sessions that train its muscle, before accessories take the room (`exercise_choice.strength_patterns`).
    private mutating func planMainPatterns() {
        guard let patterns = rules.exerciseChoice.strengthPatterns, context.inputs.goal == patterns.goal,
              context.trainingDays >= patterns.fromDays, let weeklySets = patterns.weeklySets[context.inputs.experience] else { return }
        let minSets = rules.minSetsPerExercise
        for (pattern, muscleName) in patterns.patterns {
            guard let muscle = catalogIndex.trackedMuscleId(muscleName), let patternId = catalogIndex.patternId(pattern) else { continue }
            // Sessions that train the muscle and whose day role (if any) allows the pattern
            // (pull-day shoulders take rear-delt work only).
            let days = sessions.indices.filter {
                sessions[$0].dayType.muscles.contains(muscleName) && (sessions[$0].dayType.roles[muscleName]?.contains(pattern) ?? true)
            }
            var remaining = weeklySets
            for (rank, day) in days.enumerated() where remaining > 0 {
                // This session's share, rounded up; more than one exercise's maximum takes a
                // second exercise of the pattern (at most two a session).
                var want = max(minSets, (remaining + days.count - rank - 1) / (days.count - rank))
                var added = 0
                while want > 0, remaining > 0, added < 2 {
                    guard let (position, note) = candidates(muscle, session: day).first(where: { catalogIndex.facts[$0.0].pattern == patternId }) else { break }
                    let maximum = context.modifier.value.prescription(for: catalogIndex.facts[position].movement).maxSetsPerExercise
                    var desired = min(maximum, want)
                    // Leave no remainder too small for an exercise of its own (6 = 4 + 2, not 5 + 1).
                    let rest = want - desired
                    if rest > 0, rest < minSets, desired - (minSets - rest) >= minSets { desired -= minSets - rest }
                    let (sets, _) = capacity(of: position, in: day, desired: desired, isNew: true)
                    guard sets >= minSets else { break }
                    add(position, muscle: muscle, sets: sets, notes: note.map { [$0] } ?? [], in: day)
                    remaining -= sets
                    want -= sets
                    added += 1
                }
            }
            if remaining > 0 {
                note(muscle, "the \(pattern.replacingOccurrences(of: "_", with: " ")) pattern got \(weeklySets - remaining) of its \(weeklySets) weekly sets")
            }
        }
    }

    // MARK: - Filling one muscle in one session

    private func remainingTarget(_ muscle: Int) -> Double {
        Double(context.targetsById[muscle].target) - counted[muscle]
    }

    private mutating func fill(_ muscle: Int, session index: Int, quota: Double) {
        let minSets = rules.minSetsPerExercise
        var guardCount = 0
        while guardCount < 16 {
            guardCount += 1
            let need = min(quota - sessions[index].countedToday[muscle], remainingTarget(muscle))
            let want = (need - 1e-9).saturatingInt(.up)
            if want <= 0 { return }
            let existing = sessions[index].blocks.indices.filter { sessions[index].blocks[$0].muscle == muscle }
            // Exercises of the session that train the muscle as a primary mover, whichever muscle
            // they were planned for (a chin-up for the back is also a biceps exercise).
            let limit = maxExercisesPerSession[muscle]
            if exerciseCount(muscle, in: index) >= limit {
                let extended = extend(existing, in: index, by: want)
                if extended.added == 0 {
                    note(muscle, "at most \(limit) exercises per \(limit < rules.maxExercisesPerMusclePerSession ? "small " : "")muscle in a session"
                         + (extended.binding.map { ", and \($0)" } ?? ""))
                    return
                }
                continue
            }
            let candidates = self.candidates(muscle, session: index)
            if candidates.isEmpty {
                if context.safeCandidates[muscle].isEmpty {
                    note(muscle, noExerciseReason())
                } else if let role = sessions[index].dayType.roles[catalogIndex.muscles[muscle]], existing.isEmpty {
                    note(muscle, "on \(sessions[index].dayType.focus.lowercased()) days \(catalogIndex.muscles[muscle]) take only \(role.joined(separator: ", ")) work, and none fits")
                    return
                } else {
                    let extended = extend(existing, in: index, by: want)
                    if extended.added > 0 { continue }
                    // Every exercise that suits the muscle is already in today's session (some
                    // for other muscles), and its own blocks cannot grow: say which limit holds them.
                    note(muscle, extended.binding ?? "every \(catalogIndex.muscles[muscle]) exercise that fits is already in the session")
                }
                return
            }
            var chosen: (position: Int, sets: Int, note: String?)?
            var binding: String?
            for (position, swapNote) in candidates {
                let prescription = context.modifier.value.prescription(for: catalogIndex.facts[position].movement)
                let desired = min(prescription.maxSetsPerExercise, max(minSets, want))
                let (sets, bound) = capacity(of: position, in: index, desired: desired, isNew: true)
                if sets >= minSets {
                    chosen = (position, sets, swapNote)
                    break
                }
                if binding == nil { binding = bound }
            }
            guard let chosen else {
                let extended = extend(existing, in: index, by: want)
                if extended.added > 0 { continue }
                note(muscle, binding ?? extended.binding ?? "no exercise takes the \(minSets)-set minimum in the session")
                return
            }
            add(chosen.position, muscle: muscle, sets: chosen.sets, notes: chosen.note.map { [$0] } ?? [], in: index)
        }
    }

    /// How many of the session's exercises have the muscle among their primary muscles.
    private func exerciseCount(_ muscle: Int, in index: Int) -> Int {
        sessions[index].blocks.reduce(0) { $0 + (catalogIndex.facts[$1.position].muscles.contains(muscle) ? 1 : 0) }
    }

    /// Adds up to `count` sets to existing blocks (each up to its prescription's maximum);
    /// returns how many were added and, when none was, the limit that held the blocks.
    private mutating func extend(_ blockIndices: [Int], in index: Int, by count: Int) -> (added: Int, binding: String?) {
        var added = 0
        var binding: String?
        for blockIndex in blockIndices where added < count {
            let block = sessions[index].blocks[blockIndex]
            let maximum = context.modifier.value.prescription(for: catalogIndex.facts[block.position].movement).maxSetsPerExercise
            let room = maximum - block.sets
            guard room > 0 else {
                binding = binding ?? "its exercises are at their \(maximum)-set maximum"
                continue
            }
            let (sets, bound) = capacity(of: block.position, in: index, desired: min(room, count - added), isNew: false)
            guard sets > 0 else {
                binding = bound ?? binding
                continue
            }
            sessions[index].blocks[blockIndex].sets += sets
            account(block.position, sets: sets, in: index, isNew: false)
            added += sets
        }
        return (added, added > 0 ? nil : binding)
    }

    private mutating func add(_ position: Int, muscle: Int, sets: Int, notes: [String], in index: Int) {
        sessions[index].blocks.append(PlannedBlock(position: position, muscle: muscle, sets: sets, notes: notes))
        usage[muscle][position] += 1
        account(position, sets: sets, in: index, isNew: true)
    }

    private mutating func account(_ position: Int, sets: Int, in index: Int, isNew: Bool) {
        let facts = catalogIndex.facts[position]
        sessions[index].directSets += sets
        sessions[index].seconds += cost(of: facts, sets: sets, isNew: isNew)
        for muscle in facts.trackedMuscles {
            sessions[index].countedToday[muscle] += Double(sets) * direct
            counted[muscle] += Double(sets) * direct
            directSets[muscle] += sets
        }
        for muscle in facts.trackedSecondaryMuscles {
            sessions[index].countedToday[muscle] += Double(sets) * fraction
            counted[muscle] += Double(sets) * fraction
            indirectSets[muscle] += sets
        }
    }

    // MARK: - Limits

    private func rest(for movement: Exercise.Movement) -> Int {
        switch movement {
        case .compound: compoundRest
        case .isolation: isolationRest
        }
    }

    /// Seconds for `sets` more sets: a new exercise pays its transition and one rest less.
    private func cost(of facts: CatalogIndex.Facts, sets: Int, isNew: Bool) -> Int {
        let rest = rest(for: facts.movement)
        let perSet = facts.setSeconds + rest
        return isNew ? sets * perSet - rest + rules.transitionSeconds : sets * perSet
    }

    /// The most sets (≤ `desired`) this exercise can take here without breaking a session limit
    /// or pushing any muscle past its band's cap, and the limit that bound, if one did.
    private func capacity(of position: Int, in index: Int, desired: Int, isNew: Bool) -> (Int, String?) {
        let facts = catalogIndex.facts[position]
        let session = sessions[index]
        let limits = context.limits.value
        var sets = desired
        var binding: String?
        func bound(_ value: Int, _ reason: @autoclosure () -> String) {
            if value < sets {
                sets = max(0, value)
                binding = reason()
            }
        }
        bound(limits.maxSetsPerSession - session.directSets, "session limit of \(limits.maxSetsPerSession) sets reached")
        let rest = rest(for: facts.movement)
        let perSet = facts.setSeconds + rest
        let fixed = isNew ? rules.transitionSeconds - rest : 0
        let time = perSet > 0 ? (session.budgetSeconds - session.seconds - fixed) / perSet : sets
        bound(time, "session time limit of \(limits.maxMinutes) min reached")
        let muscleCap = Double(limits.maxSetsPerMusclePerSession)
        // The per-muscle cap that binds may be another muscle's (an overhead press stops when
        // the triceps are full, not the shoulders), so the reason names the muscle it protects.
        func sessionCap(_ muscle: Int) -> String {
            "more would push \(catalogIndex.muscles[muscle]) past \(limits.maxSetsPerMusclePerSession) sets in a session"
        }
        for muscle in facts.trackedMuscles {
            bound(((muscleCap - session.countedToday[muscle]) / direct + 1e-9).saturatingInt(.down), sessionCap(muscle))
            let band = context.targetsById[muscle].band
            bound(((Double(band.upperBound) - counted[muscle]) / direct + 1e-9).saturatingInt(.down),
                  "\(catalogIndex.muscles[muscle]) band cap of \(band.upperBound) sets")
        }
        if balancing, let balance = rules.exerciseChoice.balance, context.trainingDays <= balance.upToDays {
            bound(balanceRoom(for: facts, in: session, balance), "upper and lower body kept within \(RangeText.number(balance.maxRatio))× of each other in a session")
        }
        if fraction > 0 {
            for muscle in facts.trackedSecondaryMuscles {
                let band = context.targetsById[muscle].band
                bound(((Double(band.upperBound) - counted[muscle]) / fraction + 1e-9).saturatingInt(.down),
                      "\(catalogIndex.muscles[muscle]) band cap of \(band.upperBound) sets (as a secondary muscle)")
                bound(((muscleCap - session.countedToday[muscle]) / fraction + 1e-9).saturatingInt(.down), sessionCap(muscle))
            }
        }
        return (sets, binding)
    }

    /// How many more sets of this exercise keep the session's upper and lower halves within the
    /// balance ratio (sets credited to the half's muscles); unbounded for a session that trains
    /// only one half, or an exercise that trains both or neither.
    private func balanceRoom(for facts: CatalogIndex.Facts, in session: Session, _ balance: ExerciseChoiceRules.Balance) -> Int {
        let names = session.dayType.muscles
        guard names.contains(where: balance.upper.contains), names.contains(where: balance.lower.contains) else { return Int.max }
        func credited(_ half: Set<String>) -> Double {
            half.reduce(0) { sum, name in sum + (catalogIndex.trackedMuscleId(name).map { session.countedToday[$0] } ?? 0) }
        }
        let primary = facts.trackedMuscles.map { catalogIndex.muscles[$0] }
        let upper = primary.filter(balance.upper.contains).count
        let lower = primary.filter(balance.lower.contains).count
        guard (upper == 0) != (lower == 0) else { return Int.max }
        let (own, other, perSet) = upper > 0
            ? (credited(balance.upper), credited(balance.lower), Double(upper) * direct)
            : (credited(balance.lower), credited(balance.upper), Double(lower) * direct)
        guard perSet > 0 else { return Int.max }
        return ((balance.maxRatio * other - own) / perSet + 1e-9).saturatingInt(.down)
    }

    // MARK: - Choosing an exercise

    /// Exercises for `muscle` in this session, best first; the first carries a note when an
    /// injury changed what would have been chosen (a regression or a swap).
    private func candidates(_ muscle: Int, session index: Int) -> [(Int, String?)] {
        let session = sessions[index]
        // A session holds a handful of blocks, so plain arrays beat sets here.
        let usedToday = session.blocks.map(\.position)
        // A muscle at its exercise limit today (a small muscle at two) takes no further exercise
        // that trains it as a primary mover, whichever muscle asks.
        let full = catalogIndex.muscles.indices.filter { $0 != muscle && exerciseCount($0, in: index) >= maxExercisesPerSession[$0] }
        let patternsToday = session.blocks.filter { $0.muscle == muscle }.map { catalogIndex.facts[$0.position].pattern }
        let preferredNames = session.dayType.preferredPatterns[catalogIndex.muscles[muscle]] ?? []
        // A preferred pattern no catalog exercise uses can match nothing; only whether any was named matters then.
        let preference = Preference(anyNamed: !preferredNames.isEmpty, patterns: preferredNames.compactMap { catalogIndex.patternId($0) })
        let weekUsage = usage[muscle]
        // Each key is computed once per candidate, then the candidates are sorted by it.
        func ordered(_ positions: [Int]) -> [Int] {
            var keyed: [(key: (Int, Int, Int, Int, Int, Int), position: Int)] = []
            keyed.reserveCapacity(positions.count)
            for position in positions where !usedToday.contains(position) && !catalogIndex.facts[position].muscles.contains(where: full.contains) {
                keyed.append((key(position, muscle, patternsToday, preference, weekUsage), position))
            }
            keyed.sort { $0.key < $1.key }
            return keyed.map(\.position)
        }
        // A role limits the muscle to its patterns on this day (pull-day shoulders: rear delts).
        let role = session.dayType.roles[catalogIndex.muscles[muscle]].map { names in names.compactMap { catalogIndex.patternId($0) } }
        func inRole(_ positions: [Int]) -> [Int] {
            guard let role else { return positions }
            return positions.filter { role.contains(catalogIndex.facts[$0].pattern) }
        }
        let safe = ordered(inRole(context.safeCandidates[muscle]))
        guard let best = safe.first else { return [] }
        guard !context.injuries.isEmpty, let preferred = ordered(inRole(context.candidatesIgnoringInjuries[muscle])).first, preferred != best else {
            return safe.map { ($0, nil) }
        }
        let wanted = context.catalog.exercises[preferred]
        let flags = wanted.contraindicated.intersection(context.injuries).map(\.rawValue).sorted().joined(separator: ", ")
        let first: Int
        let note: String
        if let regression = regression(of: wanted, for: catalogIndex.muscles[muscle], excluding: usedToday),
           role?.contains(catalogIndex.facts[regression].pattern) ?? true {
            first = regression
            note = "\(context.catalog.exercises[regression].name) regresses \(wanted.name) (\(flags))"
        } else {
            first = safe.first { context.catalog.exercises[$0].pattern == wanted.pattern } ?? best
            note = "\(context.catalog.exercises[first].name) replaces \(wanted.name) (\(flags))"
        }
        return [(first, note)] + safe.filter { $0 != first }.map { ($0, nil) }
    }

    /// Selection order: a pattern the day type prefers for the muscle, loaded before
    /// bodyweight-only (core excepted), a pattern not yet trained today for it, compounds before
    /// isolations, least used this week, then catalog order.
    private func key(_ position: Int, _ muscle: Int, _ patternsToday: [Int], _ preferred: Preference, _ weekUsage: [Int]) -> (Int, Int, Int, Int, Int, Int) {
        let facts = catalogIndex.facts[position]
        return (!preferred.anyNamed || preferred.patterns.contains(facts.pattern) ? 0 : 1,
                bodyweightOnly[position] && !bodyweightMuscle[muscle] ? 1 : 0,
                patternsToday.contains(facts.pattern) ? 1 : 0, facts.movement == .compound ? 0 : 1,
                weekUsage[position], position)
    }

    /// The patterns a day type prefers for a muscle, as catalog pattern ids.
    private struct Preference {
        var anyNamed: Bool
        var patterns: [Int]
    }

    /// The first allowed exercise down the regression chain that still trains the muscle.
    private func regression(of exercise: Exercise, for muscle: String, excluding used: [Int]) -> Int? {
        var queue = exercise.regressions
        var seen: Set<String> = [exercise.id]
        var cursor = 0
        while cursor < queue.count {
            let id = queue[cursor]
            cursor += 1
            guard seen.insert(id).inserted, let position = context.catalog.position(of: id) else { continue }
            let candidate = context.catalog.exercises[position]
            if candidate.kind == .strength, candidate.muscles.contains(muscle), context.isAvailable(candidate),
               !used.contains(position) {
                return position
            }
            queue.append(contentsOf: candidate.regressions)
        }
        return nil
    }

    private mutating func note(_ muscle: Int, _ reason: String) {
        let name = catalogIndex.muscles[muscle]
        if !reasons[name, default: []].contains(reason) { reasons[name, default: []].append(reason) }
    }

    private func noExerciseReason() -> String {
        var text = "no exercise in the catalog fits \(context.inputs.equipment.rawValue)"
        if !context.inputs.injuries.isEmpty {
            text += " with \(context.inputs.injuries.map(\.rawValue).joined(separator: ", ")) flagged"
        }
        return text
    }

    // MARK: - Assembling the week

    private func assemble() -> TrainingWeek {
        let modifier = context.modifier
        var workouts: [Workout] = []
        var allNotes: [String] = []
        let shown = ShownPrescriptions(context: context)
        for (offset, session) in sessions.enumerated() {
            // The loader rejects a muscle listed twice in a day type; should one reach here anyway
            // (`DayType` has a public initializer), its first place counts rather than trapping.
            let order = Dictionary(session.dayType.muscles.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            // Each block's place is looked up once; the sort then compares plain integers.
            let places = session.blocks.enumerated().map { offset, planned in
                (rank: order[catalogIndex.muscles[planned.muscle]] ?? Int.max, offset: offset)
            }.sorted { ($0.rank, $0.offset) < ($1.rank, $1.offset) }
            var blocks: [WorkoutBlock] = []
            blocks.reserveCapacity(places.count + 1)
            for place in places { blocks.append(block(from: session.blocks[place.offset], shown: shown)) }
            var seconds = session.seconds + rules.warmupSeconds
            if let finisher = finisherBlock() {
                blocks.append(finisher)
                seconds += modifier.value.finisherMinutes * 60
            }
            let compact = CompactVariantBuilder(context: context).variant(for: blocks, shown: shown, roles: session.dayType.roles)
            if let compact {
                // A compact variant holds a handful of blocks, so a plain search beats hashing keys.
                let kept = compact.groups.flatMap(\.blocks)
                for index in blocks.indices {
                    blocks[index].altCompact = kept.contains { $0.muscle == blocks[index].muscle && $0.exerciseId == blocks[index].exerciseId }
                }
            }
            for block in blocks { allNotes.append(contentsOf: block.notes.map { "Day \(offset + 1): \($0)" }) }
            workouts.append(Workout(
                day: offset + 1, focus: session.dayType.focus, isRecovery: false, blocks: blocks,
                estimatedMinutes: (seconds + 59) / 60, compact: compact,
                sources: [context.split.source, context.limits.source]))
        }
        for extra in 0..<context.recoveryDays {
            workouts.append(recoveryWorkout(day: sessions.count + extra + 1))
        }
        if context.recoveryDays > 0 { allNotes.append(rules.recoveryNote) }

        let volume = rules.trackedMuscles.map(volume(for:))
        var tips: [String] = []
        let short = volume.filter(\.isShort)
        if !short.isEmpty {
            let names = short.map(\.muscle).joined(separator: ", ")
            // Below the most training days, TrainingPlanner names the fewest days that close the
            // gap (it plans them to know).
            if context.trainingDays >= rules.maxTrainingDays.value {
                tips.append(Self.unreachableTip(names, splitOptions: context.split.value.allowed))
            }
            if short.contains(where: { $0.shortfallReasons.contains(noExerciseReason()) }) {
                tips.append("More equipment (for example resistance bands) opens exercises for \(names)")
            }
        }
        for muscle in volume where muscle.injuryAdjustment != nil {
            allNotes.append("\(muscle.muscle): weekly sets cut for injury (\(muscle.injuryAdjustment ?? "")), band \(RangeText.of(muscle.band))")
        }
        return TrainingWeek(
            split: TrainingWeek.Split(
                templateId: context.template.id, name: context.template.name, requestedDays: context.requestedDays,
                trainingDays: context.trainingDays, recoveryDays: context.recoveryDays,
                options: context.split.value.allowed.filter { $0 != context.template.id }, source: context.split.source),
            inputs: context.inputs, workouts: workouts, volume: volume, notes: allNotes, tips: tips,
            assumptions: context.assumptions, setCredit: rules.setCredit.value, cautions: context.cautions)
    }

    static func unreachableTip(_ names: String, splitOptions: [String]) -> String {
        "\(names) cannot reach the weekly set band within the session limits; try the split options \(splitOptions.joined(separator: ", "))"
    }

    private func volume(for muscle: String) -> MuscleVolume {
        let target = context.muscleTargets[muscle]
        let band = target?.band ?? 0...0
        let id = catalogIndex.trackedMuscleId(muscle)
        let planned = id.map { counted[$0] } ?? 0
        let sessionsTraining = sessions.filter { $0.dayType.muscles.contains(muscle) }.count
        var why: [String] = []
        if planned + 1e-9 < Double(band.lowerBound) {
            let cap = context.limits.value.maxSetsPerMusclePerSession
            if sessionsTraining == 0 {
                why.append("no session of the \(context.template.name) split trains \(muscle)")
            } else if sessionsTraining * cap < band.lowerBound {
                why.append("trained in \(sessionsTraining) session(s) a week at most \(cap) sets each, below the band's \(band.lowerBound)")
            }
            why.append(contentsOf: reasons[muscle, default: []])
            if why.isEmpty { why.append("session limits") }
        }
        return MuscleVolume(
            muscle: muscle, band: band, target: target?.target ?? 0, planned: planned,
            directSets: id.map { directSets[$0] } ?? 0, indirectSets: id.map { indirectSets[$0] } ?? 0, sessions: sessionsTraining, shortfallReasons: why,
            sources: (target?.sources ?? []) + [rules.setCredit.source], injuryAdjustment: target?.injuryAdjustment,
            contributions: id.map(contributions(to:)) ?? [])
    }

    /// Each exercise's share of a muscle's weekly sets, in the week's order: direct sets count
    /// the direct credit, a secondary mover's the indirect one.
    private func contributions(to muscle: Int) -> [String] {
        var order: [Int] = []
        var sets: [Int: (direct: Int, indirect: Int)] = [:]
        for block in sessions.flatMap(\.blocks) {
            let facts = catalogIndex.facts[block.position]
            let isDirect = facts.trackedMuscles.contains(muscle)
            guard isDirect || facts.trackedSecondaryMuscles.contains(muscle) else { continue }
            if sets[block.position] == nil { order.append(block.position) }
            var entry = sets[block.position] ?? (0, 0)
            if isDirect { entry.direct += block.sets } else { entry.indirect += block.sets }
            sets[block.position] = entry
        }
        return order.map { position in
            let entry = sets[position] ?? (0, 0)
            let name = context.catalog.exercises[position].name
            return entry.direct > 0 ? "\(name) \(entry.direct) direct" : "\(name) \(entry.indirect) × \(RangeText.number(fraction))"
        }
    }

    private func block(from planned: PlannedBlock, shown: ShownPrescriptions) -> WorkoutBlock {
        let exercise = context.catalog.exercises[planned.position]
        let prescription = shown[exercise.movement]
        var sources = [context.split.source]
        let muscle = catalogIndex.muscles[planned.muscle]
        if let target = context.muscleTargets[muscle] { sources.append(contentsOf: target.sources) }
        sources.append(context.limits.source)
        if let rest = prescription.restSource { sources.append(rest) }
        sources.append(rules.selectionPolicy)
        return WorkoutBlock(
            muscle: muscle, exerciseId: exercise.id, exerciseName: exercise.name, sets: planned.sets,
            reps: shown.reps(for: exercise, muscle: muscle, rules: rules.exerciseChoice),
            rir: exercise.hold == nil ? prescription.rir : nil, altCompact: false,
            movement: exercise.movement, kind: exercise.kind, sources: sources, notes: planned.notes)
    }

    private func finisherBlock() -> WorkoutBlock? {
        let modifier = context.modifier
        guard modifier.value.finisherMinutes > 0 else { return nil }
        for id in modifier.value.finisherOptions {
            guard let exercise = context.catalog[id], context.equipmentTags.isSuperset(of: exercise.equipment),
                  exercise.contraindicated.isDisjoint(with: context.injuries) else { continue }
            return WorkoutBlock(
                muscle: exercise.muscles.first ?? "conditioning", exerciseId: exercise.id, exerciseName: exercise.name,
                sets: 1, reps: "\(modifier.value.finisherMinutes) min", rir: nil, altCompact: false,
                movement: exercise.movement, kind: exercise.kind, sources: [modifier.source], notes: [])
        }
        return nil
    }

    private func recoveryWorkout(day: Int) -> Workout {
        var blocks: [WorkoutBlock] = []
        var seconds = 0
        for recovery in rules.recoveryBlocks {
            for id in recovery.options {
                guard let exercise = context.catalog[id], context.equipmentTags.isSuperset(of: exercise.equipment),
                      exercise.contraindicated.isDisjoint(with: context.injuries) else { continue }
                blocks.append(WorkoutBlock(
                    muscle: exercise.muscles.first ?? exercise.kind.rawValue, exerciseId: exercise.id,
                    exerciseName: exercise.name, sets: recovery.sets, reps: exercise.hold.map(RangeText.hold) ?? "",
                    rir: nil, altCompact: false, movement: exercise.movement, kind: exercise.kind,
                    sources: [rules.recoverySource], notes: []))
                seconds += exercise.setSeconds * recovery.sets
                break
            }
        }
        let focus = rules.dayTypes[rules.recoveryTemplate]?.focus ?? "Active recovery"
        return Workout(
            day: day, focus: focus, isRecovery: true, blocks: blocks, estimatedMinutes: (seconds + 59) / 60,
            compact: nil, sources: [rules.maxTrainingDays.source, rules.recoverySource])
    }
}
