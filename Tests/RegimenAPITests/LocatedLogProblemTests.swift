import Foundation
@testable import RegimenKit
import RegimenTestSupport
import Testing

/// A rejected daily log's problems are data: each names its entry as the diagnostic's field
/// (`foods[1]`, counted from 0 as the log's own messages count) and carries the line and column
/// of that entry in the text the caller sent, so neither the CLI nor the service has to parse a
/// message to find the place. Before, every problem came back unlocated with the entry glued to
/// the front of its message (`foods[2]: name is required`).
@Suite struct LocatedLogProblemTests {
    /// One broken entry, in a log written in block or flow style.
    struct Case: CustomStringConvertible {
        var text: String
        var field: String
        var line: Int
        var description: String { "\(field) at line \(line) of\n\(text)" }
    }

    static let present = Timestamp(iso8601: "2026-03-01T00:00:00Z")

    static let foodBreakages = [
        "calories: 100, timestamp: \"2026-02-03T07:30:00Z\"",                       // no name
        "name: Toast, calories: \"many\", timestamp: \"2026-02-03T07:30:00Z\"",      // calories as text
        "name: Toast, calories: -5, timestamp: \"2026-02-03T07:30:00Z\"",            // negative calories
        "name: Toast, calories: 100, timestamp: \"2026-02-03T07:30:00Z\", extra: 1", // unknown key
        "name: Toast, calories: 100, timestamp: \"2026-04-03T07:30:00Z\"",           // after the present
    ]
    static let workoutBreakages = [
        "activity: moonwalking, minutes: 30, intensity: light, timestamp: \"2026-02-03T07:30:00Z\"",
        "activity: running, minutes: 0, intensity: light, timestamp: \"2026-02-03T07:30:00Z\"",
        "activity: running, minutes: 30, intensity: extreme, timestamp: \"2026-02-03T07:30:00Z\"",
    ]
    static let food = "name: Toast, calories: 250, timestamp: \"2026-02-03T07:30:00Z\""
    static let workout = "activity: running, minutes: 30, intensity: moderate, timestamp: \"2026-02-03T07:30:00Z\""

    /// A log with `foods` and `workouts` entries, one of them broken, each entry starting at
    /// column 5 (after `  - `) whether written as a flow map or as a block map over several lines.
    static func generated(_ rng: inout SeededGenerator) -> Case {
        let foods = Int.random(in: 1...5, using: &rng), workouts = Int.random(in: 0...4, using: &rng)
        let brokenList = workouts > 0 && Bool.random(using: &rng) ? "workouts" : "foods"
        let brokenIndex = Int.random(in: 0..<(brokenList == "foods" ? foods : workouts), using: &rng)
        let breakage = brokenList == "foods" ? foodBreakages.randomElement(using: &rng) : workoutBreakages.randomElement(using: &rng)
        var lines = ["weight_kg: 80"]
        var brokenLine = 0
        for (list, count, entry) in [("foods", foods, food), ("workouts", workouts, workout)] where count > 0 {
            lines.append("\(list):")
            for index in 0..<count {
                let fields = list == brokenList && index == brokenIndex ? breakage ?? entry : entry
                if list == brokenList && index == brokenIndex { brokenLine = lines.count + 1 }
                if Bool.random(using: &rng) {
                    lines.append("  - {\(fields)}")
                } else {
                    let pairs = fields.components(separatedBy: ", ")
                    lines.append("  - " + pairs[0])
                    lines += pairs.dropFirst().map { "    " + $0 }
                }
            }
        }
        return Case(text: lines.joined(separator: "\n") + "\n", field: "\(brokenList)[\(brokenIndex)]", line: brokenLine)
    }

