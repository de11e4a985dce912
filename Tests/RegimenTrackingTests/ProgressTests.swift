@testable import RegimenLanguage
import Testing
@testable import RegimenTracking

@Suite("Student progress")
struct ProgressTests {
    func rules() throws -> ProgressRules { try shippedRules().progress }

    /// (durationWeeks, completed days, today, completed, total, percent, current, longest)
    static let table: [(Int?, [Int], Int?, Int, Int, Double, Int, Int)] = [
        (4, [], nil, 0, 28, 0, 0, 0),
        (4, [1, 2, 3], 3, 3, 28, 10.7, 3, 3),
        (4, [1, 2, 3], 4, 3, 28, 10.7, 3, 3),         // today pending: the streak holds
        (4, [1, 2, 3], 5, 3, 28, 10.7, 0, 3),         // day 4 missed
        (4, [1, 2, 4, 5, 6], 6, 5, 28, 17.9, 3, 3),
        (4, [1, 2, 3, 4, 6, 7], 7, 6, 28, 21.4, 2, 4),
        (1, [1, 2, 3, 4, 5, 6, 7], nil, 7, 7, 100, 7, 7),
        (nil, [1], 1, 1, 7, 14.3, 1, 1),              // no durationWeeks: one week
        (2, [3, 3, 2], 3, 2, 14, 14.3, 2, 2),         // duplicates count once
        (1, [1, 2, 3, 4, 5, 6, 7], 30, 7, 7, 100, 7, 7), // after the end: as of the last day
    ]

    @Test("completion totals and streaks", arguments: 0..<table.count)
    func progress(index: Int) throws {
        let (weeks, days, today, completed, total, percent, current, longest) = Self.table[index]
        let result = try rules().progress(of: CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: weeks, startDate: nil, completedDays: days, today: today))
        #expect(result.completedDays.count == completed)
        #expect(result.totalDays == total)
        #expect(result.percentComplete == percent)
        #expect(result.currentStreak == current)
        #expect(result.longestStreak == longest)
    }

    @Test("a coach's rest days neither break nor extend a streak")
    func restDays() throws {
        var rules = try rules()
        rules.restDay = try Formula(compiling: SourceText("weekday >= 6"), variables: ["day", "weekday"])
        // 2026-02-02 is a Monday: days 6 and 7 are the weekend.
        let start = Timestamp(iso8601: "2026-02-02")
        let log = CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: 2, startDate: start, completedDays: [1, 2, 3, 4, 5, 8, 9], today: 9)
        let result = try rules.progress(of: log)
        #expect(result.currentStreak == 7)
        #expect(result.longestStreak == 7)
        let missedMonday = try rules.progress(of: CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: 2, startDate: start,
                                                                completedDays: [1, 2, 3, 4, 5, 9], today: 9))
        #expect(missedMonday.currentStreak == 1)
        #expect(missedMonday.longestStreak == 5)
    }

    @Test("days outside the workout are rejected with their numbers")
    func outside() throws {
        #expect(throws: ProgressError(problems: [ProgressProblem("completedDays", "completed day 0 is outside the workout's days 1–7"),
                                                 ProgressProblem("completedDays", "completed day 9 is outside the workout's days 1–7")])) {
            try rules().progress(of: CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: 1, startDate: nil, completedDays: [9, 0, 2], today: nil))
        }
    }

    @Test("a completed day after today is rejected, not counted")
    func futureDay() throws {
        #expect(throws: ProgressError(problems: [ProgressProblem("completedDays", "completed day 12 lies after today (day 10); a day is completed on or after it comes")])) {
            try rules().progress(of: CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: 4, startDate: nil, completedDays: [1, 12], today: 10))
        }
    }

    @Test("property: a log is accepted exactly when no completed day lies after today", arguments: 0..<6)
    func futureDayProperty(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &+ 41)
        for _ in 0..<200 {
            let today = Int.random(in: 1...28, using: &random)
            let days = (0..<Int.random(in: 0...10, using: &random)).map { _ in Int.random(in: 1...28, using: &random) }
            let log = CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: 4, startDate: nil, completedDays: days, today: today)
            let accepted = (try? rules().progress(of: log)) != nil
            #expect(accepted == days.allSatisfy { $0 <= today }, "\(days) today \(today)")
        }
    }

    @Test("the progress carries the seed's field names: studentId and lastActivityAt")
    func seedFields() throws {
        let start = Timestamp(iso8601: "2026-02-02T00:00:00Z")
        let result = try rules().progress(of: CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: 2, startDate: start,
                                                           completedDays: [1, 2, 5], today: 6))
        #expect(result.value["studentId"] == .string("s1"))
        #expect(result.value["lastActivityAt"] == .string("2026-02-06T00:00:00Z"))
        #expect(result.value["lastActivityDay"] == nil)
        let undated = try rules().progress(of: CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: 2, startDate: nil,
                                                            completedDays: [1], today: 1))
        #expect(undated.value["lastActivityAt"] == .null)
    }

    static let uploads: [(String, String?, Int, [UInt8], [String])] = [
        ("plan.pdf", "application/pdf", 2_000_000, Array("%PDF-1.7".utf8), []),
        ("plan.PDF", nil, 10_485_760, Array("%PDF-1.4".utf8), []),
        ("plan.png", "image/png", 1_000, [0x89, 0x50, 0x4E, 0x47],
         ["'plan.png' is not a PDF: the name must end in .pdf", "the file does not start with the PDF signature '%PDF-'",
          "content type 'image/png' is not allowed; upload application/pdf (compared exactly, as the Storage rule does)"]),
        ("upper.pdf", "application/PDF", 2_000, Array("%PDF-1.7".utf8),
         ["content type 'application/PDF' is not allowed; upload application/pdf (compared exactly, as the Storage rule does)"]),
        ("notes.txt", nil, 2_000, Array("%PDF-1.7".utf8),
         ["'notes.txt' is not a PDF: the name must end in .pdf",
          "content type 'application/octet-stream' is not allowed; upload application/pdf (compared exactly, as the Storage rule does)"]),
        ("big.pdf", "application/pdf", 12_582_912, Array("%PDF-1.7".utf8),
         ["the file is 12 MB (12582912 bytes); the limit is 10 MB (10485760 bytes)"]),
        ("fake.pdf", "application/pdf", 10, Array("hello".utf8), ["the file does not start with the PDF signature '%PDF-'"]),
        ("empty.pdf", "application/pdf", 0, [], ["the file is empty"]),
    ]

    @Test("uploads must be PDFs of at most 10 MB", arguments: 0..<uploads.count)
    func upload(index: Int) throws {
        let (name, type, size, bytes, expected) = Self.uploads[index]
        #expect(try rules().upload.problems(fileName: name, contentType: type, size: size, leadingBytes: bytes) == expected)
    }
}
