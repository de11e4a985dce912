@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
import OrderedCollections

/// The training half of the seed's `generatePlan` response uses the seed's field names.
@Suite struct GeneratePlanContractTests {
    @Test func workoutsUseTheSeedFieldNames() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 3, experience: .novice, equipment: .fullGym))
        let response = GeneratePlanResponse.make(training: week, nutrition: nil)
        let workouts = try #require(response["workouts"]?.listValue)
        #expect(workouts.count == 3)
        #expect(workouts.first?["day"] == .int(1))
        let block = try #require(workouts.first?["blocks"]?.listValue?.first)
        for key in ["muscle", "exerciseId", "sets", "reps", "rir", "alt_compact"] {
            #expect(block[key] != nil, "missing \(key)")
        }
        #expect(block["reps"] == .string("6–10"))
        #expect(block["rir"] == .string("1–3"))
    }

    @Test func explainNamesTheRuleFilesBehindEachBlock() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 2, experience: .advanced, equipment: .fullGym, goal: "strength"))
        let response = GeneratePlanResponse.make(training: week, nutrition: nil, explain: true)
        let block = try #require(response["workouts"]?.listValue?.first?["blocks"]?.listValue?.first)
        let rules = (block["rules"]?.listValue ?? []).compactMap { $0.stringValue }
        #expect(rules.contains { $0.hasPrefix("rules/training-splits.yaml:") && $0.contains("days == 2") })
        #expect(rules.contains { $0.hasPrefix("rules/training-volume.yaml:") && $0.contains("advanced") })
        #expect(rules.contains { $0.hasPrefix("rules/training-goals.yaml:") && $0.contains("strength") })
        #expect(rules.contains { $0.hasPrefix("rules/training-session-limits.yaml:") })
    }

    @Test func nutritionSectionFieldsSitBesideTheWorkouts() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .female, scheduleDays: 1))
        let nutrition = PlanNutritionSection(
            idx: .map(["BMR": .float(1400)]), kcal: .int(1800), macros: .map(["protein_g": .int(110)]),
            ingredients: .map(["meals": .list([])]), confidence: .string("low"), tips: ["Add body fat % to improve BMR accuracy"])
        let response = GeneratePlanResponse.make(training: week, nutrition: nutrition)
        #expect(response.mapValue.map { Array($0.keys) } == ["confidence", "idx", "ingredients", "kcal", "macros", "tips", "training", "workouts"])
        #expect(response["tips"]?.listValue?.first == .string("Add body fat % to improve BMR accuracy"))
    }
}
