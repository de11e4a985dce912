import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
@testable import RegimenTracking
import RegimenTestSupport

/// The project root, found from this file's path (Tests/RegimenTrackingTests/…).
let projectRoot = RepositoryRoot.url

/// The shipped rule files, loaded once.
let loadedRules: Result<TrackingRules, DiagnosticsError> = {
    do throws(DiagnosticsError) {
        return .success(try TrackingRules.load(root: projectRoot))
    } catch {
        return .failure(error)
    }
}()

struct RulesNotLoaded: Error, CustomStringConvertible {
    var description: String
}

/// The shipped rules, or a test failure that prints every diagnostic.
func shippedRules() throws -> TrackingRules {
    switch loadedRules {
    case .success(let rules): return rules
    case .failure(let error): throw RulesNotLoaded(description: error.description)
    }
}

/// A small deterministic random source for property tests (SplitMix64).
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

let exerciseTypes = ["strength", "cardio", "bodyweight", "custom"]

/// A set with the metrics its exercise type uses.
func makeSet(_ id: String, number: Int, type: String, user: String = "u1", checked: Bool = true) -> TrackerDocument {
    var fields: [String: Value] = ["setNumber": .int(Int64(number)), "checked": .bool(checked), "userId": .string(user),
                                   "createdAt": .timestamp(Timestamp(iso8601: "2026-01-05T10:00:00Z") ?? Timestamp(seconds: 0)), "notes": .string("set \(number)")]
    switch type {
    case "strength": fields["reps"] = .int(8); fields["weight"] = .float(60 + Double(number) * 2.5); fields["restTime"] = .int(90)
    case "cardio": fields["duration"] = .int(600); fields["distance"] = .float(2000)
    case "bodyweight": fields["reps"] = .int(12); fields["restTime"] = .int(60)
    default: fields["reps"] = .int(5); fields["duration"] = .int(30)
    }
    return TrackerDocument(level: .set, id: id, fields: fields)
}

/// A one-program tree whose week `w1` holds `workouts` × `exercises` × `sets` documents.
func makeTree(workouts: Int, exercises: Int, sets: Int, type: (Int) -> String = { _ in "strength" }) -> TrackerTree {
    var week = TrackerDocument(level: .week, id: "w1", fields: ["name": .string("Week 1"), "order": .int(1), "userId": .string("u1")])
    for w in 0..<workouts {
        var workout = TrackerDocument(level: .workout, id: "wo\(w)", fields: ["name": .string("Day \(w + 1)"), "dayOfWeek": .int(Int64(w % 7 + 1)),
                                                                            "orderIndex": .int(Int64(w)), "userId": .string("u1")])
        for e in 0..<exercises {
            let kind = type(e)
            var exercise = TrackerDocument(level: .exercise, id: "wo\(w)e\(e)", fields: ["name": .string("Lift \(e)"), "exerciseType": .string(kind),
                                                                                       "orderIndex": .int(Int64(e)), "userId": .string("u1")])
            for s in 0..<sets { exercise.children.append(makeSet("wo\(w)e\(e)s\(s)", number: s + 1, type: kind)) }
            workout.children.append(exercise)
        }
        week.children.append(workout)
    }
    let program = TrackerDocument(level: .program, id: "p1", fields: ["name": .string("Strength Block"), "userId": .string("u1")], children: [week])
    return TrackerTree(userId: "u1", programs: [program])
}

let fixedNow = Timestamp(iso8601: "2026-02-04T12:00:00Z") ?? Timestamp(seconds: 0)

/// The one deload clock as shipped: `block_weeks` of rules/readiness-rules.yaml (adapt's file,
/// which the engine passes to `periodize`; this module does not load it).
func shippedDeloadClock() throws -> DeloadClock {
    let url = projectRoot.appendingPathComponent("rules/readiness-rules.yaml")
    let document = YAMLReader.read(try String(contentsOf: url, encoding: .utf8), file: "rules/readiness-rules.yaml").document
    guard let weeks = document?.value()["block_weeks"]?.intValue else { throw RulesNotLoaded(description: "rules/readiness-rules.yaml: no block_weeks") }
    return DeloadClock(blockWeeks: Int(weeks))
}
