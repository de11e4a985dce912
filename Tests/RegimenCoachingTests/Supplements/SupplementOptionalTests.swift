@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// Tier C items as optional where nothing stronger serves the goal, the seed's `goals` field,
/// and doses whose count agrees with their timing.
@Suite struct SupplementOptionalTests {
    static func adult(weight: Double = 70) -> Profile {
        Profile(sex: .female, scheduleDays: 4, ageRange: "25-34", weightKg: weight, dailyCaffeineMg: 0)
    }

    @Test func stressRecoveryOffersItsTierCItemsAsOptional() throws {
        let advisor = try #require(SupplementAdvisorTests.advisor)
        let advice = advisor.advise(profile: Self.adult(), goal: "stress_recovery")
        #expect(advice.optional.map(\.id) == ["ashwagandha", "rhodiola"])
        #expect(advice.optional.allSatisfy { $0.evidenceTier == .c })
        #expect(!advice.leftOut.contains { $0.id == "ashwagandha" })
        let json = advice.value
        #expect(json["optional"]?.listValue?.first?["evidence_tier"] == .string("C"))
    }

    /// For every goal: a tier C item is optional only when no shortlisted item of a stronger
    /// tier serves that goal alone, and never when a safety rule left it out.
    @Test func optionalOnlyWhereNothingStrongerServesTheGoal() throws {
        let advisor = try #require(SupplementAdvisorTests.advisor)
        for goal in advisor.catalog.goals {
            for pregnant in [false, true] {
                var profile = Self.adult()
                profile.pregnant = pregnant
                let advice = advisor.advise(profile: profile, goal: goal)
                let stronger = advice.shortlist.contains { $0.goals.contains(goal) && !$0.goals.contains("general_health") }
                if stronger { #expect(advice.optional.isEmpty, "\(goal)") }
                for item in advice.optional {
                    #expect(item.goals.contains(goal))
                    #expect(item.evidenceTier == .c)
                }
                if pregnant { #expect(!advice.optional.contains { $0.id == "ashwagandha" }) }
            }
        }
        #expect(advisor.advise(profile: Self.adult(), goal: "lean_mass").optional.isEmpty)
    }

    @Test func jsonItemsCarryTheSeedsGoalsField() throws {
        let advisor = try #require(SupplementAdvisorTests.advisor)
        let items = advisor.advise(profile: Self.adult(), goal: "lean_mass").value["shortlist"]?.listValue ?? []
        #expect(!items.isEmpty)
        for item in items {
            let goals = (item["goals"]?.listValue ?? []).compactMap(\.stringValue)
            #expect(goals == advisor.catalog.supplement(item["id"]?.stringValue ?? "")?.goals)
        }
    }

    /// For every catalog item and body weights 40–150 kg: when the timing names a number of
    /// doses, the amount is split into exactly that many.
    @Test func theDoseCountAgreesWithTheTiming() throws {
        let full = try #require(SupplementAdvisorTests.advisor)
        // Every tier on the shortlist, so each item's dose is worked out.
        var rules = full.rules
        rules.shortlistMinTier = .c
        let advisor = SupplementAdvisor(catalog: full.catalog, rules: rules)
        let words = ["two": 2, "three": 3, "four": 4]
        var checked = 0
        for weight in stride(from: 40.0, through: 150.0, by: 10) {
            var all: [SupplementAdvice.Recommendation] = []
            for goal in full.catalog.goals { all += advisor.advise(profile: Self.adult(weight: weight), goal: goal).shortlist }
            for item in all {
                guard let named = words.first(where: { item.dose.timing.contains("\($0.key) doses") })?.value else { continue }
                checked += 1
                #expect(item.dose.intakes == named, "\(item.id) at \(weight) kg: \(item.dose.amount) / \(item.dose.timing)")
                #expect(item.dose.amount.contains("in \(named) doses"), "\(item.id): \(item.dose.amount)")
            }
        }
        #expect(checked > 10)
    }
}
