import RegimenTestSupport
import OrderedCollections
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
import Foundation


/// Guarantees that must hold for every plan and input, checked over generated cases.
@Suite struct AdaptationPropertyTests {
    static let muscles = ["chest", "back", "shoulders", "biceps", "triceps", "quads", "hamstrings", "glutes", "calves", "core"]

    /// A random plan, the exercise facts behind it, and its bands (some already exceeded).
    struct Case {
        var plan: Value
        var exercises: [String: ExerciseFacts]
        var bands: [String: ClosedRange<Double>]
    }

    static func randomCase(_ rng: inout SeededGenerator) -> Case {
        var exercises: [String: ExerciseFacts] = [:]
        for muscle in muscles {
            for k in 0..<3 {
                let secondary = Bool.random(using: &rng) ? [muscles.randomElement(using: &rng) ?? "core"].filter { $0 != muscle } : []
                exercises["\(muscle)_\(k)"] = ExerciseFacts(name: "\(muscle) \(k)", primaryMuscles: [muscle], secondaryMuscles: secondary,
                                                            equipment: [["barbell", "dumbbell", "machine", "bodyweight"].randomElement(using: &rng) ?? "barbell"])
            }
        }
        let dayCount = Int.random(in: 1...6, using: &rng)
        var workouts: [Value] = []
        for day in 1...dayCount {
            var blocks: [Value] = []
            for _ in 0..<Int.random(in: 2...6, using: &rng) {
                let muscle = muscles.randomElement(using: &rng) ?? "chest"
                let exercise = "\(muscle)_\(Int.random(in: 0..<3, using: &rng))"
                let reps = ["6–10", "10–15", "3–6", "8", "30–45s"].randomElement(using: &rng) ?? "6–10"
                let rir = ["1–3", "0–2", "2–3", "0", "1–2"].randomElement(using: &rng) ?? "1–3"
                blocks.append(.map(["muscle": .string(muscle), "exerciseId": .string(exercise), "sets": .int(Int64.random(in: 1...6, using: &rng)),
                                    "reps": .string(reps), "rir": .string(rir), "alt_compact": .bool(false)]))
            }
            workouts.append(.map(["day": .int(Int64(day)), "blocks": .list(blocks)]))
        }
        var plan: OrderedDictionary<String, Value> = [
            "idx": .map(["BMR": .int(Int64.random(in: 1200...2200, using: &rng))]),
            "kcal": .int(Int64.random(in: 1500...3500, using: &rng)),
            "macros": .map(["protein_g": .int(150), "fat_g": .int(60), "carb_g": .int(200)]),
            "workouts": .list(workouts),
        ]
        let counted = Self.counted(.map(plan), exercises)
        var bands: [String: ClosedRange<Double>] = [:]
        var volume: [Value] = []
        for muscle in muscles where Int.random(in: 0..<10, using: &rng) > 0 {
            let sets = counted[muscle] ?? 0
            let low = max(0, (sets - Double(Int.random(in: 0...4, using: &rng))).rounded(.down))
            let high = max(low, (sets + Double(Int.random(in: -2...4, using: &rng))).rounded(.down))
            bands[muscle] = low...high
            volume.append(.map(["muscle": .string(muscle), "band": .string("\(Int(low))–\(Int(high))")]))
        }
        plan["volume"] = .list(volume)
        return Case(plan: .map(plan), exercises: exercises, bands: bands)
    }

