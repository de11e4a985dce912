import RegimenTestSupport
import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import OrderedCollections

/// `regimen diff` and the auto-adjust matrix on the repository's whole planner.
@Suite struct ProfileDiffTests {
    static let loaded: (planner: PlanGenerator, adaptation: AdaptationRuleSet)? = {
        let root = AdaptationTestRules.repository
        let sources = RuleSources(rules: root.appendingPathComponent("rules"), catalogs: root.appendingPathComponent("catalogs"), displayBase: root)
        let result = RuleSetLoader(kinds: PlanGenerator.kinds + AdaptationRuleSet.kinds, otherModulesKinds: .anyUnregistered).load(from: sources)
        guard let ruleSet = try? result.get(), let planner = try? PlanGenerator(ruleSet: ruleSet),
              let adaptation = try? AdaptationRuleSet(ruleSet) else { return nil }
        return (planner, adaptation)
    }()

    static let base = Profile(
        sex: .female, scheduleDays: 4, ageRange: "25-34", heightCm: 168, weightKg: 64, bodyfatPct: 26, waistCm: 74,
        experience: .intermediate, equipment: .fullGym, goal: "recomp", budgetTier: .medium, mealsPerDay: 3, dailyCaffeineMg: 100)

    private func diff(_ old: Profile, _ new: Profile) throws -> ProfileDiff {
        let loaded = try #require(Self.loaded)
        return try loaded.adaptation.diffProfiles(old: old, new: new, planner: loaded.planner)
    }

