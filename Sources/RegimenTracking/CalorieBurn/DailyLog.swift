package import Foundation
public import RegimenLanguage
import OrderedCollections

/// A food item of the daily log (the food list the log already kept before activities joined it).
package struct FoodEntry: Sendable, Hashable {
    package var name: String
    package var kcal: Double
    package var timestamp: Timestamp

}

/// One day's balance: consumed, burned and net = consumed − burned
/// (docs/requirements.md#daily-log).
public struct DailySummary: Sendable, Hashable {
    /// The day, as midnight UTC of the same calendar date (requirement 6.6: entries are
    /// normalized to midnight); the date is the local one of the log's time zone.
    public var date: Timestamp
    var foods: [FoodEntry]
    /// The day's workouts with their burn.
    public var workouts: [BurnResult]
    /// Kilocalories eaten that day.
    public var consumed: Double
    /// Kilocalories burned by that day's workouts.
    public var burned: Int64
    /// Consumed minus burned kilocalories.
    public var net: Double

    /// `deficit` (net < 0, shown green), `surplus` (net > 0, shown red) or `balanced`.
    public var balance: String { net < 0 ? "deficit" : net > 0 ? "surplus" : "balanced" }

    /// The day as the `daily-log` contract's JSON object.
    public var value: Value {
        Value.orderedMap([
            ("date", .string(String(date.description.prefix(10)))),
            ("foods", .list(foods.map {
                Value.orderedMap([("name", .string($0.name)), ("kcal", .float($0.kcal)), ("timestamp", .timestamp($0.timestamp))])
            })),
            ("workouts", .list(workouts.map(\.value))),
            ("consumed", .float(consumed)), ("burned", .int(burned)), ("net", .float(net)),
            ("balance", .string(balance)),
        ])
    }
}

/// A problem with one entry of a daily log, named by its list and zero-based position.
package struct LogProblem: Sendable, Hashable, CustomStringConvertible {
    /// The entry named by a problem of the whole log (its root keys, its weight).
    package static let wholeLog = "log"

    /// `foods[0]`, `workouts[1]` (counted from 0), or ``wholeLog``.
    package var entry: String
    package var message: String
    package var description: String { "\(entry): \(message)" }
}

