import OrderedCollections
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing

/// A lift is an exercise for its block's muscle: when the plan uses chin-ups for the back on
/// day 1 and for the biceps on day 3, a logged day-3 chin-up is judged as biceps work and its
/// extra set goes to the next biceps chin-up block.
@Suite struct LiftMuscleTests {
    typealias F = AdaptationFixtures

    static var plan: Value {
        let workouts: [Value] = [
            .map(["day": .int(1), "blocks": .list([F.block("back", "chin_up", 4), F.block("back", "barbell_row", 4), F.block("biceps", "barbell_curl", 3)])]),
            .map(["day": .int(3), "blocks": .list([F.block("back", "barbell_row", 4), F.block("biceps", "chin_up", 3)])]),
        ]
        return .map([
            "workouts": .list(workouts),
            "training": .map(["weekly_sets": .list([
                .map(["muscle": .string("back"), "band": .string("10–20"), "planned": .int(12)]),
                .map(["muscle": .string("biceps"), "band": .string("8–14"), "planned": .int(6)]),
            ])]),
        ])
    }

    static let exercises: [String: ExerciseFacts] = [
        "chin_up": .init(name: "Chin-up", primaryMuscles: ["back", "biceps"], equipment: ["pullup_bar"]),
        "barbell_row": .init(name: "Barbell row", primaryMuscles: ["back"], equipment: ["barbell"]),
        "barbell_curl": .init(name: "Barbell curl", primaryMuscles: ["biceps"], equipment: ["barbell"]),
    ]

    private func adapt(_ sessions: [LoggedSession]) throws -> AdaptationResult {
        let base = try #require(F.engine)
        let engine = AdaptationEngine(readiness: base.readiness, progression: base.progression, exercises: Self.exercises,
                                      setCredit: base.setCredit)
        return try engine.adapt(plan: Self.plan, input: AdaptationInput(checkIns: [F.high("2026-03-05")], sessions: sessions, week: 2))
    }

    private static func sets(_ plan: Value, day: Int, muscle: String) -> Int64? {
        plan["workouts"]?.listValue?.first { $0["day"]?.intValue == Int64(day) }?["blocks"]?.listValue?
            .first { $0["exerciseId"] == .string("chin_up") && $0["muscle"] == .string(muscle) }?["sets"]?.intValue
    }

    @Test func anEasyBicepsChinUpAddsASetToTheNextBicepsChinUp() throws {
        let easy = LoggedExercise(exerciseId: "chin_up", sets: [LoggedSet(reps: 10, rir: 5)], feel: .easy)
        let result = try adapt([LoggedSession(date: "2026-03-05", day: 3, exercises: [easy])])
        // A chin-up is unloaded, so it also progresses by reps: the biceps block only.
        #expect(F.lines(result) == ["Biceps +1 set (readiness 5, reported too easy)", "Chin-up reps 6–10 → 10–14 (1x10 reached at RIR 5)"])
        #expect(result.patchedPlan["workouts"]?.listValue?.first?["blocks"]?.listValue?.first?["reps"] == .string("6–10"))
        #expect(Self.sets(result.patchedPlan, day: 3, muscle: "biceps") == 4)
        #expect(Self.sets(result.patchedPlan, day: 1, muscle: "back") == 4)
    }

    @Test func anAmbiguousLiftIsJudgedByItsFirstBlockAndSaysSo() throws {
        let easy = LoggedExercise(exerciseId: "chin_up", sets: [LoggedSet(reps: 10, rir: 5)], feel: .easy)
        let result = try adapt([LoggedSession(date: "2026-03-05", exercises: [easy])])
        #expect(result.warnings == ["logged exercise 'chin_up' is prescribed for back and biceps; judged as back work (give the session's `day` or the exercise's `muscle` to say which)"])
    }

    @Test func theLoggedMuscleNamesTheBlockWhenNoDayIsGiven() throws {
        let easy = LoggedExercise(exerciseId: "chin_up", sets: [LoggedSet(reps: 10, rir: 5)], feel: .easy, muscle: "biceps")
        let result = try adapt([LoggedSession(date: "2026-03-05", exercises: [easy])])
        #expect(Self.sets(result.patchedPlan, day: 3, muscle: "biceps") == 4)
        #expect(Self.sets(result.patchedPlan, day: 1, muscle: "back") == 4)
    }
}
