import Foundation
import OrderedCollections
package import RegimenLanguage
package import RegimenRules

extension SessionFeel: NodeEnum {}
extension WeightTrend: NodeEnum {}

/// Reads the check-ins file of `regimen adapt` (YAML or JSON): the `adaptPlan` request
/// (docs/requirements.md#adaptplan) without the plan, with a week of check-ins and logged
/// sessions.
///
/// ```yaml
/// week: 3                        # week of the training block (deload rules)
/// next_day: 2                    # the plan day trained next
/// last_week_adherence_pct: 85
/// weight_trend_2w: above         # below | on_target | above (overrides the measured trend)
/// goal: fat_loss                 # when the plan does not carry its goal
/// start_date: 2026-02-16         # week 1's first day; the week follows from it without `week:`
/// lagging_muscles: [chest]
/// checkins:                      # or `readiness:` with a single check-in, as in the seed
///   - {date: 2026-03-02, sleep_h: 6.5, soreness: {legs: 5}, stress: 3, motivation: 3, weight_kg: 78.4, intake_kcal: 1900}
/// sessions:
///   - date: 2026-03-02
///     day: 2
///     exercises:
///       - exerciseId: back_squat
///         muscle: quads          # the block's muscle (optional; when the plan uses the
///                                # exercise for two muscles and `day` does not tell them apart)
///         feel: easy             # easy | ok | hard (optional)
///         sets: [{load_kg: 100, reps: 10, rir: 2}]
/// ```
/// Every problem is reported at once with its location; unknown keys are errors.
package enum AdaptationInputDecoder {
    /// Decodes check-ins text; `file` names it in locations.
    package static func decode(text: String, file: String) throws(AdaptationInputError) -> AdaptationInput {
        let read = YAMLReader.read(text, file: file)
        let errors = read.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let document = read.document else {
            throw AdaptationInputError(errors.isEmpty ? [.error("input.empty", "the check-ins file is empty", at: SourceLocation(file: file, line: 1, column: 1))] : errors)
        }
        return try decode(document)
    }

    /// Decodes the whole `adaptPlan` request (docs/requirements.md#adaptplan): `current_plan` (a
    /// `regimen plan` document) beside the check-ins, logged sessions, adherence and weight trend.
    /// `planNode` is `current_plan` as read, with the place of each of its fields, so that the
    /// plan's problems carry their line and column.
    package static func decodeRequest(text: String, file: String) throws(AdaptationInputError) -> (plan: Value, planNode: LocatedNode, input: AdaptationInput) {
        let read = YAMLReader.read(text, file: file)
        let errors = read.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let document = read.document else {
            throw AdaptationInputError(errors.isEmpty ? [.error("input.empty", "the request is empty", at: SourceLocation(file: file, line: 1, column: 1))] : errors)
        }
        var plan: LocatedNode?
        let input = try decode(document, plan: &plan)
        guard let plan else {
            throw AdaptationInputError([Diagnostic.error("input.missing", "'current_plan' is missing: the request needs the plan to adapt (or give the plan and the check-ins as two files)", at: document.location)])
        }
        return (plan.value(), plan, input)
    }

    /// Decodes a located YAML/JSON tree.
    package static func decode(_ document: LocatedNode) throws(AdaptationInputError) -> AdaptationInput {
        var noPlan: LocatedNode?
        return try decode(document, plan: &noPlan, allowingPlan: false)
    }

    /// `plan` receives `current_plan` when `allowingPlan` (otherwise the key is unknown).
    private static func decode(_ document: LocatedNode, plan: inout LocatedNode?, allowingPlan: Bool = true) throws(AdaptationInputError) -> AdaptationInput {
        let context = DecodingContext()
        var found: LocatedNode?
        let input = read(document, in: context, plan: &found, allowingPlan: allowingPlan)
        let errors = context.diagnostics.filter { $0.severity == .error }.sorted(by: Diagnostic.sortKey)
        guard errors.isEmpty, let input else { throw AdaptationInputError(errors) }
        plan = found
        return input
    }

    /// The check-ins file's shape (JSON Schema for editors), described from the very decoder
    /// that reads it (see ``ShapeRecorder``).
    package static var shape: NodeShape {
        let context = DecodingContext.describing()
        return context.shape { node in
            var found: LocatedNode?
            _ = read(node, in: context, plan: &found, allowingPlan: false)
        }
    }

    /// Reads the input's keys; `found` receives `current_plan` when `allowingPlan`.
    private static func read(_ document: LocatedNode, in context: DecodingContext, plan found: inout LocatedNode?, allowingPlan: Bool) -> AdaptationInput? {
        context.mapping(document, at: DecodingPath()) { map -> AdaptationInput? in
            if allowingPlan, let node = map.node("current_plan") { found = node }
            let week = map.optional("week", as: Int.self, in: 1...520)
            let nextDay = map.optional("next_day", as: Int.self, in: 1...7)
            let adherence = map.optional("last_week_adherence_pct", as: Double.self, in: 0...100)
            let trend = map.optional("weight_trend_2w", as: WeightTrend.self)
            let lagging = map.optional("lagging_muscles", default: [String]())
            let goal = map.optional("goal", as: String.self)
            let startDate = map.optional("start_date", as: String.self)
            if let startDate, CalendarDay(startDate) == nil {
                context.error("input.date", DecodingPath(keyPath: "start_date").message("must be a date written YYYY-MM-DD, not '\(startDate)'"), at: map.node("start_date")?.location)
            }
            var checkIns = map.list("checkins", required: false) { node, path in checkIn(node, at: path, context) } ?? []
            rejectDuplicateDates(map.node("checkins"), context)
            if let single = map.node("readiness"), let one = checkIn(single, at: DecodingPath(keyPath: "readiness"), context) {
                checkIns.append(one)
            }
            let sessions = map.list("sessions", required: false) { node, path in session(node, at: path, context) } ?? []
            var input = AdaptationInput(checkIns: checkIns, sessions: sessions, adherencePct: adherence, weightTrend: trend, week: week,
                                        nextDay: nextDay, laggingMuscles: lagging, goal: goal, startDate: startDate)
            input.fieldLocations = fieldLocations(document, singleCheckInIndex: map.node("readiness") == nil ? nil : checkIns.count - 1)
            return input
        }
    }

    /// Where each field of the input is written, by the field paths the adaptation's checks name
    /// (`checkins[0].soreness.legs`; the seed's single `readiness:` check-in is the last of
    /// `checkins`). The plan under `current_plan` is left out: its problems are the plan's.
    static func fieldLocations(_ document: LocatedNode, singleCheckInIndex: Int?) -> FieldLocations {
        var locations = FieldLocations()
        // An explicit stack instead of recursion: the input's nesting is the reader's to bound.
        var pending: [(path: String, node: LocatedNode)] = []
        for pair in document.mapping ?? [] {
            guard let key = pair.key.scalar?.text, key != "current_plan" else { continue }
            let path = key == "readiness" ? singleCheckInIndex.map { "checkins[\($0)]" } ?? key : key
            locations.byPath[path] = pair.value.location
            pending.append((path, pair.value))
        }
        while let (path, node) = pending.popLast() {
            if let pairs = node.mapping {
                for pair in pairs {
                    guard let key = pair.key.scalar?.text else { continue }
                    locations.byPath[path + "." + key] = pair.value.location
                    pending.append((path + "." + key, pair.value))
                }
            } else if let items = node.sequence {
                for (index, item) in items.enumerated() {
                    locations.byPath[path + "[\(index)]"] = item.location
                    pending.append((path + "[\(index)]", item))
                }
            }
        }
        return locations
    }

    /// One check-in per date: a second one would count the same day twice (two low days from
    /// one bad night). The error points at the second date and names the first.
    private static func rejectDuplicateDates(_ list: LocatedNode?, _ context: DecodingContext) {
        var first: [String: (index: Int, location: SourceLocation)] = [:]
        for (index, item) in (list?.sequence ?? []).enumerated() {
            guard let dateNode = item["date"], let date = dateNode.scalar?.text, CalendarDay(date) != nil else { continue }
            if let earlier = first[date] {
                context.error("input.duplicate", DecodingPath(keyPath: "checkins[\(index)].date").message(
                    "\(date) is already the date of checkins[\(earlier.index)] (line \(earlier.location.line)); give one check-in per day"),
                    at: dateNode.location)
            } else {
                first[date] = (index, dateNode.location)
            }
        }
    }

    private static func checkIn(_ node: LocatedNode, at path: DecodingPath, _ context: DecodingContext) -> CheckIn? {
        context.mapping(node, at: path) { map -> CheckIn? in
            let date = map.optional("date", as: String.self)
            if let date, CalendarDay(date) == nil {
                context.error("input.date", map.path.appending(key: "date").message("must be a date written YYYY-MM-DD, not '\(date)'"), at: map.node("date")?.location)
            }
            let sleep = map.required("sleep_h", as: Double.self, in: 0...24)
            let stress = map.required("stress", as: Int.self, in: 1...5)
            let motivation = map.required("motivation", as: Int.self, in: 1...5)
            let weight = map.optional("weight_kg", as: Double.self, in: 20...400)
            let intake = map.optional("intake_kcal", as: Double.self, in: 0...20_000)
            var soreness: OrderedDictionary<String, Int> = [:]
            if let sorenessNode = map.node("soreness") {
                _ = context.mapping(sorenessNode, at: map.path.appending(key: "soreness")) { regions -> Bool? in
                    for region in regions.keys {
                        if let level = regions.required(region, as: Int.self, in: 1...5) { soreness[region] = level }
                    }
                    return true
                }
            }
            guard let sleep, let stress, let motivation else { return nil }
            return CheckIn(date: date, sleepHours: sleep, soreness: soreness, stress: stress, motivation: motivation, weightKg: weight, intakeKcal: intake)
        }
    }

    private static func session(_ node: LocatedNode, at path: DecodingPath, _ context: DecodingContext) -> LoggedSession? {
        context.mapping(node, at: path) { map -> LoggedSession? in
            let date = map.optional("date", as: String.self)
            if let date, CalendarDay(date) == nil {
                context.error("input.date", map.path.appending(key: "date").message("must be a date written YYYY-MM-DD, not '\(date)'"), at: map.node("date")?.location)
            }
            let day = map.optional("day", as: Int.self, in: 1...7)
            let exercises = map.list("exercises") { node, path in
                context.mapping(node, at: path) { exercise -> LoggedExercise? in
                    let id = exercise.required("exerciseId", as: String.self)
                    let feel = exercise.optional("feel", as: SessionFeel.self)
                    let muscle = exercise.optional("muscle", as: String.self)
                    let sets = exercise.list("sets") { node, path in
                        context.mapping(node, at: path) { set -> LoggedSet? in
                            let load = set.optional("load_kg", as: Double.self, in: PlanView.plausible.loadKg)
                            let reps = set.required("reps", as: Int.self, in: 0...100)
                            let rir = set.optional("rir", as: Double.self, in: 0...10)
                            return reps.map { LoggedSet(loadKg: load, reps: $0, rir: rir) }
                        }
                    }
                    guard let id, let sets else { return nil }
                    if sets.isEmpty {
                        context.error("input.empty", exercise.path.appending(key: "sets").message("needs at least one set"), at: exercise.node.location)
                        return nil
                    }
                    return LoggedExercise(exerciseId: id, sets: sets, feel: feel, muscle: muscle)
                }
            }
            guard let exercises else { return nil }
            return LoggedSession(date: date, day: day, exercises: exercises)
        }
    }
}
