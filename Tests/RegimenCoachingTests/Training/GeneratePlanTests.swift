@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// `generatePlan` end to end on the repository's rules: nutrition and training in one response.
@Suite struct GeneratePlanTests {
    @Test func plannerFilesLoadTogether() {
        let result = RuleSetLoader(kinds: PlanGenerator.kinds).load(files: TrainingFixtures.plannerFiles)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        #expect(TrainingFixtures.generator != nil)
    }

    @Test func minimalProfileGivesTheSeedResponse() throws {
        let generator = try #require(TrainingFixtures.generator)
        let plan = try generator.generatePlan(Profile(sex: .female, scheduleDays: 3))
        let json = plan.jsonValue()
        for key in ["idx", "kcal", "macros", "workouts", "ingredients", "confidence", "tips"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["workouts"]?.listValue?.count == 3)
        #expect(json["macros"]?["protein_g"] != nil)
        #expect(json["ingredients"]?["meals"]?.listValue?.isEmpty == false)
        #expect(json["confidence"] == .string(plan.indexes.confidence))
        #expect(plan.training.split.templateId == "full_body_3")
    }

    @Test func sameProfileSameResponse() throws {
        let generator = try #require(TrainingFixtures.generator)
        let profile = PlanBenchmark.profile
        #expect(try generator.generatePlan(profile).jsonValue().jsonString() == generator.generatePlan(profile).jsonValue().jsonString())
    }

    @Test func aSplitOptionNotOfferedIsAnError() throws {
        let generator = try #require(TrainingFixtures.generator)
        #expect(throws: PlanGenerationError.self) {
            try generator.generatePlan(Profile(sex: .male, scheduleDays: 4), options: TrainingPlanOptions(split: "full_body_3"))
        }
    }
}
