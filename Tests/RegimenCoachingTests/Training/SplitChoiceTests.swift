@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

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

    /// "Train N days a week to bring X up to the weekly set band" is true: at N days none of X is
    /// short, and at fewer days some of X still is; without such an N the tip says so instead.
    static func expectTheDaysTipHolds(_ week: TrainingWeek, _ profile: Profile, _ planner: TrainingPlanner) throws {
        let short = week.shortfalls.map(\.muscle)
        guard !short.isEmpty else { return }
        let days = week.split.trainingDays
        let prefix = "Train "
        guard let tip = week.tips.first(where: { $0.hasPrefix(prefix) && $0.contains(" days a week to bring ") }) else {
            #expect(week.tips.contains { $0.contains("cannot reach the weekly set band") }, "\(days)d: \(week.tips)")
            return
        }
        let named = try #require(Int(tip.dropFirst(prefix.count).prefix { $0.isNumber }))
        #expect(named > days)
        for count in (days + 1)...named {
            var longer = profile
            longer.scheduleDays = count
            let stillShort = Set(try planner.plan(for: longer).shortfalls.map(\.muscle))
            let fixed = short.allSatisfy { !stillShort.contains($0) }
            #expect(fixed == (count == named), "\(days)d → \(count)d: \(short) still short \(stillShort); tip: \(tip)")
        }
    }

    /// Over the grid at 1–6 days (and with injuries and little equipment), the days tip holds.
    @Test(arguments: 1...6)
    func theDaysTipIsTrue(days: Int) throws {
        let planner = try #require(TrainingFixtures.planner)
        for equipment in [Profile.Equipment.bodyweightOnly, .fullGym] {
            for experience in [Profile.Experience.novice, .advanced] {
                let profile = Profile(sex: .female, scheduleDays: days, experience: experience, equipment: equipment,
                                      injuries: [.knee, .shoulder, .lowBack], goal: "fat_loss")
                try Self.expectTheDaysTipHolds(try planner.plan(for: profile), profile, planner)
            }
        }
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
                    #expect(week.tips.contains { ($0.hasPrefix("Train ") || $0.contains("cannot reach")) && $0.contains(muscle.muscle) })
                }
                try Self.expectTheDaysTipHolds(week, profile, planner)
            }
        }
    }
}
