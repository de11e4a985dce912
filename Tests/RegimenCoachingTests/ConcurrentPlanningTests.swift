import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing

/// The loaded rules are built once and shared by every request an app or service makes:
/// planning from many tasks at once gives exactly the plans made one after another.
/// (scripts/sanitize.sh thread runs this suite under ThreadSanitizer.)
@Suite struct ConcurrentPlanningTests {
    static let profiles = [
        "sex: female\nschedule_days: 3\n",
        "sex: male\nschedule_days: 5\nage: 41\nheight_cm: 182\nweight_kg: 88\ngoal: recomposition\nmeals_per_day: 4\n",
        "sex: female\nschedule_days: 6\nage: 29\nweight_kg: 61\nexperience: advanced\ninjuries: [knee]\nexclusions: [dairy]\n",
        "sex: male\nschedule_days: 2\nequipment: bodyweight_only\nbudget_tier: low\n",
    ]

    @Test("shared nutrition rules give the same targets from 8 concurrent tasks")
    func sharedNutritionRules() async throws {
        let rules = try TestRules.rules()
        let profiles = try Self.profiles.map { try rules.profileDecoder.decode(text: $0, file: "p.yaml") }
        func targets() throws -> [String] {
            try profiles.map { profile in
                let report = try rules.recalculateIndexes(profile)
                return "\(report)"
            }
        }
        let serial = try targets()
        let concurrent = await withTaskGroup(of: [String]?.self) { group in
            for _ in 0..<8 { group.addTask { try? targets() } }
            var runs: [[String]?] = []
            for await run in group { runs.append(run) }
            return runs
        }
        #expect(concurrent.count == 8)
        for run in concurrent { #expect(run == serial) }
    }
}
