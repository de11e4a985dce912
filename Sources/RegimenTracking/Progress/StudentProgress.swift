public import RegimenLanguage
import OrderedCollections

/// A student's completion log of one workout: the days marked done, from which progress is
/// computed (docs/requirements.md#student-progress).
package struct CompletionLog: Sendable, Hashable {
    var workoutId: String
    /// The student whose log this is (`studentId` of the progress document).
    var studentId: String
    var durationWeeks: Int?
    /// Day 1 of the workout, when known; gives weekdays to the rest-day rule.
    var startDate: Timestamp?
    /// Day numbers the student marked complete (1 = startDate).
    var completedDays: [Int]
    /// The day the progress is computed on; `nil` means as of the last completed day.
    var today: Int?

}

/// The progress figures the trainer dashboard shows (docs/requirements.md#student-progress).
public struct StudentProgress: Sendable, Hashable {
    /// The workout the progress is about.
    public var workoutId: String
    /// The student whose progress it is.
    public var studentId: String
    /// Distinct completed days within the workout, ascending.
    public var completedDays: [Int]
    /// The number of days the workout has.
    public var totalDays: Int
    /// Completed days as a percentage of `totalDays`, 0–100.
    public var percentComplete: Double
    /// Consecutive completed days ending at the latest day considered.
    public var currentStreak: Int
    /// The longest run of consecutive completed days.
    public var longestStreak: Int
    /// The last completed day, if any.
    public var lastActivityDay: Int?
    /// The start (00:00 UTC) of the last completed day, when the log gives the start date.
    public var lastActivityAt: Timestamp?

    /// The seed's `GET /api/workouts/{id}/progress` response, plus `studentId` (WorkoutProgress).
    public var value: Value {
        Value.orderedMap([
            ("workoutId", .string(workoutId)),
            ("studentId", .string(studentId)),
            ("completedDays", .list(completedDays.map { .int(Int64($0)) })),
            ("totalDays", .int(Int64(totalDays))),
            ("percentComplete", .float(percentComplete)),
            ("currentStreak", .int(Int64(currentStreak))),
            ("longestStreak", .int(Int64(longestStreak))),
            ("lastActivityAt", lastActivityAt.map { .string($0.description) } ?? .null),
        ])
    }
}

/// One problem of a completion log: the key it is about (`completedDays`), or `nil` for the
/// log as a whole, and what is wrong with it.
package struct ProgressProblem: Sendable, Hashable, CustomStringConvertible {
    package var field: String?
    package var message: String

    init(_ field: String?, _ message: String) {
        self.field = field
        self.message = message
    }

    /// `completedDays: must be a list, not string`.
    package var description: String { field.map { "\($0): \(message)" } ?? message }
}

/// Why a completion log could not be scored: every problem found.
package struct ProgressError: DiagnosticError, Hashable {
    package var problems: [ProgressProblem]
    package var description: String { problems.map(\.description).joined(separator: "\n") }
    /// The caller's completion log.
    package var kind: ErrorKind { .input }
    /// Each problem with its key as the diagnostic's field.
    package var diagnostics: [Diagnostic] { problems.map { Diagnostic(.error, id: "progress.input", $0.message, at: nil, field: $0.field) } }
}

extension ProgressRules {
    /// Scores `log`: totals, percent and streaks under these rules.
    /// - Throws: ``ProgressError`` for days outside the workout or a bad `today`.
    package func progress(of log: CompletionLog) throws -> StudentProgress {
        var problems: [ProgressProblem] = []
        let weeks = log.durationWeeks ?? defaultDurationWeeks
        if weeks < 1 { problems.append(ProgressProblem("durationWeeks", "must be at least 1, got \(weeks)")) }
        let totalValue = try totalDays.number([
            StudentProgressVariables.durationWeeks.name: .int(Int64(weeks)), StudentProgressVariables.daysPerWeek.name: .int(Int64(daysPerWeek)),
        ])
        guard totalValue.isFinite, totalValue >= 0, totalValue < 1e7 else {
            throw ProgressError(problems: problems + [ProgressProblem(nil, "total days formula gave \(format(totalValue))")])
        }
        let total = Int(totalValue)
        for day in Set(log.completedDays).sorted() where day < 1 || day > total {
            problems.append(ProgressProblem("completedDays", "completed day \(day) is outside the workout's days 1–\(total)"))
        }
        if let today = log.today, today < 1 { problems.append(ProgressProblem("today", "must be day 1 or later, got \(today)")) }
        // A day cannot be done before it comes: a completed day after today is a bad log.
        if let today = log.today, today >= 1 {
            for day in Set(log.completedDays).sorted() where day > today && day <= total {
                problems.append(ProgressProblem("completedDays", "completed day \(day) lies after today (day \(today)); a day is completed on or after it comes"))
            }
        }
        guard problems.isEmpty else { throw ProgressError(problems: problems) }

        let completed = Set(log.completedDays)
        let days = completed.sorted()
        let percent = try percentComplete.number([StudentProgressVariables.completed.name: .int(Int64(days.count)), StudentProgressVariables.total.name: .int(Int64(total))])
        let asOf = min(log.today ?? days.last ?? 0, total)
        let startWeekday = log.startDate.map(Self.weekday) ?? 1

        var run = 0
        var longest = 0
        if asOf >= 1 {
            for day in 1...asOf {
                let weekday = (startWeekday - 1 + (day - 1)) % 7 + 1
                let rest = try restDay.bool([StudentProgressVariables.day.name: .int(Int64(day)), StudentProgressVariables.weekday.name: .int(Int64(weekday))])
                if completed.contains(day) {
                    if !rest || restDayExtends { run += 1 }
                } else if !rest {
                    let pendingToday = day == log.today && !todayBreaksWhenPending
                    if !pendingToday { run = 0 }
                }
                longest = max(longest, run)
            }
        }
        let lastActivityAt = days.last.flatMap { day in log.startDate.map { Timestamp(seconds: Self.startOfDay($0) + Int64(day - 1) * 86_400) } }
        return StudentProgress(workoutId: log.workoutId, studentId: log.studentId, completedDays: days, totalDays: total, percentComplete: percent,
                               currentStreak: run, longestStreak: longest, lastActivityDay: days.last, lastActivityAt: lastActivityAt)
    }

