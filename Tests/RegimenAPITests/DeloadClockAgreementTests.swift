import Foundation
@testable import RegimenKit
import Testing

/// Issue 32, "one deload clock": `periodize` and `adapt` read the same rule value (`block_weeks`
/// of rules/readiness-rules.yaml), so for the same start they deload in the same weeks. Before,
/// a 12-week periodization deloaded weeks 4 and 8 while adapt deloaded week 6.
@Suite struct DeloadClockAgreementTests {
    /// Seven neutral check-ins (readiness neither low nor below average) of week `week` counted
    /// from 2026-03-02, without `week:` — the week follows from the plan's start date.
    static func neutralWeek(_ week: Int) -> String {
        let start = 20_514  // 2026-03-02 as days since 1970-01-01
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let lines = (0..<7).map { day -> String in
            let date = formatter.string(from: Date(timeIntervalSince1970: Double(start + (week - 1) * 7 + day) * 86_400))
            return "  - {date: \(date), sleep_h: 7.5, stress: 3, motivation: 3, soreness: {legs: 2}}"
        }
        return "checkins:\n" + lines.joined(separator: "\n") + "\n"
    }

    /// The weeks adapt deloads over `weeks` neutral weeks, each week's result the next week's plan.
    static func adaptDeloads(weeks: Int, goal: String) throws -> [Int] {
        let engine = try ReadmeExamplesTests.loaded()
        let profile = try engine.profile(from: Data(#"{"sex": "male", "schedule_days": 4, "weight_kg": 80, "experience": "intermediate", "goal": "\#(goal)"}"#.utf8), name: "profile")
        var result = try engine.adaptPlan(AdaptPlanRequest(currentPlan: engine.generatePlan(profile), checkIns: neutralWeek(1), name: "week 1"))
        var deloads: [Int] = []
        for week in 1...weeks {
            if week > 1 {
                result = try engine.adaptPlan(AdaptPlanRequest(plan: result.patchedPlan, planName: "week \(week - 1)", checkIns: neutralWeek(week), name: "week \(week)"))
            }
            if result.changeLog.contains(where: { $0.field == "deload" && $0.after == .bool(true) }) { deloads.append(week) }
        }
        return deloads
    }

    @Test(arguments: [(12, "strength"), (16, "lean_mass")])
    func periodizeAndAdaptDeloadTheSameWeeks(weeks: Int, goal: String) throws {
        let engine = try ReadmeExamplesTests.loaded()
        let periodized = try engine.periodize(weeks: weeks, goal: goal).schedule.filter(\.isDeload).map(\.week)
        let adapted = try Self.adaptDeloads(weeks: weeks, goal: goal)
        #expect(!periodized.isEmpty)
        #expect(periodized == adapted, "periodize deloads weeks \(periodized), adapt weeks \(adapted)")
    }
}