    /// Over a seeded grid of logs: the log is refused, and every problem names the broken entry
    /// as its field and is placed at that entry's first character.
    @Test func everyProblemNamesAndPlacesItsEntry() throws {
        let engine = try ReadmeExamplesTests.loaded()
        let present = try #require(Self.present)
        var rng = SeededGenerator(seed: 0x29_D1A1)
        for _ in 0..<200 {
            let c = Self.generated(&rng)
            do {
                _ = try engine.dailyLog(Data(c.text.utf8), name: "log.yaml", present: present)
                Issue.record("a log with a broken entry was totalled: \(c)")
            } catch {
                #expect(error.code == .request, "\(c)")
                #expect(!error.diagnostics.isEmpty, "\(c)")
                for diagnostic in error.diagnostics {
                    #expect(diagnostic.field == c.field, "\(diagnostic) \(c)")
                    #expect(diagnostic.location == SourceLocation(file: "log.yaml", line: c.line, column: 5), "\(diagnostic) \(c)")
                    #expect(!diagnostic.message.hasPrefix(c.field), "the field is data, not text: \(diagnostic.message)")
                }
                // The printed line keeps the entry's name after the place, as people read it.
                for line in error.description.split(separator: "\n") {
                    #expect(line.hasPrefix("log.yaml:\(c.line):5: error: \(c.field): "), "\(line)")
                }
            }
        }
    }

    /// A problem of the whole log has no field and is placed at the log.
    @Test func aProblemOfTheWholeLogIsPlacedAtTheLog() throws {
        let engine = try ReadmeExamplesTests.loaded()
        let present = try #require(Self.present)
        do {
            _ = try engine.dailyLog(Data("\nweight_kg: 80\nfoods: []\nnotes: 1\n".utf8), name: "log.yaml", present: present)
            Issue.record("a log with an unknown key was totalled")
        } catch {
            #expect(error.diagnostics.map(\.field) == [nil])
            #expect(error.diagnostics.map(\.location) == [SourceLocation(file: "log.yaml", line: 2, column: 1)])
            #expect(error.description == "log.yaml:2:1: error: unknown key 'notes'; expected weight_kg, foods, workouts")
        }
    }

    /// Over a seeded grid of completion logs (keys in any order, one key broken or missing):
    /// every problem names the key as its field and is placed at its value, or, for a missing
    /// key, at the log; the message does not repeat the key.
    @Test func everyCompletionLogProblemNamesAndPlacesItsKey() throws {
        let engine = try ReadmeExamplesTests.loaded()
        let present = try #require(Self.present)
        let valid = [("workoutId", "w1"), ("studentId", "s1"), ("durationWeeks", "2"), ("startDate", "\"2026-02-02\""),
                     ("completedDays", "[1, 2, 3]"), ("today", "5")]
        let broken = [("workoutId", "5"), ("studentId", "[s1]"), ("durationWeeks", "two"), ("startDate", "someday"),
                      ("completedDays", "all"), ("completedDays", "[1, x]"), ("today", "1.5")]
        var rng = SeededGenerator(seed: 0x29_9A0E)
        for _ in 0..<100 {
            let keys = valid.shuffled(using: &rng)
            let missing = Int.random(in: 0..<4, using: &rng) == 0
            let (key, value) = missing ? (["workoutId", "studentId", "completedDays"].randomElement(using: &rng) ?? "workoutId", "") : broken.randomElement(using: &rng) ?? broken[0]
            var lines: [String] = []
            var place = SourceLocation(file: "log.yaml", line: 1, column: 1)
            for (name, text) in keys {
                if name == key {
                    if missing { continue }
                    place = SourceLocation(file: "log.yaml", line: lines.count + 1, column: name.count + 3)
                    lines.append("\(name): \(value)")
                } else {
                    lines.append("\(name): \(text)")
                }
            }
            let log = lines.joined(separator: "\n") + "\n"
            do {
                _ = try engine.progress(Data(log.utf8), name: "log.yaml", present: present)
                Issue.record("a log with a broken \(key) was scored:\n\(log)")
            } catch {
                #expect(error.code == .request)
                #expect(error.diagnostics.map(\.field) == [key], "\(error)\n\(log)")
                #expect(error.diagnostics.map(\.location) == [place], "\(error)\n\(log)")
                #expect(error.diagnostics.allSatisfy { !$0.message.contains("'\(key)'") }, "\(error)")
            }
        }
    }
}
