import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
import RegimenTestSupport
import Testing

/// The one calorie precedence (`rules/nutrition.yaml` `calorie_precedence`): safety floors >
/// pregnancy > the goal's band > the proposed kcal.
@Suite struct CaloriePrecedenceTests {
    func plan(_ yaml: String) throws -> NutritionPlan {
        try TestRules.rules().planNutrition(try TestRules.profile(yaml))
    }

    /// Issue 31: a 44 kg woman over 60 cutting got 1,063 kcal (TDEE × 0.85), below the NHLBI
    /// floor of 1,200 for women. The floor lies above the whole fat-loss band, and wins.
    @Test func aSmallOlderWomanCuttingEatsAtTheSafetyFloor() throws {
        let plan = try plan("sex: female\nschedule_days: 2\nage: 66\nheight_cm: 152\nweight_kg: 44\ngoal: fat_loss\n")
        #expect(plan.kcal == 1200)
        #expect(plan.calories.bound == .absoluteFloor)
        #expect(plan.calories.band.upperBound < 1200)
        #expect(plan.adjustments.first?.contains("the safety floor for women, 1200 kcal/day") == true)
        #expect(plan.adjustments.first?.contains("the floor wins") == true)
    }

    /// Issue 31: a pregnant client on fat loss got TDEE × 0.85 (1,889 of 2,223 kcal). Pregnancy
    /// forbids a deficit; the second trimester adds 340 kcal.
    @Test func aPregnantClientIsNeverInDeficit() throws {
        let base = "sex: female\nschedule_days: 3\nage: 31\nheight_cm: 168\nweight_kg: 70\ngoal: fat_loss\npregnant: true\n"
        let unknown = try plan(base)
        #expect(unknown.kcal >= unknown.tdee.rounded(.down))
        #expect(unknown.calories.bound == .pregnancy)
        #expect(unknown.adjustments.first?.contains("pregnancy: no deficit") == true)
        let second = try plan(base + "trimester: 2\n")
        #expect(second.kcal == (second.tdee + 340).rounded(.toNearestOrAwayFromZero))
        let third = try plan(base + "trimester: 3\n")
        #expect(third.kcal == (third.tdee + 452).rounded(.toNearestOrAwayFromZero))
    }

    /// Issue 31: the nutrition side of a pregnant plan said nothing (the training side had its
    /// caution). It now says why the kcal is not in deficit and what the trimester asks, from
    /// `calorie_precedence.pregnancy` in rules/nutrition.yaml, in the plan's text and JSON.
    @Test func aPregnantClientsNutritionSaysWhyThereIsNoDeficit() throws {
        let base = "sex: female\nschedule_days: 3\nage: 31\nheight_cm: 168\nweight_kg: 70\ngoal: fat_loss\npregnant: true\n"
        let unknown = try plan(base)
        #expect(unknown.cautions.count == 2)
        #expect(unknown.cautions.first?.hasPrefix("Pregnancy: no calorie deficit") == true)
        #expect(unknown.cautions.last?.hasPrefix("Trimester not given") == true)
        #expect(unknown.cautions.last?.contains("340 and 452 kcal/day") == true)
        let expected = [1: "First trimester: no extra energy", 2: "Second trimester: about 340 kcal/day", 3: "Third trimester: about 452 kcal/day"]
        for (trimester, opening) in expected {
            let plan = try plan(base + "trimester: \(trimester)\n")
            #expect(plan.cautions.first?.hasPrefix("Pregnancy: no calorie deficit") == true)
            #expect(plan.cautions.last?.hasPrefix(opening) == true, "\(plan.cautions)")
            #expect(!plan.cautions.joined().contains("{"), "a placeholder left unfilled: \(plan.cautions)")
            #expect(plan.jsonValue["cautions"] == .list(plan.cautions.map(Value.string)))
        }
        let notPregnant = try plan("sex: female\nschedule_days: 3\nage: 31\nheight_cm: 168\nweight_kg: 70\ngoal: fat_loss\n")
        #expect(notPregnant.cautions.isEmpty)
        #expect(notPregnant.jsonValue["cautions"] == .list([]))
    }