    /// Profile variations that change exactly one matrix field (or a field sharing its row).
    static func variations(of profile: Profile, _ rng: inout SeededGenerator) -> [(field: String, profile: Profile)] {
        var out: [(String, Profile)] = []
        func vary(_ field: String, _ change: (inout Profile) -> Void) {
            var copy = profile
            change(&copy)
            if copy != profile { out.append((field, copy)) }
        }
        vary("sex") { $0.sex = $0.sex == .male ? .female : .male }
        vary("age_range") { $0.ageRange = ["<18", "18-24", "35-44", "45-54", ">60"].randomElement(using: &rng) }
        vary("age") { $0.age = Int.random(in: 15...70, using: &rng) }
        vary("height_cm") { $0.heightCm = Double(Int.random(in: 150...200, using: &rng)) }
        vary("weight_kg") { $0.weightKg = Double(Int.random(in: 45...130, using: &rng)) }
        vary("bodyfat_pct") { $0.bodyfatPct = Bool.random(using: &rng) ? nil : Double(Int.random(in: 10...40, using: &rng)) }
        vary("waist_cm") { $0.waistCm = Double(Int.random(in: 60...120, using: &rng)) }
        vary("schedule_days") { $0.scheduleDays = Int.random(in: 1...7, using: &rng) }
        vary("experience") { $0.experience = Profile.Experience.allCases.randomElement(using: &rng) }
        vary("equipment") { $0.equipment = Profile.Equipment.allCases.randomElement(using: &rng) }
        vary("injuries") { $0.injuries = Array(Profile.Injury.allCases.shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng))).sorted() }
        vary("overrides") { $0.overrides = Profile.Overrides(tdee: Double(Int.random(in: 1800...3200, using: &rng))) }
        vary("goal") { $0.goal = ["fat_loss", "lean_mass", "strength"].randomElement(using: &rng) }
        vary("budget_tier") { $0.budgetTier = Profile.BudgetTier.allCases.randomElement(using: &rng) }
        vary("meals_per_day") { $0.mealsPerDay = $0.mealsPerDay == 3 ? 4 : 3 }
        vary("exclusions") { $0.exclusions = [["vegetarian"], ["dairy"], ["vegan"], ["gluten", "nuts"]].randomElement(using: &rng) ?? [] }
        vary("pregnant") { $0.pregnant = true }
        vary("trimester") { if $0.pregnant == true { $0.trimester = Int.random(in: 1...3, using: &rng) } else { $0.pregnant = true; $0.trimester = 2 } }
        vary("hypertension") { $0.hypertension = true }
        vary("medications") { $0.medications = [["warfarin"], ["sertraline"], ["levothyroxine"]].randomElement(using: &rng) ?? [] }
        vary("daily_caffeine_mg") { $0.dailyCaffeineMg = Double(Int.random(in: 0...600, using: &rng)) }
        return out
    }

    /// The matrix is honest: for a change of one field, every output the field's row does not list
    /// is the same in the new profile's full plan as in the old one. A field whose row says "none"
    /// for workouts and nutrition therefore changes nothing in either.
    @Test func everyOutputTheMatrixDoesNotListStaysTheSame() throws {
        let loaded = try #require(Self.loaded)
        let matrix = loaded.adaptation.matrix
        var rng = SeededGenerator(seed: 0xD1FF)
        var checked: [String: Int] = [:]
        for round in 0..<4 {
            var base = Self.base
            if round > 0 {
                base.sex = Bool.random(using: &rng) ? .male : .female
                base.scheduleDays = Int.random(in: 2...6, using: &rng)
                base.weightKg = Double(Int.random(in: 55...100, using: &rng))
                base.goal = ["fat_loss", "lean_mass", "strength", "recomp"].randomElement(using: &rng)
                base.equipment = Profile.Equipment.allCases.randomElement(using: &rng)
            }
            let oldPlan = try loaded.planner.generatePlan(base).jsonValue()
            let oldAdvice = try loaded.adaptation.adviseSupplements(for: base, nutrition: loaded.planner.nutrition)
            for (field, profile) in Self.variations(of: base, &rng) {
                let row = try #require(matrix.row(for: field), "\(field) has a row")
                let newPlan = try loaded.planner.generatePlan(profile).jsonValue()
                let newAdvice = try loaded.adaptation.adviseSupplements(for: profile, nutrition: loaded.planner.nutrition)
                for area in AutoAdjustMatrix.Area.allCases where !row.recomputes.contains(area) {
                    let before = area.outputs(in: oldPlan, supplements: oldAdvice)
                    let after = area.outputs(in: newPlan, supplements: newAdvice)
                    #expect(before == after, "\(field): '\(area.rawValue)' changed but the matrix does not list it (\(Self.changedKeys(before, after)))")
                }
                if row.workout.isEmpty {
                    #expect(oldPlan["workouts"] == newPlan["workouts"], "\(field) changed the workouts")
                    #expect(oldPlan["training"] == newPlan["training"], "\(field) changed the week's accounting")
                }
                if row.nutrition.isEmpty {
                    for key in ["kcal", "macros", "ingredients"] {
                        #expect(oldPlan[key] == newPlan[key], "\(field) changed \(key)")
                    }
                }
                checked[field, default: 0] += 1
            }
        }
        #expect(Set(checked.keys) == Set(AutoAdjustMatrix.profileFields))
    }

    /// The keys of two area outputs whose values differ, for a short failure message.
    static func changedKeys(_ before: Value, _ after: Value) -> String {
        let keys = Set(before.mapValue?.keys.map { $0 } ?? []).union(after.mapValue?.keys.map { $0 } ?? [])
        return keys.sorted().filter { before[$0] != after[$0] }.joined(separator: ", ")
    }

    /// A waist change affects neither training nor nutrition, only the risk screen: applying the
    /// diff changes nothing in the plan but the risk screen.
    @Test func aWaistChangeRecomputesOnlyTheRiskScreen() throws {
        var new = Self.base
        new.waistCm = 90
        let diff = try diff(Self.base, new)
        #expect(diff.recomputed == [.bodyIndexes, .accuracy])
        #expect(diff.outputChanges.map(\.key) == ["idx.WHtR", "idx.context"])
        #expect(diff.outputChanges.first?.why == ["Health context"])
        let loaded = try #require(Self.loaded)
        let old = try loaded.planner.generatePlan(Self.base).jsonValue()
        for key in ["workouts", "training", "kcal", "macros", "ingredients"] {
            #expect(diff.patchedPlan[key] == old[key], "\(key) unchanged")
        }
        #expect(diff.patchedPlan["idx"]?["WHtR"] != old["idx"]?["WHtR"])
    }

    @Test func aFieldTheMatrixMarksNoneForTheWholePlanChangesNothingInIt() throws {
        var new = Self.base
        new.medications = ["warfarin"]
        let diff = try diff(Self.base, new)
        #expect(diff.recomputed == [.supplements])
        let loaded = try #require(Self.loaded)
        let old = try loaded.planner.generatePlan(Self.base).jsonValue()
        #expect(diff.patchedPlan == old)
        #expect(diff.outputChanges.map(\.key) == ["supplements"])
    }

    @Test func aWeightChangeRecomputesEnergyAndMacrosWithTheMatrixReason() throws {
        var new = Self.base
        new.weightKg = 70
        let diff = try diff(Self.base, new)
        #expect(diff.fieldChanges.map(\.field) == ["weight_kg"])
        #expect(diff.fieldChanges.first?.why == "Size drives energy needs")
        let keys = diff.outputChanges.map(\.key)
        #expect(keys.contains("idx.BMR") && keys.contains("kcal") && keys.contains("macros.protein_g"))
        #expect(!keys.contains { $0.hasPrefix("weekly_sets") || $0 == "exercise_pool" || $0 == "split.days" })
        #expect(diff.outputChanges.first { $0.key == "kcal" }?.why == ["Size drives energy needs"])
    }

    @Test func aScheduleChangeRemapsTheSplitAndTheActivityMultiplier() throws {
        var new = Self.base
        new.scheduleDays = 6
        let diff = try diff(Self.base, new)
        let keys = diff.outputChanges.map(\.key)
        #expect(keys.contains("training.split"))
        #expect(keys.contains("idx.TDEE"))
        #expect(diff.outputChanges.first { $0.key == "training.split" }?.why == ["Time availability = structure"])
    }

    @Test func identicalProfilesRecomputeNothing() throws {
        let diff = try diff(Self.base, Self.base)
        #expect(diff.fieldChanges.isEmpty && diff.recomputed.isEmpty && diff.outputChanges.isEmpty)
    }
}

/// `diff` reports the plan's own weekly-set count (direct and indirect credits), not a second
/// count of direct sets.
@Suite struct DiffWeeklySetCountTests {
    @Test func diffWeeklySetsEqualThePlansCount() throws {
        let loaded = try #require(ProfileDiffTests.loaded)
        var fewer = ProfileDiffTests.base
        fewer.scheduleDays = 3
        let diff = try loaded.adaptation.diffProfiles(old: ProfileDiffTests.base, new: fewer, planner: loaded.planner)
        let newPlan = try loaded.planner.generatePlan(fewer).jsonValue()
        let planned = Dictionary(uniqueKeysWithValues: (newPlan["training"]?["weekly_sets"]?.listValue ?? []).compactMap { entry -> (String, Value)? in
            guard let muscle = entry["muscle"]?.stringValue, let planned = entry["planned"] else { return nil }
            return ("weekly_sets.\(muscle)", planned)
        })
        let reported = diff.outputChanges.filter { $0.key.hasPrefix("weekly_sets.") }
        #expect(!reported.isEmpty)
        for change in reported {
            #expect(change.after == planned[change.key], "\(change.key)")
        }
    }
}
