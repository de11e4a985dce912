@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// `training_volume.muscle_adjustments`: "intermediate chest +2 sets" is one line.
/// Properties, over every experience level × goal × tracked muscle:
/// - the line moves exactly its muscle's band, by its sets (before the goal factor), and only for
///   the experience and goal it names; every other muscle's band is the unedited one;
/// - a misspelt muscle or goal is an error at the name's own line and column, with a suggestion.
@Suite struct MuscleAdjustmentTests {
    static let line = "muscle_adjustments:\n  - { muscle: chest, experience: intermediate, add_sets: 2 }\n"

    private func edited(_ replacement: String) -> [(path: String, text: String)] {
        TrainingFixtures.files(editing: "rules/training-volume.yaml", replacing: "muscle_adjustments: []\n", with: replacement)
    }

    private func errors(_ files: [(path: String, text: String)]) -> [Diagnostic] {
        TrainingFixtures.load(files).diagnostics.filter { $0.severity == .error }
    }

    @Test func oneLineMovesOnlyThatMusclesBandForThatExperience() throws {
        let base = try #require(TrainingFixtures.planner)
        let result = TrainingFixtures.load(edited(Self.line))
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        let planner = try TrainingPlanner(ruleSet: result.ruleSet)
        let goals = base.rules.goalModifiers.keys.sorted()
        var compared = 0
        for experience in Profile.Experience.allCases {
            for goal in goals {
                let profile = Profile(sex: .male, scheduleDays: 4, experience: experience, equipment: .fullGym, goal: goal)
                let before = try base.plan(for: profile)
                let after = try planner.plan(for: profile)
                for (old, new) in zip(before.volume, after.volume) {
                    compared += 1
                    #expect(old.muscle == new.muscle)
                    if old.muscle == "chest" && experience == .intermediate {
                        let factor = try #require(base.rules.goalModifiers[goal]).value.setFactor
                        let band = try #require(base.rules.bands[.intermediate]).value
                        let low = (Double(band.lowerBound + 2) * factor).saturatingInt()
                        #expect(new.band == low...max(low, (Double(band.upperBound + 2) * factor).saturatingInt()), "\(goal)")
                        #expect(new.band != old.band, "\(goal)")
                        #expect(new.sources.contains { $0.rule == "training_volume.muscle_adjustments[0]" })
                    } else {
                        #expect(new.band == old.band, "\(experience) \(goal) \(old.muscle)")
                    }
                }
            }
        }
        #expect(compared == Profile.Experience.allCases.count * goals.count * base.rules.trackedMuscles.count)
    }

    @Test func aGoalLineAppliesToThatGoalOnly() throws {
        let base = try #require(TrainingFixtures.planner)
        let planner = try TrainingPlanner(ruleSet: TrainingFixtures.load(edited("muscle_adjustments:\n  - { muscle: glutes, goal: fat_loss, add_sets: -2 }\n")).ruleSet)
        for experience in Profile.Experience.allCases {
            for goal in base.rules.goalModifiers.keys.sorted() {
                let profile = Profile(sex: .male, scheduleDays: 4, experience: experience, equipment: .fullGym, goal: goal)
                let old = try #require(try base.plan(for: profile).volume.first { $0.muscle == "glutes" })
                let new = try #require(try planner.plan(for: profile).volume.first { $0.muscle == "glutes" })
                if goal == "fat_loss" {
                    #expect(new.band.lowerBound < old.band.lowerBound, "\(experience)")
                } else {
                    #expect(new.band == old.band, "\(experience) \(goal)")
                }
            }
        }
    }

    @Test func aMisspeltMuscleIsReportedAtItsNameWithASuggestion() throws {
        let files = edited("muscle_adjustments:\n  - { muscle: chests, experience: intermediate, add_sets: 2 }\n")
        let text = try #require(files.first { $0.path == "rules/training-volume.yaml" }?.text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("muscle: chests") })
        let found = errors(files)
        // The schema lists the tracked muscles here too, so the loader reports a shape id.
        let error = try #require(found.first { $0.id == "rules.unknown-value" }, "\(found)")
        #expect(error.message.contains("'chests'") && error.message.contains("did you mean 'chest'?"), "\(error.message)")
        #expect(error.location?.file == "rules/training-volume.yaml")
        #expect(error.location?.line == row + 1)
        #expect(error.location?.column == "  - { muscle: ".count + 1)
    }

    @Test func aMisspeltGoalOrExperienceIsReportedAtItsName() throws {
        let files = edited("muscle_adjustments:\n  - { muscle: chest, goal: fat_los, add_sets: 2 }\n  - { muscle: back, experience: intermediat, add_sets: 1 }\n")
        let text = try #require(files.first { $0.path == "rules/training-volume.yaml" }?.text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let found = errors(files)
        let goal = try #require(found.first { $0.message.contains("'fat_los'") }, "\(found)")
        #expect(goal.message.contains("did you mean 'fat_loss'?"))
        #expect(goal.location?.line == (lines.firstIndex { $0.contains("fat_los,") } ?? -1) + 1)
        #expect(goal.location?.column == "  - { muscle: chest, goal: ".count + 1)
        let experience = try #require(found.first { $0.message.contains("intermediat") }, "\(found)")
        #expect(experience.location?.line == (lines.firstIndex { $0.contains("intermediat,") } ?? -1) + 1)
    }

    @Test func twoLinesForTheSameMuscleExperienceAndGoalAreAnError() {
        let found = errors(edited("muscle_adjustments:\n  - { muscle: chest, experience: advanced, add_sets: 2 }\n  - { muscle: chest, experience: advanced, add_sets: 1 }\n"))
        #expect(found.contains { $0.id == "rules.duplicate-id" && $0.message.contains("muscle_adjustments[1]") }, "\(found)")
    }
}