    /// 00:00 UTC of a timestamp's date, in seconds.
    static func startOfDay(_ timestamp: Timestamp) -> Int64 {
        let days = timestamp.seconds >= 0 ? timestamp.seconds / 86_400 : (timestamp.seconds - 86_399) / 86_400
        return days * 86_400
    }

    /// ISO weekday of a timestamp's UTC date: 1 = Monday … 7 = Sunday.
    static func weekday(_ timestamp: Timestamp) -> Int {
        let days = timestamp.seconds >= 0 ? timestamp.seconds / 86_400 : (timestamp.seconds - 86_399) / 86_400
        // 1970-01-01 was a Thursday (4).
        let index = ((days % 7) + 7 + 3) % 7
        return Int(index) + 1
    }
}

extension CompletionLog {
    /// Reads a log from `{workoutId, durationWeeks?, startDate?, completedDays, today?}`,
    /// reporting every missing or mistyped key.
    package static func read(_ value: Value) -> Result<CompletionLog, ProgressError> {
        var problems: [ProgressProblem] = []
        guard case .map(let map) = value else {
            return .failure(ProgressError(problems: [ProgressProblem(nil, "a completion log must be a map, not \(value.typeName)")]))
        }
        let known = ["workoutId", "studentId", "durationWeeks", "startDate", "completedDays", "today"]
        for key in map.keys where !known.contains(key) {
            problems.append(ProgressProblem(nil, "unknown key '\(key)'; expected \(known.joined(separator: ", "))"))
        }
        func int(_ key: String) -> Int? {
            guard let entry = map[key], !entry.isNull else { return nil }
            guard case .int(let number) = entry, let result = Int(exactly: number) else {
                problems.append(ProgressProblem(key, "must be a whole number, not \(entry.typeName)"))
                return nil
            }
            return result
        }
        let workoutId = map["workoutId"]?.stringValue
        if workoutId == nil { problems.append(ProgressProblem("workoutId", "is required and must be a string")) }
        let studentId = map["studentId"]?.stringValue
        if studentId == nil { problems.append(ProgressProblem("studentId", "is required and must be a string")) }
        var start: Timestamp?
        switch map["startDate"] {
        case .timestamp(let t)?: start = t
        case .string(let text)?:
            start = Timestamp(iso8601: text)
            if start == nil { problems.append(ProgressProblem("startDate", "must be a date such as 2026-02-02, not '\(text)'")) }
        case .null?, nil: break
        case let other?: problems.append(ProgressProblem("startDate", "must be a date, not \(other.typeName)"))
        }
        var days: [Int] = []
        switch map["completedDays"] {
        case .list(let items)?:
            for item in items {
                if case .int(let day) = item, let day = Int(exactly: day) { days.append(day) } else {
                    problems.append(ProgressProblem("completedDays", "must hold whole day numbers, not \(item.typeName)"))
                }
            }
        case nil: problems.append(ProgressProblem("completedDays", "is required"))
        case let other?: problems.append(ProgressProblem("completedDays", "must be a list, not \(other.typeName)"))
        }
        let weeks = int("durationWeeks")
        let today = int("today")
        guard problems.isEmpty, let workoutId, let studentId else { return .failure(ProgressError(problems: problems)) }
        return .success(CompletionLog(workoutId: workoutId, studentId: studentId, durationWeeks: weeks, startDate: start,
                                      completedDays: days, today: today))
    }
}