    @Test func aTrimesterWithoutPregnancyIsRefused() throws {
        let rules = try TestRules.rules()
        #expect(throws: ProfileError.self) {
            try rules.profileDecoder.decode(text: "sex: female\nschedule_days: 3\ntrimester: 2\n", file: "p.yaml")
        }
    }

    /// What adapt's calorie steps get: a step that would leave the goal's band stops at its edge,
    /// and a floor still wins over the band.
    @Test func anAdaptStepStopsAtTheBandAndTheFloor() throws {
        let rules = try TestRules.rules()
        let precedence = CaloriePrecedence(rules: rules.nutrition)
        let facts = CaloriePrecedence.Facts(sex: .male, pregnant: false, trimester: nil, goal: "fat_loss", tdee: 2800, bmr: 1800)
        let inside = precedence.resolve(proposed: 2380, facts)
        #expect(inside.kcal == 2380 && inside.bound == nil && inside.reason == nil)
        let below = precedence.resolve(proposed: 2100, facts)
        #expect(below.kcal == 2240 && below.bound == .goalBandLow)
        let above = precedence.resolve(proposed: 2700, facts)
        #expect(above.kcal == 2520 && above.bound == .goalBandHigh)
        let small = CaloriePrecedence.Facts(sex: .male, pregnant: false, trimester: nil, goal: "fat_loss", tdee: 1650, bmr: 1350)
        let floored = precedence.resolve(proposed: 1300, small)
        #expect(floored.kcal == 1500 && floored.bound == .absoluteFloor)
        let bmrBound = CaloriePrecedence.Facts(sex: .male, pregnant: false, trimester: nil, goal: "fat_loss", tdee: 2000, bmr: 1700)
        #expect(precedence.resolve(proposed: 1600, bmrBound).bound == .bmrFloor)
        #expect(precedence.resolve(proposed: 1600, bmrBound).kcal == 1700)
    }

    /// The property over a grid of profiles: the target is never below the absolute floor for
    /// the client's sex nor below BMR; a pregnant client is never in deficit (at least TDEE plus
    /// the trimester's extra) and carries the nutrition caution; otherwise, when no floor lifted
    /// it, the precedence's target lies in the goal's band; the plan's kcal (which the
    /// carbohydrate floor may still raise) is never below the precedence's target. Protein is
    /// planned on the basis the rules name (lean mass with body fat, adjusted weight at BMI ≥ 30,
    /// else body weight) and its g/kg of that basis stays in the basis's range (below it only with
    /// an adjustment saying so). `swift test` runs a seeded sample (every 7th point);
    /// `REGIMEN_NUTRITION_GRID=full` (scripts/plan-safety-grid.sh) runs every point and the
    /// figures it prints are the script's.
    @Test func everyTargetFollowsThePrecedence() throws {
        let rules = try TestRules.rules()
        let safety = rules.nutrition.precedence
        var rng = SeededGenerator(seed: 0xCA1)
        let full = NutritionGrid.isFull
        let basisRules = rules.nutrition.proteinBasis
        var checked = 0
        var floored = 0
        var index = 0
        // Figures per property: (checks, violations).
        var figures: [(name: String, checks: Int, violations: Int)] = [
            ("kcal ≥ the sex's floor and BMR", 0, 0), ("kcal in the goal's band unless a floor won (and says which)", 0, 0),
            ("pregnant: no deficit", 0, 0), ("pregnant: the nutrition caution", 0, 0), ("protein on the rules' basis", 0, 0),
            ("protein g/kg of its basis in range", 0, 0),
        ]
        func tally(_ property: Int, _ holds: Bool) {
            figures[property].checks += 1
            if !holds { figures[property].violations += 1 }
        }
        for sex in ["female", "male"] {
            for weight in stride(from: 40, through: 160, by: full ? 5 : 10) {
                for age in stride(from: 16, through: 80, by: full ? 4 : 16) {
                    for goal in ["fat_loss", "lean_mass", "recomp", "strength"] {
                        for pregnancy in sex == "female" ? [0, 1, 2, 3, 4] : [0] {
                            let height = [150, 158, 165, 172, 180, 190].randomElement(using: &rng) ?? 170
                            var yaml = "sex: \(sex)\nschedule_days: \(Int.random(in: 1...6, using: &rng))\nage: \(age)\n"
                            yaml += "weight_kg: \(weight)\nheight_cm: \(height)\ngoal: \(goal)\n"
                            yaml += "experience: \(["novice", "intermediate", "advanced"].randomElement(using: &rng) ?? "novice")\n"
                            if Bool.random(using: &rng) { yaml += "bodyfat_pct: \(Int.random(in: 8...50, using: &rng))\n" }
                            if pregnancy > 0 { yaml += "pregnant: true\n" }
                            if pregnancy > 1 { yaml += "trimester: \(pregnancy - 1)\n" }
                            // The sample keeps every 7th point (7 divides no dimension's size, so
                            // every value of each dimension is taken).
                            index += 1
                            if !full, index % 7 != 0 { continue }
                            let profile = try TestRules.profile(yaml)
                            let indexes = try rules.recalculateIndexes(profile)
                            let plan = try rules.planNutrition(profile)
                            let decision = plan.calories
                            let absolute = safety.absoluteFloor[profile.sex] ?? 0
                            let aboveFloors = decision.kcal >= absolute - 1e-9 && decision.kcal >= indexes.bmr * safety.bmrMultiplier - 1e-9
                                && plan.kcal >= decision.kcal.rounded(.toNearestOrAwayFromZero) - 0.5
                            tally(0, aboveFloors)
                            #expect(aboveFloors, "below a floor: \(yaml)")
                            if pregnancy > 0 {
                                let extra = pregnancy > 1 ? safety.pregnancyExtraByTrimester[pregnancy - 2] : safety.pregnancyExtraByTrimester[0]
                                let noDeficit = decision.kcal >= indexes.tdee * safety.pregnancyMinMultiplier + extra - 1e-6
                                    && plan.kcal >= indexes.tdee.rounded(.down)
                                tally(2, noDeficit)
                                #expect(noDeficit, "pregnant, in deficit: \(yaml)")
                                let cautioned = plan.cautions.first?.hasPrefix("Pregnancy: no calorie deficit") == true && plan.cautions.count == 2
                                tally(3, cautioned)
                                #expect(cautioned, "no caution: \(yaml)")
                            } else {
                                #expect(plan.cautions.isEmpty, "\(yaml)")
                            }
                            if decision.bound == nil || decision.bound == .goalBandLow || decision.bound == .goalBandHigh {
                                tally(1, decision.band.contains(decision.kcal))
                                #expect(decision.band.contains(decision.kcal), "\(yaml)")
                            } else {
                                floored += 1
                                let named = decision.reason != nil && plan.adjustments.first == decision.reason
                                tally(1, named)
                                #expect(named, "\(yaml)")
                            }
                            // Protein: the basis the rules name, and g/kg of it in the basis's range.
                            let basis: ProteinBasis.Kind = profile.bodyfatPct != nil ? .leanMass
                                : (indexes.bmi ?? 0) >= basisRules.adjustedFromBMI ? .adjustedWeight : .bodyWeight
                            tally(4, plan.proteinBasis.kind == basis)
                            #expect(plan.proteinBasis.kind == basis, "protein basis \(plan.proteinBasis.kind), not \(basis): \(yaml)")
                            let range = basis == .leanMass ? basisRules.leanMass.range : rules.nutrition.proteinPerKg.range
                            let inRange = plan.proteinPerKg <= range.upperBound + 1e-9
                                && (plan.proteinPerKg >= range.lowerBound - 1e-9 || plan.adjustments.contains { $0.hasPrefix("protein lowered") })
                            tally(5, inRange)
                            #expect(inRange, "protein \(plan.proteinPerKg) g/kg of \(basis) outside \(range): \(yaml)")
                            checked += 1
                        }
                    }
                }
            }
        }
        print("calorie and protein grid: \(checked) plans (\(floored) lifted by a floor or pregnancy)")
        for figure in figures {
            print("calorie and protein grid: \(figure.name): \(figure.violations) of \(figure.checks) checks fail")
            #expect(figure.checks > 0, "\(figure.name): nothing checked")
        }
        #expect(checked > 80 && floored > 0)
    }
}
