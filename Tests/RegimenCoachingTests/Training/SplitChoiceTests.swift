import RegimenCoaching
import RegimenLanguage
import Testing

/// The split table's `choose` rule (rules/training-splits.yaml): at 3 days the template that
/// covers the most band minimums wins, and what is still short says why.
@Suite struct SplitChoiceTests {
    static func grid(days: Int, equipment: Profile.Equipment = .fullGym) -> [Profile] {
        Profile.Sex.allCases.flatMap { sex in
            Profile.Experience.allCases.flatMap { experience in
                TrainingPlanPropertyTests.goals.map { goal in
                    Profile(sex: sex, scheduleDays: days, experience: experience, equipment: equipment, goal: goal)
                }
            }
        }
    }

    /// Over every sex × experience × goal at 3 days with a full gym: at most 10% of the muscle
    /// rows fall below their band minimum.
    @Test func threeDayPlansReachTheBandMinimumOnNineRowsInTen() throws {
        let planner = try #require(TrainingFixtures.planner)
        var rows = 0
        var short: [String] = []
        for profile in Self.grid(days: 3) {
            let week = try planner.plan(for: profile)
            rows += week.volume.count
            short += week.shortfalls.map { "\(profile.sex) \(profile.experience?.rawValue ?? "") \(profile.goal ?? ""): \($0.muscle) \($0.planned)/\($0.band.lowerBound)" }
        }
        #expect(rows == 240)
        #expect(Double(short.count) <= 0.10 * Double(rows), "\(short.count) short: \(short.prefix(12))")
    }

    /// Every equipment profile at 3 days: the chosen template is never worse than the row's
    /// listed one, and the plan's notes say which won.
    @Test func theChosenTemplateNeverCoversFewerMinimumsThanTheListedOne() throws {
        let planner = try #require(TrainingFixtures.planner)
        for equipment in Profile.Equipment.allCases {
            for profile in Self.grid(days: 3, equipment: equipment) {
                let chosen = try planner.plan(for: profile)
                let listed = try planner.plan(for: profile, options: TrainingPlanOptions(split: "push_pull_legs_3"))
                #expect(chosen.shortfalls.count <= listed.shortfalls.count)
                #expect(chosen.notes.first?.contains("choose: most_band_minimums") == true)
            }
        }
    }

    @Test func anExplicitSplitIsKept() throws {
        let planner = try #require(TrainingFixtures.planner)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 3, experience: .advanced, equipment: .fullGym, goal: "lean_mass"),
                                    options: TrainingPlanOptions(split: "push_pull_legs_3"))
        #expect(week.split.templateId == "push_pull_legs_3")
    }

    @Test func aCoachCanKeepTheListedTemplate() throws {
        let files = TrainingFixtures.files(editing: "rules/training-splits.yaml", replacing: "      choose: most_band_minimums", with: "      choose: first")
        let result = TrainingFixtures.load(files)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        let planner = try TrainingPlanner(ruleSet: result.ruleSet)
        let week = try planner.plan(for: Profile(sex: .male, scheduleDays: 3, experience: .advanced, equipment: .fullGym, goal: "lean_mass"))
        #expect(week.split.templateId == "push_pull_legs_3")
    }

    /// At 1–2 days the session limits make the bands unreachable: every short row names the
    /// limit that bound it, and a tip names the fix for every short muscle.
    @Test func atOneOrTwoDaysEveryShortRowNamesItsLimitAndTheTip() throws {
        let planner = try #require(TrainingFixtures.planner)
        for days in 1...2 {
            for profile in Self.grid(days: days) {
                let week = try planner.plan(for: profile)
                for muscle in week.shortfalls {
                    #expect(!muscle.shortfallReasons.isEmpty, "\(days)d \(muscle.muscle)")
                    #expect(muscle.shortfallReasons.allSatisfy { $0.contains("limit") || $0.contains("at most") || $0.contains("session") })
                    #expect(week.tips.contains { $0.hasPrefix("Train \(days + 1) days a week") && $0.contains(muscle.muscle) })
                }
            }
        }
    }
}
