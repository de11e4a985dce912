import Foundation
@testable import RegimenKit
import RegimenTestSupport
import Testing

/// A plan that `adapt` refuses (a hand-edited `kcal: oops`, `sets: 101`, a day 9) is reported
/// at its field's line and column in the text the caller sent, with the field (`plan.kcal`) as
/// data, whether the plan is a request's `current_plan`, adapt's own response under it
/// (`patched_plan`), or a file of its own. Before, the plan's problems carried the field path in
/// their message and no place at all.
@Suite struct LocatedPlanProblemTests {
    /// A request whose plan has one broken field, and where that field's value is written.
    struct Case: CustomStringConvertible {
        var text: String
        var field: String
        var line: Int
        var column: Int
        var description: String { "\(field) at \(line):\(column) of\n\(text)" }
    }

    /// Writes YAML lines and remembers where each field's value starts.
    struct Writer {
        var lines: [String] = []
        var places: [String: (line: Int, column: Int)] = [:]

        /// `key: value` at `indent`, or, when `value` is nil, `key:` opening a block below.
        mutating func pair(_ indent: Int, _ key: String, _ value: String?, path: String) {
            let head = String(repeating: " ", count: indent) + key + ":"
            guard let value else { lines.append(head); return }
            places[path] = (lines.count + 1, head.count + 2)
            lines.append(head + " " + value)
        }

        /// A flow mapping `{k: v, …}` after `prefix` on one line, each value's place recorded.
        mutating func flowMapping(_ prefix: String, _ pairs: [(String, String)], path: String) {
            var text = prefix + "{"
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { text += ", " }
                text += key + ": "
                places[path + "." + key] = (lines.count + 1, text.count + 1)
                text += value
            }
            lines.append(text + "}")
        }

