import OrderedCollections
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// Plans and inputs for the adaptation tests, in the seed's `generatePlan` shape.
enum AdaptationFixtures {
    static var engine: AdaptationEngine? {
        guard let ruleSet = AdaptationTestRules.ruleSet,
              let readiness = ruleSet.first(ReadinessRulesFile.self)?.rules,
              let progression = ruleSet.first(ProgressionRulesFile.self)?.rules,
              let setCredit else { return nil }
        return AdaptationEngine(readiness: readiness, progression: progression, exercises: exercises, setCredit: setCredit,
                                calories: (try? TestRules.loaded.get()).map { CaloriePrecedence(rules: $0.nutrition) })
    }

    /// `set_credit` of rules/training-volume.yaml, the one place the set credit is written: the
    /// adaptation tests count sets exactly as the shipped rules do.
    static let setCredit: TrainingRules.SetCredit? = {
        let path = "rules/training-volume.yaml"
        let credit = YAMLReader.read(AdaptationTestRules.text(path), file: path).document?.value()["set_credit"]
        guard let direct = credit?["direct"]?.numberValue, let indirect = credit?["indirect"]?.numberValue else { return nil }
        return TrainingRules.SetCredit(direct: direct, indirect: indirect)
    }()

    /// Names, equipment and regressions for the fixture's exercises (primary muscle only, so the
    /// counted sets equal the direct sets and the numbers below are easy to follow).
    static let exercises: [String: ExerciseFacts] = [
        "barbell_bench_press": .init(name: "Barbell bench press", primaryMuscles: ["chest"], equipment: ["barbell", "bench"], regressions: ["dumbbell_bench_press"]),
        "barbell_row": .init(name: "Barbell row", primaryMuscles: ["back"], equipment: ["barbell"]),
        "back_squat": .init(name: "Back squat", primaryMuscles: ["quads"], equipment: ["barbell", "rack"], regressions: ["goblet_squat"]),
        "romanian_deadlift": .init(name: "Romanian deadlift", primaryMuscles: ["hamstrings"], equipment: ["barbell"], regressions: ["dumbbell_romanian_deadlift"]),
        "hip_thrust": .init(name: "Hip thrust", primaryMuscles: ["glutes"], equipment: ["barbell", "bench"], regressions: ["glute_bridge"]),
        "standing_calf_raise": .init(name: "Standing calf raise", primaryMuscles: ["calves"], equipment: ["machine"]),
        "lateral_raise": .init(name: "Lateral raise", primaryMuscles: ["shoulders"], equipment: ["dumbbell"]),
        "goblet_squat": .init(name: "Goblet squat", primaryMuscles: ["quads"], equipment: ["dumbbell"]),
        "glute_bridge": .init(name: "Glute bridge", primaryMuscles: ["glutes"], equipment: ["bodyweight"]),
        "dumbbell_romanian_deadlift": .init(name: "Dumbbell Romanian deadlift", primaryMuscles: ["hamstrings"], equipment: ["dumbbell"]),
        "dumbbell_bench_press": .init(name: "Dumbbell bench press", primaryMuscles: ["chest"], equipment: ["dumbbell", "bench"]),
    ]

    static func block(_ muscle: String, _ exercise: String, _ sets: Int, reps: String = "6–10", rir: String = "1–3") -> Value {
        .map(["muscle": .string(muscle), "exerciseId": .string(exercise), "sets": .int(Int64(sets)), "reps": .string(reps),
              "rir": .string(rir), "alt_compact": .bool(false)])
    }

    /// An upper/lower week of four days with bands a little around its volume.
    static var upperLower: Value {
        let workouts: [Value] = [
            .map(["day": .int(1), "blocks": .list([
                block("chest", "barbell_bench_press", 4), block("back", "barbell_row", 4), block("shoulders", "overhead_press", 3),
                block("biceps", "barbell_curl", 3, reps: "10–15"), block("triceps", "cable_pushdown", 3, reps: "10–15"),
            ])]),
            .map(["day": .int(2), "blocks": .list([
                block("quads", "back_squat", 4), block("hamstrings", "romanian_deadlift", 4), block("glutes", "hip_thrust", 3),
                block("calves", "standing_calf_raise", 4, reps: "10–15"), block("core", "plank", 3, reps: "30–45s", rir: "2–3"),
            ])]),
            .map(["day": .int(3), "blocks": .list([
                block("chest", "incline_dumbbell_press", 3), block("back", "lat_pulldown", 4), block("shoulders", "lateral_raise", 4, reps: "10–15"),
                block("biceps", "hammer_curl", 3, reps: "10–15"), block("triceps", "overhead_extension", 3, reps: "10–15"),
            ])]),
            .map(["day": .int(4), "blocks": .list([
                block("quads", "leg_press", 4), block("hamstrings", "lying_leg_curl", 4, reps: "10–15"), block("glutes", "bulgarian_split_squat", 3),
                block("calves", "seated_calf_raise", 4, reps: "10–15"), block("core", "cable_crunch", 3, reps: "10–15"),
            ])]),
        ]
        let bands: [(String, String)] = [
            ("chest", "6–10"), ("back", "6–10"), ("shoulders", "6–10"), ("biceps", "4–8"), ("triceps", "4–8"),
            ("quads", "6–10"), ("hamstrings", "6–10"), ("glutes", "4–8"), ("calves", "6–10"), ("core", "4–8"),
        ]
        return .map([
            "idx": .map(["BMR": .int(1700), "TDEE": .int(2635), "BMI": .float(24.2), "WHtR": .null, "method": .string("mifflin")]),
            "kcal": .int(2400),
            "macros": .map(["protein_g": .int(160), "fat_g": .int(70), "carb_g": .int(283)]),
            "workouts": .list(workouts),
            "volume": .list(bands.map { .map(["muscle": .string($0.0), "band": .string($0.1)]) }),
            "ingredients": .map(["meals": .list([])]),
            "confidence": .string("med"),
            "tips": .list([]),
        ])
    }

    // Check-ins by readiness (see rules/readiness-rules.yaml's score): low = 2, neutral = 3, high = 5.
    static func low(_ date: String? = nil) -> CheckIn {
        CheckIn(date: date, sleepHours: 4.5, soreness: ["legs": 3], stress: 5, motivation: 2)
    }
    static func neutral(_ date: String? = nil) -> CheckIn {
        CheckIn(date: date, sleepHours: 6.5, soreness: ["chest": 2], stress: 3, motivation: 3)
    }
    static func high(_ date: String? = nil) -> CheckIn {
        CheckIn(date: date, sleepHours: 8, stress: 2, motivation: 4)
    }

    static func lines(_ result: AdaptationResult) -> [String] { result.changeLog.map(\.line) }
}
