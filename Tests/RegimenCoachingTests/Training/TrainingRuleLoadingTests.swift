@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import Foundation

/// Rule-file mistakes are load errors with a location, all reported in one pass.
@Suite struct TrainingRuleLoadingTests {
    @Test func repositoryFilesLoadCleanly() {
        let result = TrainingFixtures.load()
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        #expect(TrainingFixtures.planner?.catalog.exercises.count ?? 0 >= 80)
    }

    private func errors(_ files: [(path: String, text: String)]) -> [Diagnostic] {
        TrainingFixtures.load(files).diagnostics.filter { $0.severity == .error }
    }

    /// Every training file that is missing or doubled is named at once (the resolver used to stop
    /// at the first missing kind it looked for).
    @Test func everyMissingOrDoubledTrainingFileIsNamedAtOnce() {
        let kept = TrainingFixtures.files.filter { !["rules/training-volume.yaml", "rules/training-recovery.yaml", "catalogs/exercise-catalog.yaml"].contains($0.path) }
        let doubled = kept + TrainingFixtures.files.filter { $0.path == "rules/training-goals.yaml" }.map { ("rules/training-goals-copy.yaml", $0.text) }
        let result = TrainingFixtures.load(doubled)
        #expect(throws: DiagnosticsError.self) { try TrainingPlanner(ruleSet: result.ruleSet) }
        do {
            _ = try TrainingPlanner(ruleSet: result.ruleSet)
        } catch {
            #expect(error.diagnostics.map(\.message).sorted() == [
                "more than one rule file of kind 'training_goals' (needed by the training planner): rules/training-goals-copy.yaml, rules/training-goals.yaml",
                "no rule file of kind 'exercise_catalog' (catalogs/exercise-catalog.yaml) was loaded (needed by the training planner)",
                "no rule file of kind 'training_recovery' was loaded (needed by the training planner)",
                "no rule file of kind 'training_volume' was loaded (needed by the training planner)",
            ])
        }
    }

    /// The kinds the planner registers are the ones its resolver takes: a kind the resolver
    /// reads is registered with no list to edit.
    @Test func thePlannersKindsAreTheOnesItsResolverTakes() {
        let kinds = Set(TrainingRules.fileKinds.map { $0.kind })
        let files = Set(TrainingFixtures.files.compactMap { YAMLReader.read($0.text, file: $0.path).document?["kind"]?.scalar?.text })
        #expect(kinds == files)
        #expect(Set(TrainingRules.ruleKinds.map { $0.kind }) == kinds.subtracting(["exercise_catalog", "plan_templates"]))
    }

    @Test func aDaysValueNoRowCoversIsAGap() {
        let files = TrainingFixtures.files(editing: "rules/training-splits.yaml", replacing: "    - when: days == 4\n      split: upper_lower_4\n", with: "")
        let found = errors(files)
        #expect(found.contains { $0.id == "rules.table-gap" && $0.message.contains("days == 4") && $0.location?.file == "rules/training-splits.yaml" })
    }

    @Test func twoRowsMatchingUnderUniqueIsAnOverlap() {
        let files = TrainingFixtures.files(editing: "rules/training-volume.yaml", replacing: "experience == 'advanced'", with: "experience != 'novice'")
        #expect(errors(files).contains { $0.id == "rules.table-overlap" && $0.message.contains("intermediate") })
    }

    @Test func unknownKeysAndBadNotationAreAllReportedAtOnce() {
        var files = TrainingFixtures.files(editing: "rules/training-goals.yaml", replacing: "compound: 5x3-6 @RIR 1-2", with: "compound: five by three")
        files = files.map { $0.path == "rules/training-compact.yaml" ? ($0.path, $0.text.replacingOccurrences(of: "rounds: 2", with: "round: 2")) : $0 }
        let found = errors(files)
        // Not a prescription's written form at all: a shape error, which the schema's pattern reports too.
        #expect(found.contains { $0.id == "rules.notation-form" && $0.location?.file == "rules/training-goals.yaml" })
        #expect(found.contains { $0.id == "rules.unknown-key" && $0.message.contains("round") && $0.location?.file == "rules/training-compact.yaml" })
    }

    @Test func anInjuryWithoutALocalCutIsAnError() {
        let files = TrainingFixtures.files(editing: "rules/training-selection.yaml", replacing: "  ankle: {muscles: [calves], cut: 30%}\n", with: "")
        #expect(errors(files).contains { $0.id == "rules.missing-key" && $0.message.contains("ankle") })
    }

    @Test func aCatalogReferenceToAnUnknownExerciseIsAnError() {
        let files = TrainingFixtures.files(editing: "catalogs/exercise-catalog.yaml", replacing: "regressions: [goblet_squat, box_squat]", with: "regressions: [goblet_sqat, box_squat]")
        // A word outside the exercise-id vocabulary, which the schema lists too.
        #expect(errors(files).contains { $0.id == "rules.unknown-value" && $0.message.contains("goblet_sqat") })
    }

    @Test func aTemplateWithTheWrongNumberOfDaysIsAnError() {
        let files = TrainingFixtures.files(editing: "catalogs/plan-templates.yaml", replacing: "weekly_structure: [upper, lower, upper, lower]", with: "weekly_structure: [upper, lower, upper]")
        #expect(errors(files).contains { $0.id == "rules.template-days" && $0.message.contains("upper_lower_4") })
    }

    @Test func aMuscleListedTwiceInADayTypeIsAnErrorAtTheRepeat() throws {
        let files = TrainingFixtures.files(
            editing: "catalogs/plan-templates.yaml", replacing: "muscles: [chest, shoulders, triceps]", with: "muscles: [chest, shoulders, triceps, chest]")
        let text = try #require(files.first { $0.path == "catalogs/plan-templates.yaml" }?.text)
        let lineIndex = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasSuffix("muscles: [chest, shoulders, triceps, chest]") })
        let found = errors(files).filter { $0.id == "rules.duplicate-id" }
        #expect(found.count == 1, "\(found)")
        let error = try #require(found.first)
        #expect(error.message == "day type 'push': 'muscles' lists 'chest' twice")
        #expect(error.location?.file == "catalogs/plan-templates.yaml")
        #expect(error.location?.line == lineIndex + 1)
        // The second `chest`, not the first.
        #expect(error.location?.column == "    muscles: [chest, shoulders, triceps, ".count + 1)
        #expect(error.notes.contains { $0.hasPrefix("first listed at catalogs/plan-templates.yaml:\(lineIndex + 1):") })
    }

    @Test func aDayTypeBuiltInCodeWithARepeatedMusclePlansWithoutTrapping() throws {
        let planner = try #require(TrainingFixtures.planner)
        var rules = planner.rules
        rules.dayTypes["push"]?.muscles.append("chest")
        let week = try TrainingPlanner(rules: rules, catalog: planner.catalog).plan(
            for: Profile(sex: .male, scheduleDays: 3, experience: .intermediate, equipment: .fullGym), options: TrainingPlanOptions(split: "push_pull_legs_3"))
        let push = try #require(week.workouts.first)
        #expect(push.focus == "Push")
        // Blocks follow the muscles' first places in the list.
        let order = ["chest", "shoulders", "triceps"]
        let ranks = push.blocks.compactMap { order.firstIndex(of: $0.muscle) }
        #expect(!ranks.isEmpty && ranks == ranks.sorted())
    }
}