        /// Pairs as a flow mapping after `key:` or as a block mapping below it.
        mutating func mapping(_ indent: Int, _ key: String, _ pairs: [(String, String)], path: String, flow: Bool) {
            if flow {
                flowMapping(String(repeating: " ", count: indent) + key + ": ", pairs, path: path)
            } else {
                pair(indent, key, nil, path: path)
                for (name, value) in pairs { pair(indent + 2, name, value, path: path + "." + name) }
            }
        }
    }

    /// The breakable fields: a path pattern and the bad values it may be given.
    static let breakages: [(field: String, values: [String])] = [
        ("kcal", ["oops", "1e308", "-5", "20001"]),
        ("macros.fat_g", ["1e19", "-1", "lots"]),
        ("idx.BMR", ["1e308", "-1"]),
        ("idx.TDEE", ["999999"]),
        ("day", ["9", "0", "monday"]),
        ("sets", ["101", "x", "-1"]),
        ("load_kg", ["1001", "1e300", "heavy"]),
    ]

    static func generated(_ rng: inout SeededGenerator) -> Case {
        let breakage = breakages.randomElement(using: &rng) ?? breakages[0]
        let bad = breakage.values.randomElement(using: &rng) ?? breakage.values[0]
        let workouts = Int.random(in: 1...3, using: &rng)
        let blocks = (0..<workouts).map { _ in Int.random(in: 1...3, using: &rng) }
        let brokenWorkout = Int.random(in: 0..<workouts, using: &rng)
        let brokenBlock = Int.random(in: 0..<blocks[brokenWorkout], using: &rng)
        // adapt's own response may stand in for the plan: its plan is then `patched_plan`.
        let wrapped = Bool.random(using: &rng)
        let checkInsFirst = Bool.random(using: &rng)
        let indent = wrapped ? 4 : 2

        var writer = Writer()
        let checkIns = ["week: 3", "checkins:", "  - {date: 2026-03-02, sleep_h: 7.5, soreness: {}, stress: 2, motivation: 4}"]
        if checkInsFirst { writer.lines += checkIns }
        writer.pair(0, "current_plan", nil, path: "")
        if wrapped { writer.pair(2, "patched_plan", nil, path: "") }
        func value(_ field: String, _ good: String) -> String { breakage.field == field ? bad : good }
        var parts: [(inout Writer) -> Void] = [
            { $0.pair(indent, "kcal", value("kcal", "2400"), path: "plan.kcal") },
            { [flow = Bool.random(using: &rng)] in
                $0.mapping(indent, "macros", [("protein_g", "150"), ("fat_g", value("macros.fat_g", "70")), ("carb_g", "240")], path: "plan.macros", flow: flow)
            },
            { [flow = Bool.random(using: &rng)] in
                $0.mapping(indent, "idx", [("BMR", value("idx.BMR", "1700")), ("TDEE", value("idx.TDEE", "2400"))], path: "plan.idx", flow: flow)
            },
        ]
        let blockStyles = blocks.map { count in (0..<count).map { _ in Bool.random(using: &rng) } }
        parts.append { writer in
            writer.pair(indent, "workouts", nil, path: "plan.workouts")
            for w in 0..<workouts {
                let path = "plan.workouts[\(w)]"
                let day = w == brokenWorkout ? value("day", String(w + 1)) : String(w + 1)
                writer.places[path + ".day"] = (writer.lines.count + 1, indent + "  - day: ".count + 1)
                writer.lines.append(String(repeating: " ", count: indent) + "  - day: " + day)
                writer.pair(indent + 4, "blocks", nil, path: path + ".blocks")
                for b in 0..<blocks[w] {
                    let broken = w == brokenWorkout && b == brokenBlock
                    let pairs = [("muscle", "chest"), ("exerciseId", "bench_press"),
                                 ("sets", broken ? value("sets", "3") : "3"), ("load_kg", broken ? value("load_kg", "60") : "60")]
                    let blockPath = "\(path).blocks[\(b)]"
                    let lead = String(repeating: " ", count: indent + 4) + "- "
                    if blockStyles[w][b] {
                        writer.flowMapping(lead, pairs, path: blockPath)
                    } else {
                        writer.places[blockPath + ".muscle"] = (writer.lines.count + 1, lead.count + "muscle: ".count + 1)
                        writer.lines.append(lead + "muscle: chest")
                        for (key, text) in pairs.dropFirst() { writer.pair(indent + 6, key, text, path: blockPath + "." + key) }
                    }
                }
            }
        }
        parts.shuffle(using: &rng)
        for part in parts { part(&writer) }
        if !checkInsFirst { writer.lines += checkIns }

        let field: String
        switch breakage.field {
        case "day": field = "plan.workouts[\(brokenWorkout)].day"
        case "sets", "load_kg": field = "plan.workouts[\(brokenWorkout)].blocks[\(brokenBlock)].\(breakage.field)"
        default: field = "plan." + breakage.field
        }
        let place = writer.places[field] ?? (0, 0)
        return Case(text: writer.lines.joined(separator: "\n") + "\n", field: field, line: place.line, column: place.column)
    }

    /// Over a seeded grid of requests: adapt refuses the plan with one problem, naming the broken
    /// field as data and placed at its value, as the command prints it.
    @Test func everyPlanProblemNamesAndPlacesItsField() throws {
        let engine = try ReadmeExamplesTests.loaded()
        var rng = SeededGenerator(seed: 0x33_9A17)
        for _ in 0..<200 {
            let c = Self.generated(&rng)
            do {
                let request = try AdaptPlanRequest(text: c.text, name: "request.yaml")
                _ = try engine.adaptPlan(request)
                Issue.record("a plan with a broken field was adapted: \(c)")
            } catch {
                #expect(error.code == .request, "\(error) \(c)")
                #expect(error.diagnostics.map(\.field) == [c.field], "\(error) \(c)")
                #expect(error.diagnostics.map(\.location) == [SourceLocation(file: "request.yaml", line: c.line, column: c.column)], "\(error) \(c)")
                #expect(error.diagnostics.allSatisfy { !$0.message.hasPrefix(c.field) }, "the field is data, not text: \(error)")
                #expect(error.description.hasPrefix("request.yaml:\(c.line):\(c.column): error: \(c.field): "), "\(error)")
            }
        }
    }

    /// A plan that is not a mapping, or has no workouts, is placed at the plan itself.
    @Test func aProblemOfTheWholePlanIsPlacedAtThePlan() throws {
        let engine = try ReadmeExamplesTests.loaded()
        for (plan, field) in [("current_plan: 5", "plan"), ("current_plan:\n  kcal: 2000", "plan")] {
            let text = "week: 3\n\(plan)\ncheckins:\n  - {date: 2026-03-02, sleep_h: 7.5, soreness: {}, stress: 2, motivation: 4}\n"
            do {
                _ = try engine.adaptPlan(try AdaptPlanRequest(text: text, name: "r.yaml"))
                Issue.record("a plan without workouts was adapted")
            } catch {
                #expect(error.diagnostics.map(\.field) == [field], "\(error)")
                let column = plan.contains("\n") ? 3 : 15
                #expect(error.diagnostics.map(\.location) == [SourceLocation(file: "r.yaml", line: 2 + (plan.contains("\n") ? 1 : 0), column: column)], "\(error)")
            }
        }
    }
}