/// Groups food and workout entries by day and totals them.
package struct DailyLogCalculator: Sendable {
    let calculator: CalorieBurnCalculator

    package init(calculator: CalorieBurnCalculator) { self.calculator = calculator }

    /// The per-day summaries, oldest first, or every problem in the log.
    ///
    /// A log is read from `{weight_kg?, foods: [{name, calories, timestamp}], workouts:
    /// [{activity, minutes, intensity, timestamp}]}`; `now` rejects future entries.
    package func summarize(_ log: Value, now: Timestamp?, timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current) -> Result<[DailySummary], LogErrors> {
        var problems: [LogProblem] = []
        guard case .map(let root) = log else {
            return .failure(LogErrors(problems: [LogProblem(entry: "log", message: "a daily log must be a map, not \(log.typeName)")]))
        }
        for key in root.keys where !["weight_kg", "foods", "workouts"].contains(key) {
            problems.append(LogProblem(entry: "log", message: "unknown key '\(key)'; expected weight_kg, foods, workouts"))
        }
        var weight: Double?
        if let value = root["weight_kg"] {
            if let number = value.numberValue {
                weight = number
                if let problem = calculator.weightProblem(number) { problems.append(LogProblem(entry: "log", message: problem)) }
            } else {
                problems.append(LogProblem(entry: "log", message: "weight_kg must be a number, not \(value.typeName)"))
            }
        }
        var foods: [FoodEntry] = []
        for (index, item) in Self.list(root["foods"], "foods", &problems).enumerated() {
            let name = "foods[\(index)]"
            guard case .map(let fields) = item else {
                problems.append(LogProblem(entry: name, message: "a food entry must be a map, not \(item.typeName)"))
                continue
            }
            let foodName = fields["name"]?.stringValue?.trimmingWhitespace ?? ""
            if foodName.isEmpty { problems.append(LogProblem(entry: name, message: "name is required")) }
            let kcal = fields["calories"]?.numberValue
            switch fields["calories"] {
            case nil: problems.append(LogProblem(entry: name, message: "calories is required"))
            case .string(let text)?: problems.append(LogProblem(entry: name, message: "calories must be a number, not string '\(text)'"))
            case let other? where kcal == nil: problems.append(LogProblem(entry: name, message: "calories must be a number, not \(other.typeName)"))
            default: break
            }
            if let kcal, kcal < 0 || !kcal.isFinite {
                problems.append(LogProblem(entry: name, message: "calories must not be negative, got \(format(kcal))"))
            }
            let timestamp = Self.timestamp(fields["timestamp"], name, &problems)
            if let timestamp, let now, timestamp > now {
                problems.append(LogProblem(entry: name, message: "timestamp \(timestamp) is in the future (now is \(now))"))
            }
            for key in fields.keys where !["name", "calories", "timestamp"].contains(key) {
                problems.append(LogProblem(entry: name, message: "unknown key '\(key)'; expected name, calories, timestamp"))
            }
            if let kcal, let timestamp, !foodName.isEmpty { foods.append(FoodEntry(name: foodName, kcal: kcal, timestamp: timestamp)) }
        }
        var workouts: [(BurnResult, Timestamp)] = []
        for (index, item) in Self.list(root["workouts"], "workouts", &problems).enumerated() {
            let name = "workouts[\(index)]"
            guard case .map(let fields) = item else {
                problems.append(LogProblem(entry: name, message: "a workout entry must be a map, not \(item.typeName)"))
                continue
            }
            for key in fields.keys where !["activity", "minutes", "intensity", "timestamp"].contains(key) {
                problems.append(LogProblem(entry: name, message: "unknown key '\(key)'; expected activity, minutes, intensity, timestamp"))
            }
            var minutes: Int?
            if let value = fields["minutes"] {
                if case .int(let m) = value, let m = Int(exactly: m) { minutes = m } else {
                    problems.append(LogProblem(entry: name, message: "minutes must be a whole number, not \(value.typeName)"))
                    continue
                }
            }
            let timestamp = Self.timestamp(fields["timestamp"], name, &problems)
            let entry = WorkoutEntry(activity: fields["activity"]?.stringValue, minutes: minutes,
                                     intensity: fields["intensity"]?.stringValue, timestamp: timestamp)
            let entryProblems = calculator.problems(with: entry, now: now)
            problems += entryProblems.map { LogProblem(entry: name, message: $0) }
            guard entryProblems.isEmpty, let timestamp else { continue }
            do {
                workouts.append((try calculator.burn(entry, weightKg: weight, now: now), timestamp))
            } catch {
                problems.append(LogProblem(entry: name, message: "\(error)"))
            }
        }
        guard problems.isEmpty else { return .failure(LogErrors(problems: problems)) }

        var days: [Int64: DailySummary] = [:]
        // The local calendar day: the instant shifted by the zone's offset at that instant.
        func day(of timestamp: Timestamp) -> Int64 {
            let local = timestamp.seconds &+ Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(timestamp.seconds))))
            return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        }
        func empty(_ key: Int64) -> DailySummary {
            DailySummary(date: Timestamp(seconds: key * 86_400), foods: [], workouts: [], consumed: 0, burned: 0, net: 0)
        }
        for food in foods.sorted(by: { $0.timestamp < $1.timestamp }) {
            let key = day(of: food.timestamp)
            days[key, default: empty(key)].foods.append(food)
            days[key, default: empty(key)].consumed += food.kcal
        }
        for (result, timestamp) in workouts.sorted(by: { $0.1 < $1.1 }) {
            let key = day(of: timestamp)
            days[key, default: empty(key)].workouts.append(result)
            days[key, default: empty(key)].burned += result.kcal
        }
        var summaries: [DailySummary] = []
        for key in days.keys.sorted() {
            guard var summary = days[key] else { continue }
            do {
                summary.net = try calculator.rules.netKcal.number([
                    CalorieBurnVariables.consumed.name: .float(summary.consumed), CalorieBurnVariables.burned.name: .int(summary.burned),
                ])
            } catch {
                return .failure(LogErrors(problems: [LogProblem(entry: "net", message: "\(error)")]))
            }
            summaries.append(summary)
        }
        return .success(summaries)
    }

    private static func list(_ value: Value?, _ name: String, _ problems: inout [LogProblem]) -> [Value] {
        guard let value else { return [] }
        guard case .list(let items) = value else {
            problems.append(LogProblem(entry: name, message: "\(name) must be a list, not \(value.typeName)"))
            return []
        }
        return items
    }

    private static func timestamp(_ value: Value?, _ name: String, _ problems: inout [LogProblem]) -> Timestamp? {
        switch value {
        case .timestamp(let t)?: return t
        case .string(let text)?:
            if let t = Timestamp(iso8601: text) { return t }
            problems.append(LogProblem(entry: name, message: "timestamp must be an RFC 3339 date-time, not '\(text)'"))
        case let other?:
            problems.append(LogProblem(entry: name, message: "timestamp must be an RFC 3339 date-time, not \(other.typeName)"))
        case nil:
            problems.append(LogProblem(entry: name, message: "timestamp is required"))
        }
        return nil
    }
}

/// Every problem of a daily log.
package struct LogErrors: DiagnosticError, Hashable {
    package var problems: [LogProblem]
    package var description: String { problems.map(\.description).joined(separator: "\n") }
    /// Entries of the caller's log.
    package var kind: ErrorKind { .input }
    /// Each problem with its entry (`foods[0]`) as the field a service response names.
    package var diagnostics: [Diagnostic] {
        problems.map { Diagnostic(.error, id: "daily-log.input", $0.description, at: nil, field: $0.entry == LogProblem.wholeLog ? nil : $0.entry) }
    }
}
