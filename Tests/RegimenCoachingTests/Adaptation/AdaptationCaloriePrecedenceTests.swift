import Foundation
import RegimenTestSupport
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
import OrderedCollections

/// Issue 32: adapt's calorie steps go through the plans' one calorie precedence (safety floors >
/// pregnancy > goal band > the step), the same mechanism `plan` uses, not a band of their own.
@Suite struct AdaptationCaloriePrecedenceTests {
    static func adaptWeeks(_ profile: Profile, weeks: Int, trend: WeightTrend, editPlan: (inout [String: Value]) -> Void = { _ in })
        throws -> (start: Value, plans: [Value], lines: [String]) {
        let simulation = try #require(AdaptationSimulation.shared)
        var start = try simulation.planner.generatePlan(profile).jsonValue()
        if case .map(var root) = start {
            var plain = Dictionary(uniqueKeysWithValues: root.map { ($0.key, $0.value) })
            editPlan(&plain)
            root.removeAll()
            for key in plain.keys.sorted() { root[key] = plain[key] }
            start = .map(root)
        }
        var plan = start
        var plans: [Value] = []
        var lines: [String] = []
        for week in 1...weeks {
            let input = AdaptationInput(checkIns: AdaptationDefectTests.checkIns(week: week), adherencePct: 95, weightTrend: trend, week: week)
            let result = try AdaptationDefectTests.adapt(simulation, plan, input)
            plan = result.patchedPlan
            plans.append(plan)
            lines += result.changeLog.map(\.line)
        }
        return (start, plans, lines)
    }

    /// A pregnant client on fat loss whose weight stays above target: the precedence's pregnancy
    /// floor (no deficit) holds every week, and the banner names pregnancy and the rules' advice
    /// for it instead of a diet break. (On main the kcal held too, through adapt's own copy of the
    /// recorded floor, but the banner called it "the safety floor" and advised a diet break.)
    @Test(arguments: [nil, 1, 2, 3] as [Int?])
    func aPregnantClientsAdaptNeverGoesIntoDeficit(trimester: Int?) throws {
        let profile = Profile(sex: .female, scheduleDays: 3, age: 31, heightCm: 168, weightKg: 70, goal: "fat_loss", pregnant: true, trimester: trimester)
        let run = try Self.adaptWeeks(profile, weeks: 6, trend: .above)
        let tdee = try #require(run.start["idx"]?["TDEE"]?.numberValue)
        for (index, plan) in run.plans.enumerated() {
            let kcal = try #require(plan["kcal"]?.numberValue)
            #expect(kcal >= tdee.rounded(.down), "week \(index + 1): \(kcal) kcal below TDEE \(tdee)")
        }
        #expect(run.lines.contains { $0.contains("at the floor of pregnancy: no deficit") && $0.contains("no deficit in pregnancy (ACOG") }, "\(run.lines)")
        #expect(!run.lines.contains { $0.contains("diet break") }, "\(run.lines)")
    }

    /// A 44 kg woman of 66 cutting eats at the 1,200 kcal safety floor; weeks above target never
    /// take her under it — also when the plan does not carry its calorie decision (the seed's
    /// plan shape, or a plan from before the precedence). On main that plan's floor was adapt's
    /// own `kcal_floor` (her BMR), and a cut took her to 1,140 kcal.
    @Test(arguments: [false, true])
    func aSmallOlderWomansAdaptNeverGoesUnderTheFloor(withoutRecordedDecision: Bool) throws {
        let profile = Profile(sex: .female, scheduleDays: 2, age: 66, heightCm: 152, weightKg: 44, goal: "fat_loss")
        let run = try Self.adaptWeeks(profile, weeks: 6, trend: .above) { root in
            guard withoutRecordedDecision, case .map(var nutrition)? = root["nutrition"] else { return }
            nutrition["basis"] = nil
            root["nutrition"] = .map(nutrition)
        }
        #expect(run.start["kcal"]?.numberValue == 1200)
        for (index, plan) in run.plans.enumerated() {
            let kcal = try #require(plan["kcal"]?.numberValue)
            #expect(kcal >= 1200, "week \(index + 1): \(kcal) kcal under the 1,200 kcal floor")
        }
        #expect(run.lines.contains { $0.contains("the safety floor, 1200 kcal/day") && $0.contains("a coach would not cut further") }, "\(run.lines)")
    }
}
