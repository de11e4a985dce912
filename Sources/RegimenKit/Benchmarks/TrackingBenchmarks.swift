import Foundation
import RegimenRules
import RegimenTracking

/// The tracking module's benchmarks: duplicating a typical week (under 50 sets, which must take
/// under 10 seconds; docs/requirements.md#duplication) and a 5,000-set week, validating the large
/// tree, and one calorie burn.
enum TrackingBenchmarks {
    static func cases(currentDirectory: URL, executable: URL?) -> [BenchmarkCase] {
        guard case .success(let sources) = RuleSources.locate(rules: nil, catalogs: nil, currentDirectory: currentDirectory,
                                                              executable: executable),
              let rules = try? TrackingRules.load(from: sources)
        else { return [] }
        let now = Timestamp(seconds: 1_770_206_400)
        let typical = week(workouts: 2, exercises: 5, sets: 5)     // 50 sets
        let large = week(workouts: 10, exercises: 10, sets: 50)    // 5,000 sets
        let duplicator = Duplicator(policy: rules.duplication)
        let validator = TreeValidator(policy: rules.validation)
        let burn = CalorieBurnCalculator(rules: rules.calorieBurn, catalog: rules.activities)
        let entry = WorkoutEntry(activity: "running", minutes: 30, intensity: "vigorous")
        func duplicate(_ tree: TrackerTree, _ count: Int) -> Int {
            var total = 0
            for index in 0..<count {
                if let result = try? duplicator.duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: now, seed: UInt64(index)) {
                    total += result.idMap.count
                }
            }
            return total
        }
        return [
            BenchmarkCase(name: "tracking.duplicate (week of 50 sets)", targetNanoseconds: 10_000_000_000) { duplicate(typical, $0) },
            BenchmarkCase(name: "tracking.duplicate (week of 5,000 sets)", targetNanoseconds: nil) { duplicate(large, $0) },
            BenchmarkCase(name: "tracking.validate (tree of 5,000 sets)", targetNanoseconds: nil) { count in
                var total = 0
                for _ in 0..<count { total += validator.validate(large).count + 1 }
                return total
            },
            BenchmarkCase(name: "tracking.burn (one entry)", targetNanoseconds: nil) { count in
                var total = 0
                for _ in 0..<count { total += Int((try? burn.burn(entry).kcal) ?? 0) }
                return total
            },
        ]
    }

    /// A program whose week `w1` holds workouts × exercises × strength sets.
    private static func week(workouts: Int, exercises: Int, sets: Int) -> TrackerTree {
        var week = TrackerDocument(level: .week, id: "w1", fields: ["name": .string("Week 1"), "order": .int(1), "userId": .string("u1")])
        for w in 0..<workouts {
            var workout = TrackerDocument(level: .workout, id: "wo\(w)", fields: ["name": .string("Day \(w + 1)"), "orderIndex": .int(Int64(w)),
                                                                                "userId": .string("u1")])
            for e in 0..<exercises {
                var exercise = TrackerDocument(level: .exercise, id: "wo\(w)e\(e)",
                                               fields: ["name": .string("Lift \(e)"), "exerciseType": .string("strength"),
                                                        "orderIndex": .int(Int64(e)), "userId": .string("u1")])
                for s in 0..<sets {
                    exercise.children.append(TrackerDocument(level: .set, id: "wo\(w)e\(e)s\(s)", fields: [
                        "setNumber": .int(Int64(s + 1)), "reps": .int(8), "weight": .float(60), "checked": .bool(true), "userId": .string("u1"),
                    ]))
                }
                workout.children.append(exercise)
            }
            week.children.append(workout)
        }
        let program = TrackerDocument(level: .program, id: "p1", fields: ["name": .string("Block"), "userId": .string("u1")], children: [week])
        return TrackerTree(userId: "u1", programs: [program])
    }
}
