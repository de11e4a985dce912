@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import OrderedCollections

/// The supplements advisor on the repository's catalog and caution rules.
@Suite struct SupplementAdvisorTests {
    static let advisor: SupplementAdvisor? = {
        guard let ruleSet = AdaptationTestRules.ruleSet,
              let catalog = ruleSet.first(SupplementCatalogFile.self)?.catalog,
              let rules = ruleSet.first(SupplementRulesFile.self)?.rules else { return nil }
        return SupplementAdvisor(catalog: catalog, rules: rules)
    }()

    /// The advisor over a few catalog items, for grid tests (the other items cannot change the
    /// property checked, and screening fewer keeps the grid quick).
    static func advisor(only ids: Set<String>) -> SupplementAdvisor? {
        guard let full = advisor else { return nil }
        var catalog = full.catalog
        catalog.supplements = catalog.supplements.filter { ids.contains($0.id) }
        return SupplementAdvisor(catalog: catalog, rules: full.rules)
    }

    /// The tags `rules/dietary-exclusions.yaml` gives a vegan profile.
    static let veganTags = ["meat", "fish", "shellfish", "dairy", "egg"]

    private func advise(_ profile: Profile, goal: String? = "lean_mass", tags: [String] = []) throws -> SupplementAdvice {
        let advisor = try #require(Self.advisor)
        return advisor.advise(profile: profile, goal: goal, excludedTags: tags)
    }

    private func adult(weight: Double? = 70, caffeine: Double? = 0) -> Profile {
        Profile(sex: .male, scheduleDays: 4, ageRange: "25-34", weightKg: weight, goal: "lean_mass", dailyCaffeineMg: caffeine)
    }

    private func item(_ advice: SupplementAdvice, _ id: String) -> SupplementAdvice.Recommendation? {
        advice.shortlist.first { $0.id == id }
    }

    private func reasons(_ advice: SupplementAdvice, _ id: String) -> [String] {
        advice.leftOut.first { $0.id == id }?.reasons.map(\.rule) ?? []
    }

    // MARK: - Shortlist and doses

