import RegimenLanguage
import OrderedCollections

/// The input checked against the plan: dates, ranges, regions, days and muscles. Every problem
/// at once, each naming the field, the value and what is allowed, located where the input was
/// written when it was read from a file.
extension AdaptationEngine {
    /// Two check-ins of one date would count one day twice (two low days from one bad night):
    /// each date may appear once.
    func duplicateDateProblems(_ input: AdaptationInput, into problems: inout InputProblems) {
        var firstIndex: [String: Int] = [:]
        for (i, checkIn) in input.checkIns.enumerated() {
            guard let date = checkIn.date else { continue }
            if let first = firstIndex[date] {
                problems.add("checkins[\(i)].date", "\(date) is already the date of checkins[\(first)]; give one check-in per day")
            } else {
                firstIndex[date] = i
            }
        }
    }

    /// Every problem of the input at once, each naming the field, the value and what is allowed.
    func validate(_ input: AdaptationInput, plan: PlanView) throws(AdaptationInputError) {
        var problems = InputProblems(locations: input.fieldLocations)
        let muscles = Set(plan.allBlocks.map(\.muscle)).union(plan.bands.keys)
        // A check-in may name a region, or any muscle a region covers or the plan trains.
        let regionNames = readiness.regions.map(\.region)
        let soreNames = Set(regionNames).union(readiness.regions.flatMap(\.muscles)).union(muscles)
        for (i, checkIn) in input.checkIns.enumerated() {
            let path = "checkins[\(i)]"
            if let date = checkIn.date, CalendarDay(date) == nil {
                problems.add("\(path).date", "'\(date)' is not a date written YYYY-MM-DD")
            }
            if !(0...24).contains(checkIn.sleepHours) || checkIn.sleepHours.isNaN {
                problems.add("\(path).sleep_h", "\(ValueText.number(checkIn.sleepHours)) is outside 0–24 hours")
            }
            if !(1...5).contains(checkIn.stress) { problems.add("\(path).stress", "\(checkIn.stress) is outside 1–5") }
            if !(1...5).contains(checkIn.motivation) { problems.add("\(path).motivation", "\(checkIn.motivation) is outside 1–5") }
            for (region, level) in checkIn.soreness {
                if !(1...5).contains(level) { problems.add("\(path).soreness.\(region)", "\(level) is outside 1–5") }
                if !soreNames.contains(region) {
                    let known = (regionNames + soreNames.subtracting(regionNames).sorted()).joined(separator: ", ")
                    problems.add("\(path).soreness.\(region)", "unknown region; known regions: \(known)")
                }
            }
        }
        for (s, session) in input.sessions.enumerated() {
            let path = "sessions[\(s)]"
            if let date = session.date, CalendarDay(date) == nil {
                problems.add("\(path).date", "'\(date)' is not a date written YYYY-MM-DD")
            }
            if let day = session.day, !plan.days.contains(where: { $0.day == day }) {
                problems.add("\(path).day", "\(day) is not a day of the plan (\(plan.days.map { String($0.day) }.joined(separator: ", ")))")
            }
            for (e, exercise) in session.exercises.enumerated() {
                if exercise.sets.isEmpty { problems.add("\(path).exercises[\(e)].sets", "at least one set is needed") }
                for (k, set) in exercise.sets.enumerated() {
                    let setPath = "\(path).exercises[\(e)].sets[\(k)]"
                    if set.reps < 0 || set.reps > 100 { problems.add("\(setPath).reps", "\(set.reps) is outside 0–100") }
                    if let load = set.loadKg, !PlanView.plausible.loadKg.contains(load) { problems.add("\(setPath).load_kg", "\(ValueText.number(load)) is outside 0–1000") }
                    if let rir = set.rir, !(0...10).contains(rir) { problems.add("\(setPath).rir", "\(ValueText.number(rir)) is outside 0–10") }
                }
            }
        }
        if let adherence = input.adherencePct, !(0...100).contains(adherence) {
            problems.add("last_week_adherence_pct", "\(ValueText.number(adherence)) is outside 0–100")
        }
        if let week = input.week, week < 1 { problems.add("week", "\(week) must be 1 or more") }
        if let next = input.nextDay, !plan.days.contains(where: { $0.day == next }) {
            problems.add("next_day", "\(next) is not a day of the plan")
        }
        duplicateDateProblems(input, into: &problems)
        for (i, muscle) in input.laggingMuscles.enumerated() where !muscles.contains(muscle) {
            problems.add("lagging_muscles", "'\(muscle)' is not a muscle of the plan", locatedAt: "lagging_muscles[\(i)]")
        }
        if !problems.diagnostics.isEmpty { throw AdaptationInputError(problems.diagnostics) }
    }
}

/// Problems of an input, each located at its field when the input was read from a file.
struct InputProblems {
    let locations: FieldLocations
    var diagnostics: [Diagnostic] = []

    /// A problem of the field at `path`; the message starts with the path either way.
    mutating func add(_ path: String, _ text: String, locatedAt locationPath: String? = nil) {
        diagnostics.append(.error("input.invalid", "\(path): \(text)", at: locations.location(of: locationPath ?? path)))
    }
}
