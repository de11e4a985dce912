@testable import RegimenCoaching
import RegimenTestSupport
import Testing

/// `plan --explain` says for each muscle which band, modifiers and credits gave its weekly sets
/// (issue 31 item 2: it printed the same six rules for every block and never why a muscle got its
/// sets). Property over the exercise-choice grid's sample, with an injury on every third plan:
/// each muscle's rules name its experience band, its goal's modifier, the set credit and, when
/// an injury cut its band, that cut; and its per-exercise shares add up to its direct and
/// indirect sets.
@Suite struct VolumeExplanationTests {
    @Test func everyMusclesSetsAreExplainedByTheirRulesAndExercises() throws {
        let planner = try #require(TrainingFixtures.planner)
        var checked = 0
        for (index, point) in ExerciseChoiceTests.points().enumerated() {
            var profile = point.profile
            if index % 3 == 0 { profile.injuries = [[.knee, .shoulder, .lowBack][index / 3 % 3]] }
            let week = try planner.plan(for: profile)
            for volume in week.volume {
                let rules = volume.sources.map(\.rule)
                let context = "\(volume.muscle) \(rules): \(point) \(profile.injuries)"
                #expect(rules.contains { $0.hasPrefix("training_volume.bands") }, "no band: \(context)")
                #expect(rules.contains { $0.hasPrefix("training_goals.modifiers") }, "no goal modifier: \(context)")
                #expect(rules.contains("training_volume.set_credit"), "no set credit: \(context)")
                if volume.injuryAdjustment != nil {
                    #expect(rules.contains { $0.contains("injury_set_cuts") }, "no injury cut: \(context)")
                }
                // `Name 4 direct` or `Name 2 × 0.5` (indirect sets × their credit).
                var direct = 0, indirect = 0
                for share in volume.contributions {
                    let words = share.split(separator: " ")
                    if words.last == "direct", words.count >= 2, let sets = Int(words[words.count - 2]) {
                        direct += sets
                    } else if words.count >= 3, words[words.count - 2] == "×", let sets = Int(words[words.count - 3]) {
                        indirect += sets
                    } else {
                        Issue.record("unreadable share '\(share)': \(context)")
                    }
                }
                #expect(direct == volume.directSets && indirect == volume.indirectSets,
                        "shares \(direct) + \(indirect) vs \(volume.directSets) + \(volume.indirectSets): \(context)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