    @Test func leanMassShortlistForAHealthyAdult() throws {
        let advice = try advise(adult())
        #expect(advice.shortlist.map(\.id) == ["whey_protein", "casein_protein", "creatine_monohydrate", "caffeine", "beta_alanine",
                                               "electrolytes", "sodium_bicarbonate", "omega_3", "vitamin_d3", "magnesium"])
        #expect(reasons(advice, "bcaa").contains("evidence_tier"))
        #expect(reasons(advice, "eaa") == ["redundant"])
        #expect(reasons(advice, "plant_protein") == ["redundant"])
        #expect(reasons(advice, "ashwagandha").contains("goal"))
    }

    @Test func dosesScaleWithBodyWeight() throws {
        let light = try advise(adult(weight: 60))
        let heavy = try advise(adult(weight: 90))
        #expect(item(light, "caffeine")?.dose.suggested == 180)
        #expect(item(heavy, "caffeine")?.dose.suggested == 270)
        #expect(item(light, "whey_protein")?.dose.suggested == 15)  // 0.25 g/kg × 60 kg
        #expect(item(heavy, "whey_protein")?.dose.suggested == 25)  // 22.5 g: 20 g would be below the range, so the next 5 g step
        #expect(item(light, "sodium_bicarbonate")?.dose.suggested == 12)
        #expect(item(light, "caffeine")?.dose.amount == "180 mg per serving (3 mg/kg × 60 kg)")
    }

    @Test func betaAlanineIsSplitIntoDosesOfAtMostOnePointSixGrams() throws {
        let dose = try #require(item(try advise(adult()), "beta_alanine")?.dose)
        #expect(dose.suggested == 4)
        #expect(dose.intakes == 3)
        #expect(dose.amount == "4 g a day, in 3 doses of at most 1.6 g")
    }

    @Test func hmbFollowsTheStandsPerKilogramDose() throws {
        let advice = try advise(adult(weight: 80), goal: nil)
        let left = try #require(advice.leftOut.first { $0.id == "hmb" })
        #expect(left.reasons.map(\.rule) == ["evidence_tier"])
        let catalog = try #require(Self.advisor?.catalog.supplement("hmb"))
        #expect(catalog.dose.range == 38...38)
        #expect(catalog.dose.basis == .perKg)
    }

    @Test func seedVersusStandChoicesAreRecordedWithTheirReason() throws {
        let catalog = try #require(Self.advisor?.catalog)
        for id in ["caffeine", "beta_alanine", "magnesium", "nitrate_beetroot"] {
            let dose = try #require(catalog.supplement(id)?.dose)
            #expect(dose.stand != nil, "\(id) records the stand's figure")
            #expect(dose.choice?.isEmpty == false, "\(id) says why")
            #expect(!dose.seed.isEmpty)
        }
        #expect(catalog.supplement("magnesium")?.dose.range.upperBound == 250)
        #expect(catalog.supplement("caffeine")?.dose.range == 1...3)
        #expect(catalog.supplement("beta_alanine")?.dose.range == 4...6)
        #expect(catalog.supplement("nitrate_beetroot")?.dose.range == 310...434)
    }

    @Test func everySeedItemIsInTheCatalog() throws {
        let ids = Set(try #require(Self.advisor?.catalog).supplements.map(\.id))
        #expect(ids == ["whey_protein", "casein_protein", "plant_protein", "creatine_monohydrate", "caffeine", "bcaa", "eaa",
                        "beta_alanine", "citrulline_malate", "hmb", "l_carnitine", "electrolytes", "sodium_bicarbonate",
                        "nitrate_beetroot", "omega_3", "vitamin_d3", "magnesium", "ashwagandha", "rhodiola"])
    }

    // MARK: - Safety

    @Test func aMinorGetsTheMinorCaution() throws {
        let minor = Profile(sex: .female, scheduleDays: 3, ageRange: "<18", weightKg: 55, goal: "lean_mass")
        let advice = try advise(minor)
        #expect(!advice.shortlist.isEmpty)
        for item in advice.shortlist {
            #expect(item.personalCautions.contains { $0.rule == "minor_food_first" }, "\(item.id) carries the minor caution")
        }
        for id in ["caffeine", "creatine_monohydrate", "beta_alanine", "sodium_bicarbonate"] {
            #expect(reasons(advice, id).contains("minor_no_performance_aids"), "\(id) is left out for a minor")
        }
    }

    @Test func anExactAgeUnder18CountsAsAMinorWhateverTheRange() throws {
        let advice = try advise(Profile(sex: .male, scheduleDays: 3, ageRange: "18-24", age: 17, weightKg: 60))
        #expect(reasons(advice, "caffeine").contains("minor_no_performance_aids"))
    }

    @Test func aHypertensiveUserGetsNoStimulantWithoutACaution() throws {
        let catalog = try #require(Self.advisor?.catalog)
        let stimulants = Set(catalog.supplements.filter(\.stimulant).map(\.id))
        #expect(!stimulants.isEmpty)
        let advisor = try #require(Self.advisor(only: stimulants.union(["sodium_bicarbonate"])))
        for weight in stride(from: 40.0, through: 160.0, by: 15) {
            for caffeine in [nil, 0.0, 150, 400] {
                for goal in catalog.goals + [nil] as [String?] {
                    var profile = adult(weight: weight, caffeine: caffeine)
                    profile.hypertension = true
                    let advice = advisor.advise(profile: profile, goal: goal)
                    for item in advice.shortlist where stimulants.contains(item.id) {
                        #expect(item.personalCautions.contains { $0.rule.hasPrefix("hypertension") }, "\(item.id) for \(weight) kg")
                    }
                    #expect(reasons(advice, "sodium_bicarbonate").contains("hypertension_high_sodium") || goal.map { !(catalog.supplement("sodium_bicarbonate")?.goals.contains($0) ?? false) } == true)
                }
            }
        }
        var profile = adult()
        profile.hypertension = true
        let advice = try advise(profile)
        #expect(reasons(advice, "caffeine").contains("hypertension_stimulant"))
        #expect(item(advice, "electrolytes")?.personalCautions.contains { $0.rule == "hypertension_sodium" } == true)
    }

    @Test func caffeineNeverExceedsTheDailyCapWithReportedIntake() throws {
        let advisor = try #require(Self.advisor(only: ["caffeine"]))
        let capFact = try #require(advisor.rules.facts.first { $0.name == "caffeine_cap_mg" })
        let perKgFact = try #require(advisor.rules.facts.first { $0.name == "caffeine_cap_mg_per_kg" })
        var shortlisted = 0
        var leftOutForCap = 0
        for weight in stride(from: 30.0, through: 250.0, by: 2.5) {
            for reported in stride(from: 0.0, through: 800.0, by: 25) {
                let profile = adult(weight: weight, caffeine: reported)
                let bindings: [String: Value] = ["profile": .map(["weight_kg": .float(weight)]), "caffeine_cap_mg_per_kg": try perKgFact.expression.evaluate([:])]
                let cap = try #require(try capFact.expression.evaluate(bindings).numberValue)
                #expect(cap <= 5.7 * weight + 1e-9 && cap <= 400)
                let advice = advisor.advise(profile: profile, goal: "strength")
                if let caffeine = advice.shortlist.first(where: { $0.id == "caffeine" }) {
                    shortlisted += 1
                    #expect(caffeine.dose.suggested + reported <= cap + 1e-9, "\(weight) kg, \(reported) mg reported")
                    #expect(caffeine.dose.suggested <= 3 * weight + 1e-9, "single dose within 3 mg/kg")
                    #expect(caffeine.dose.suggested >= 1 * weight - 1e-9, "at least the effective minimum")
                } else {
                    #expect(reasons(advice, "caffeine") == ["total_caffeine"])
                    leftOutForCap += 1
                }
            }
        }
        #expect(shortlisted > 0 && leftOutForCap > 0)
    }

    @Test func reportedCaffeineLowersTheDoseAndSaysSo() throws {
        let advice = try advise(adult(weight: 70, caffeine: 250))
        let caffeine = try #require(item(advice, "caffeine"))
        #expect(caffeine.dose.suggested == 140)  // cap 399 mg − 250 mg reported = 149 → 140 in 10 mg steps
        #expect(caffeine.personalCautions.contains { $0.rule == "total_caffeine" && $0.message.contains("Dose lowered from 210 to 140 mg") })
        let full = try advise(adult(weight: 70, caffeine: 350))
        #expect(item(full, "caffeine") == nil)
        let message = full.leftOut.first { $0.id == "caffeine" }?.reasons.first?.message ?? ""
        #expect(message.contains("you report 350 mg a day"))
        #expect(message.contains("the daily cap for 70 kg is 399 mg"))
    }

    @Test func unknownCaffeineIntakeIsAskedFor() throws {
        let advice = try advise(adult(caffeine: nil))
        #expect(item(advice, "caffeine")?.personalCautions.contains { $0.rule == "caffeine_intake_unknown" } == true)
    }

    @Test func noDoseEverGoesAboveAnUpperLimit() throws {
        let catalog = try #require(Self.advisor?.catalog)
        for weight in stride(from: 30.0, through: 250.0, by: 10) {
            let advice = try advise(adult(weight: weight), goal: nil)
            for recommendation in advice.shortlist {
                let dose = try #require(catalog.supplement(recommendation.id)?.dose)
                let scale = dose.basis == .perKg ? weight : 1
                #expect(recommendation.dose.suggested <= dose.range.upperBound * scale + 1e-9)
                #expect(recommendation.dose.suggested >= dose.range.lowerBound * scale - 0.1)
                if let limit = dose.upperLimit {
                    let cap = limit.basis == .perKg ? limit.amount * weight : limit.amount
                    #expect(recommendation.dose.suggested <= cap + 1e-9, "\(recommendation.id) at \(weight) kg")
                }
            }
        }
    }

    @Test func pregnancyLeavesOutEverythingNotKnownToBeCompatible() throws {
        var profile = Profile(sex: .female, scheduleDays: 3, ageRange: "25-34", weightKg: 65, goal: "lean_mass", dailyCaffeineMg: 0)
        profile.pregnant = true
        let advice = try advise(profile)
        let catalog = try #require(Self.advisor?.catalog)
        for item in advice.shortlist {
            #expect(catalog.supplement(item.id)?.pregnancy == .compatible)
            #expect(item.personalCautions.contains { $0.rule == "pregnancy_check" })
        }
        #expect(reasons(advice, "caffeine").contains("pregnancy_avoid"))
        #expect(advice.leftOut.first { $0.id == "caffeine" }?.reasons.first?.message.contains("advised against") == true)
        #expect(advice.leftOut.first { $0.id == "creatine_monohydrate" }?.reasons.first?.message.contains("not studied enough") == true)
    }

    @Test func medicationInteractionsLeaveTheItemOutAndUnknownMedicationsAreFlagged() throws {
        var profile = adult()
        profile.medications = ["Warfarin", "Levothyroxine", "mystery-pill"]
        let advice = try advise(profile, goal: nil)
        let omega = advice.leftOut.first { $0.id == "omega_3" }
        #expect(omega?.reasons.map(\.rule) == ["medication_interaction"])
        #expect(omega?.reasons.first?.message.contains("anticoagulant") == true)
        #expect(reasons(advice, "magnesium").contains("medication_interaction"))
        #expect(reasons(advice, "l_carnitine").contains("medication_interaction"))
        for item in advice.shortlist {
            #expect(item.personalCautions.contains { $0.rule == "unknown_medication" && $0.message.contains("mystery-pill") })
        }
    }

    @Test func aVeganGetsPlantProteinAndAnAlgaeOilNote() throws {
        let advice = try advise(adult(), tags: Self.veganTags)
        #expect(reasons(advice, "whey_protein") == ["dietary_exclusion"])
        #expect(reasons(advice, "casein_protein") == ["dietary_exclusion"])
        #expect(item(advice, "plant_protein") != nil)
        #expect(item(advice, "omega_3")?.personalCautions.contains { $0.rule == "dietary_source" && $0.message.contains("algae") } == true)
    }

    @Test func withoutWeightPerKilogramItemsAreLeftOutWithTheReason() throws {
        let advice = try advise(adult(weight: nil))
        #expect(reasons(advice, "caffeine").contains("weight_needed"))
        #expect(reasons(advice, "whey_protein") == ["weight_needed"])
        #expect(item(advice, "creatine_monohydrate") != nil)
    }

    @Test func theSameProfileGivesTheSameAdvice() throws {
        var profile = adult(weight: 82.5, caffeine: 120)
        profile.medications = ["sertraline"]
        #expect(try advise(profile) == advise(profile))
        #expect(try advise(profile).value.jsonString() == advise(profile).value.jsonString())
    }

    /// A catalog built in code (not through the loader, which rejects repeats) may list an id
    /// twice; advice is still given, in the first listing's order, instead of trapping.
    @Test func aCodeBuiltCatalogRepeatingAnIdDoesNotTrap() throws {
        let full = try #require(Self.advisor)
        var catalog = full.catalog
        let first = try #require(catalog.supplements.first)
        catalog.supplements.append(first)
        let advice = SupplementAdvisor(catalog: catalog, rules: full.rules).advise(profile: adult(), goal: "lean_mass", excludedTags: [])
        let plain = full.advise(profile: adult(), goal: "lean_mass", excludedTags: [])
        #expect(advice.shortlist.map(\.id).first == plain.shortlist.map(\.id).first)
        #expect(!advice.shortlist.isEmpty || !advice.leftOut.isEmpty)
    }
}