    static func randomInput(for plan: Value, _ rng: inout SeededGenerator) -> AdaptationInput {
        let days = (plan["workouts"]?.listValue ?? []).compactMap { $0["day"]?.intValue }.map(Int.init)
        let regions = ["legs", "arms", "upper_body", "chest", "back", "quads", "core"]
        var checkIns: [CheckIn] = []
        // One check-in per date (a second one of a date is an input error).
        var dates = Array(1...12).shuffled(using: &rng)
        for _ in 0..<Int.random(in: 0...7, using: &rng) {
            var soreness: OrderedDictionary<String, Int> = [:]
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                soreness[regions.randomElement(using: &rng) ?? "legs"] = Int.random(in: 1...5, using: &rng)
            }
            checkIns.append(CheckIn(date: "2026-03-\(String(format: "%02d", dates.removeLast()))",
                                    sleepHours: Double(Int.random(in: 6...20, using: &rng)) / 2, soreness: soreness,
                                    stress: Int.random(in: 1...5, using: &rng), motivation: Int.random(in: 1...5, using: &rng)))
        }
        var sessions: [LoggedSession] = []
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let day = days.randomElement(using: &rng) ?? 1
            let dayBlocks = plan["workouts"]?.listValue?.first { $0["day"]?.intValue == Int64(day) }?["blocks"]?.listValue ?? []
            var exercises: [LoggedExercise] = []
            for block in dayBlocks where Bool.random(using: &rng) {
                let sets = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
                    LoggedSet(loadKg: Bool.random(using: &rng) ? Double(Int.random(in: 0...400, using: &rng)) / 2 : nil,
                              reps: Int.random(in: 0...20, using: &rng), rir: Bool.random(using: &rng) ? Double(Int.random(in: 0...5, using: &rng)) : nil)
                }
                exercises.append(LoggedExercise(exerciseId: block["exerciseId"]?.stringValue ?? "", sets: sets, feel: SessionFeel.allCases.randomElement(using: &rng)))
            }
            sessions.append(LoggedSession(day: day, exercises: exercises))
        }
        return AdaptationInput(
            checkIns: checkIns, sessions: sessions,
            adherencePct: Bool.random(using: &rng) ? Double(Int.random(in: 0...100, using: &rng)) : nil,
            weightTrend: Bool.random(using: &rng) ? WeightTrend.allCases.randomElement(using: &rng) : nil,
            week: Int.random(in: 1...8, using: &rng), nextDay: Bool.random(using: &rng) ? days.randomElement(using: &rng) : nil,
            laggingMuscles: muscles.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }.filter { muscle in
                (plan["workouts"]?.listValue ?? []).contains { ($0["blocks"]?.listValue ?? []).contains { $0["muscle"] == .string(muscle) } }
            })
    }

    /// Counted weekly sets per muscle, computed here independently of the engine, with the set
    /// credit of rules/training-volume.yaml.
    static func counted(_ plan: Value, _ exercises: [String: ExerciseFacts]) -> [String: Double] {
        let credit = AdaptationFixtures.setCredit ?? TrainingRules.SetCredit(direct: .nan, indirect: .nan)
        var totals: [String: Double] = [:]
        for workout in plan["workouts"]?.listValue ?? [] {
            for block in workout["blocks"]?.listValue ?? [] {
                let sets = Double(block["sets"]?.intValue ?? 0)
                let muscle = block["muscle"]?.stringValue ?? ""
                let facts = exercises[block["exerciseId"]?.stringValue ?? ""]
                var shares: [String: Double] = [muscle: credit.direct]
                for primary in facts?.primaryMuscles ?? [] { shares[primary] = credit.direct }
                for secondary in facts?.secondaryMuscles ?? [] where shares[secondary] == nil { shares[secondary] = credit.indirect }
                for (m, share) in shares { totals[m, default: 0] += sets * share }
            }
        }
        return totals
    }

    private func engine(_ exercises: [String: ExerciseFacts]) throws -> AdaptationEngine {
        let base = try #require(AdaptationFixtures.engine)
        return AdaptationEngine(readiness: base.readiness, progression: base.progression, exercises: exercises, setCredit: base.setCredit, calories: base.calories)
    }

    @Test func adaptationNeverRaisesAMuscleAboveItsCap() throws {
        var rng = SeededGenerator(seed: 0xADA97)
        var raised = 0
        var changed = 0
        for _ in 0..<1000 {
            let c = Self.randomCase(&rng)
            let input = Self.randomInput(for: c.plan, &rng)
            let result = try engine(c.exercises).adapt(plan: c.plan, input: input)
            if !result.changeLog.isEmpty { changed += 1 }
            let before = Self.counted(c.plan, c.exercises)
            let after = Self.counted(result.patchedPlan, c.exercises)
            for (muscle, band) in c.bands {
                let b = before[muscle] ?? 0
                let a = after[muscle] ?? 0
                if a > b + 1e-9 {
                    raised += 1
                    #expect(a <= band.upperBound + 1e-9, "\(muscle): \(b) → \(a) above the cap \(band.upperBound)")
                }
            }
            // Muscles without a band are never raised.
            for muscle in Set(after.keys).subtracting(c.bands.keys) {
                #expect((after[muscle] ?? 0) <= (before[muscle] ?? 0) + 1e-9, "\(muscle) has no band and was raised")
            }
        }
        #expect(raised > 20 && changed > 300, "the generated cases exercise increases (\(raised)) and changes (\(changed))")
    }

    @Test func cutsNeverEmptyABlockAndTheSameInputGivesTheSameResult() throws {
        var rng = SeededGenerator(seed: 0xC075)
        for _ in 0..<300 {
            let c = Self.randomCase(&rng)
            let input = Self.randomInput(for: c.plan, &rng)
            let first = try engine(c.exercises).adapt(plan: c.plan, input: input)
            let second = try engine(c.exercises).adapt(plan: c.plan, input: input)
            #expect(first == second)
            let sets = (first.patchedPlan["workouts"]?.listValue ?? []).flatMap { $0["blocks"]?.listValue ?? [] }.compactMap { $0["sets"]?.intValue }
            #expect(sets.allSatisfy { $0 >= 1 })
            #expect(first.changeLog.allSatisfy { !$0.line.isEmpty && !$0.rule.isEmpty })
        }
    }

    @Test func aNeutralCheckInChangesNothing() throws {
        var rng = SeededGenerator(seed: 0x4E07)
        var cases = 0
        while cases < 400 {
            let c = Self.randomCase(&rng)
            // Neutral: readiness 3 (neither low nor high), no region sore enough to cut, weight on
            // target, early in the block, nothing logged.
            let soreness: OrderedDictionary<String, Int> = Bool.random(using: &rng) ? [:] : ["legs": Int.random(in: 1...3, using: &rng)]
            let sleep: Double = [6, 6.5].randomElement(using: &rng) ?? 6
            // One check-in per date.
            let checkIns = (1...Int.random(in: 1...7, using: &rng)).map { day in
                CheckIn(date: "2026-03-0\(day)", sleepHours: sleep, soreness: soreness, stress: 3, motivation: 3)
            }
            let input = AdaptationInput(
                checkIns: checkIns,
                adherencePct: Bool.random(using: &rng) ? Double(Int.random(in: 0...100, using: &rng)) : nil,
                weightTrend: [nil, .onTarget].randomElement(using: &rng) ?? nil, week: Int.random(in: 1...3, using: &rng))
            let result = try engine(c.exercises).adapt(plan: c.plan, input: input)
            #expect(result.changeLog.isEmpty)
            #expect(result.patchedPlan == c.plan)
            cases += 1
        }
    }
}
