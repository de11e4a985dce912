import Foundation
import OrderedCollections
import RegimenLanguage

/// What one adaptation applied, written into the patched plan under `adaptations` so that the
/// same evidence never changes a plan twice: running `adapt` again on its own output with the
/// same check-ins is a no-op with a note, and a rule that already fired on a check-in, a sore
/// region or a logged lift does not fire again on it (a rolling window of check-ins does not
/// compound the weekly cut).
///
/// ```yaml
/// adaptations:
///   - week: 3
///     checkins: [2026-03-02, 2026-03-03]
///     sessions: [2026-03-02 day 2]
///     input: 9f1c0a3b5e7d2c41        # fingerprint of the whole request
///     deload_week: 3                 # only when the run deloaded
///     applied:
///       - {rule: low_readiness_week, basis: [2026-03-02, 2026-03-03, week 3]}
/// ```
struct AdaptationRecord: Sendable, Hashable {
    struct Applied: Sendable, Hashable {
        var rule: String
        /// The evidence the rule fired on: check-in keys, `week N`, `<check-in> <region>`,
        /// `<session> <exercise>`.
        var basis: [String]
    }

    var week: Int?
    var checkins: [String]
    var sessions: [String]
    var fingerprint: String
    var deloadWeek: Int?
    var applied: [Applied]
    /// Every block's sets and RIR as they were before the deload (only when the run deloaded),
    /// so that the week after gets the plan back.
    var beforeDeload: [BlockState] = []

    /// One block's prescription, by its place in the document.
    struct BlockState: Sendable, Hashable {
        var workout: Int
        var block: Int
        var sets: Int
        var rir: String?
    }

    /// The record as the plan document stores it.
    var value: Value {
        var map: OrderedDictionary<String, Value> = [:]
        if let week { map["week"] = .int(Int64(week)) }
        map["checkins"] = .list(checkins.map(Value.string))
        map["sessions"] = .list(sessions.map(Value.string))
        map["input"] = .string(fingerprint)
        if let deloadWeek { map["deload_week"] = .int(Int64(deloadWeek)) }
        if !beforeDeload.isEmpty {
            map["before_deload"] = .list(beforeDeload.map { state in
                var entry: OrderedDictionary<String, Value> = [
                    "workout": .int(Int64(state.workout)), "block": .int(Int64(state.block)), "sets": .int(Int64(state.sets)),
                ]
                if let rir = state.rir { entry["rir"] = .string(rir) }
                return .map(entry)
            })
        }
        map["applied"] = .list(applied.map { .map(["rule": .string($0.rule), "basis": .list($0.basis.map(Value.string))]) })
        return .map(map)
    }

    init(week: Int?, checkins: [String], sessions: [String], fingerprint: String, deloadWeek: Int?, applied: [Applied], beforeDeload: [BlockState] = []) {
        self.beforeDeload = beforeDeload
        self.week = week
        self.checkins = checkins
        self.sessions = sessions
        self.fingerprint = fingerprint
        self.deloadWeek = deloadWeek
        self.applied = applied
    }

    /// Reads a stored record; entries that are not records are ignored (a hand-edited plan
    /// simply loses the protection of the entry, never the adaptation).
    init?(value: Value) {
        guard case .map(let map) = value, let fingerprint = map["input"]?.stringValue else { return nil }
        self.fingerprint = fingerprint
        // Weeks outside what a request may give (1–520) are not trusted.
        func weekNumber(_ value: Value?) -> Int? { value?.intValue.flatMap { (1...520).contains($0) ? Int($0) : nil } }
        week = weekNumber(map["week"])
        checkins = (map["checkins"]?.listValue ?? []).compactMap(\.stringValue)
        sessions = (map["sessions"]?.listValue ?? []).compactMap(\.stringValue)
        deloadWeek = weekNumber(map["deload_week"])
        beforeDeload = (map["before_deload"]?.listValue ?? []).compactMap { entry in
            guard let workout = entry["workout"]?.intValue, let block = entry["block"]?.intValue, let sets = entry["sets"]?.intValue,
                  (0...10_000).contains(workout), (0...10_000).contains(block), (0...1000).contains(sets) else { return nil }
            return BlockState(workout: Int(workout), block: Int(block), sets: Int(sets), rir: entry["rir"]?.stringValue)
        }
        applied = (map["applied"]?.listValue ?? []).compactMap { entry in
            guard let rule = entry["rule"]?.stringValue else { return nil }
            return Applied(rule: rule, basis: (entry["basis"]?.listValue ?? []).compactMap(\.stringValue))
        }
    }
}

/// How the evidence of an adaptation request is named in records.
enum EvidenceKey {
    /// A check-in: its date, or its content when it has none.
    static func checkIn(_ checkIn: CheckIn) -> String {
        checkIn.date ?? "undated(sleep \(ValueText.number(checkIn.sleepHours)), stress \(checkIn.stress), motivation \(checkIn.motivation)"
            + checkIn.soreness.map { ", \($0.key) \($0.value)" }.joined()
            + (checkIn.weightKg.map { ", \(ValueText.number($0)) kg" } ?? "") + ")"
    }

    /// A logged session: its date and plan day, or its content when it has no date.
    static func session(_ session: LoggedSession) -> String {
        let day = session.day.map { " day \($0)" } ?? ""
        if let date = session.date { return date + day }
        let content = session.exercises.map { exercise in
            exercise.exerciseId + ":" + exercise.sets.map { "\($0.loadKg.map { ValueText.number($0) } ?? "-")x\($0.reps)" }.joined(separator: ",")
        }.joined(separator: ";")
        return "undated\(day)(\(content))"
    }

    /// A stable fingerprint of the whole request (FNV-1a, 64 bits): the same request gives the
    /// same fingerprint on every machine and run.
    static func fingerprint(_ input: AdaptationInput) -> String {
        var text = "week \(input.week.map(String.init) ?? "-") next \(input.nextDay.map(String.init) ?? "-")"
        text += " adherence \(input.adherencePct.map { ValueText.number($0) } ?? "-") trend \(input.weightTrend?.rawValue ?? "-")"
        text += " lagging \(input.laggingMuscles.joined(separator: ","))"
        // Fields a request before them could not have: spelled only when given, so that older
        // plans' records keep their fingerprints.
        if let goal = input.goal { text += " goal \(goal)" }
        if let start = input.startDate { text += " start \(start)" }
        for item in input.checkIns {
            text += " | " + Self.checkIn(item)
            if item.date != nil, let kg = item.weightKg { text += " \(ValueText.number(kg)) kg" }
            if let intake = item.intakeKcal { text += " \(ValueText.number(intake)) kcal" }
        }
        for item in input.sessions {
            text += " | " + Self.session(item) + " " + item.exercises.map { exercise in
                exercise.exerciseId + "/" + (exercise.muscle ?? "") + "(" + (exercise.feel?.rawValue ?? "") + ")" + exercise.sets.map {
                    "\($0.loadKg.map { ValueText.number($0) } ?? "-")x\($0.reps)@\($0.rir.map { ValueText.number($0) } ?? "-")"
                }.joined(separator: ",")
            }.joined(separator: ";")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }
}
