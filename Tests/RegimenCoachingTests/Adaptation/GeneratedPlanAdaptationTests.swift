import RegimenTestSupport
import Foundation
import OrderedCollections
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// Adaptation on plans the planner generated (`regimen plan` output), counted the way the plan
/// counts its weekly sets.
@Suite struct GeneratedPlanAdaptationTests {
    static let training: TrainingPlanner? = {
        let root = AdaptationTestRules.repository
        let sources = RuleSources(rules: root.appendingPathComponent("rules"), catalogs: root.appendingPathComponent("catalogs"), displayBase: root)
        let result = RuleSetLoader(kinds: PlanGenerator.kinds + AdaptationRuleSet.kinds, otherModulesKinds: .anyUnregistered).load(from: sources)
        return (try? result.get()).flatMap { try? TrainingPlanner(ruleSet: $0) }
    }()

    static func profiles() -> [Profile] {
        var out: [Profile] = []
        for days in [2, 3, 4, 5, 6, 7] {
            for experience in Profile.Experience.allCases {
                for equipment in [Profile.Equipment.fullGym, .bodyweightOnly, .dumbbellsOnly] {
                    for goal in ["lean_mass", "strength", "fat_loss"] {
                        out.append(Profile(sex: .male, scheduleDays: days, experience: experience, equipment: equipment,
                                           injuries: days == 4 ? [.knee] : [], goal: goal))
                    }
                }
            }
        }
        return out
    }

    private func engine(_ training: TrainingPlanner) throws -> AdaptationEngine {
        let base = try #require(AdaptationFixtures.engine)
        return AdaptationEngine(readiness: base.readiness, progression: base.progression,
                                exercises: ExerciseFacts.table(from: training.catalog), setCredit: training.rules.setCredit.value,
                                calories: base.calories)
    }

    @Test func weeklySetsAreCountedAsThePlanCountsThem() throws {
        let training = try #require(Self.training)
        let engine = try engine(training)
        for profile in Self.profiles() {
            let plan = GeneratePlanResponse.make(training: try training.plan(for: profile), nutrition: nil)
            let view = try PlanView(document: plan)
            let counted = AdaptationRun.countedSets(view, engine)
            for entry in plan["training"]?["weekly_sets"]?.listValue ?? [] {
                let muscle = entry["muscle"]?.stringValue ?? ""
                #expect(abs((counted[muscle] ?? 0) - (entry["planned"]?.numberValue ?? -1)) < 1e-9, "\(muscle) for \(profile.scheduleDays) days")
            }
        }
    }

    @Test func adaptingGeneratedPlansKeepsEveryIncreaseWithinItsBand() throws {
        let training = try #require(Self.training)
        let engine = try engine(training)
        var rng = SeededGenerator(seed: 0x9E4)
        var increases = 0
        for profile in Self.profiles() {
            let plan = GeneratePlanResponse.make(training: try training.plan(for: profile), nutrition: nil)
            for _ in 0..<3 {
                var input = AdaptationPropertyTests.randomInput(for: plan, &rng)
                // Mostly good days, so that increases happen.
                input.checkIns = input.checkIns.map { CheckIn(date: $0.date, sleepHours: 8, soreness: $0.soreness, stress: 2, motivation: 5) }
                let result = try engine.adapt(plan: plan, input: input)
                let before = Dictionary(uniqueKeysWithValues: (plan["training"]?["weekly_sets"]?.listValue ?? []).map { ($0["muscle"]?.stringValue ?? "", $0) })
                for entry in result.patchedPlan["training"]?["weekly_sets"]?.listValue ?? [] {
                    let muscle = entry["muscle"]?.stringValue ?? ""
                    let old = before[muscle]?["planned"]?.numberValue ?? 0
                    let new = entry["planned"]?.numberValue ?? 0
                    guard new > old + 1e-9 else { continue }
                    increases += 1
                    let band = try #require(entry["band"]?.stringValue.flatMap(PlanRange.init(text:)))
                    #expect(new <= Double(band.upper) + 1e-9, "\(muscle): \(old) → \(new) above \(band)")
                }
            }
        }
        #expect(increases > 0)
    }
}

/// A calorie change re-portions the meals of a generated plan, keeping the seed's guarantee.
@Suite struct MealReplanningTests {
    @Test func aCalorieCutReportionsEveryMealWithinTolerance() throws {
        let loaded = try #require(ProfileDiffTests.loaded)
        for profile in [ProfileDiffTests.base, Profile(sex: .male, scheduleDays: 5, weightKg: 92, goal: "fat_loss", budgetTier: .medium, mealsPerDay: 4, exclusions: ["dairy"])] {
            let plan = try loaded.planner.generatePlan(profile).jsonValue()
            for trend in [WeightTrend.above, .below] {
                let result = try loaded.adaptation.adaptPlan(plan, input: AdaptationInput(weightTrend: trend), training: loaded.planner.training,
                                                             nutrition: loaded.planner.nutrition)
                #expect(result.changeLog.last?.line.hasPrefix("Meal options re-portioned for ") == true)
                let patched = result.patchedPlan
                let kcal = try #require(patched["kcal"]?.numberValue)
                let meals = patched["ingredients"]?["meals"]?.listValue ?? []
                #expect(!meals.isEmpty)
                let targetSum = meals.compactMap { $0["targets"]?["kcal"]?.numberValue }.reduce(0, +)
                #expect(abs(targetSum - kcal) <= Double(meals.count), "meal targets add up to the new kcal")
                // The rules' band per measure: its tolerance, never narrower than its floor.
                let tolerances = try #require(patched["ingredients"]?["tolerance_pct_by_macro"])
                let floors = try #require(patched["ingredients"]?["tolerance_floor"])
                var served = 0
                for meal in meals {
                    let targets = try #require(meal["targets"])
                    let categories = ["protein_opts", "carb_opts", "veg_opts", "fat_opts"].map { meal[$0]?.listValue ?? [] }
                    // A meal the catalog cannot serve says so plainly instead of listing options.
                    guard meal["unavailable"] == nil else { continue }
                    served += 1
                    #expect(categories.allSatisfy { $0.count >= 3 })
                    for p in categories[0] { for c in categories[1] { for v in categories[2] { for f in categories[3] {
                        for key in ["p", "c", "f", "kcal"] {
                            let total = [p, c, v, f].compactMap { $0[key]?.numberValue }.reduce(0, +)
                            let target = targets[key]?.numberValue ?? 0
                            let band = max((tolerances[key]?.numberValue ?? 0) / 100 * target, floors[key]?.numberValue ?? 0)
                            #expect(abs(total - target) <= band + 0.05, "\(key): \(total) vs \(target)")
                        }
                    } } } }
                }
                #expect(served > 0)
            }
        }
    }
}

/// The check-ins examples read and adapt the plan of `examples/complete.yaml` without warnings.
@Suite struct CheckInExampleTests {
    @Test func everyCheckInsExampleAdaptsTheCompleteProfilesPlan() throws {
        let loaded = try #require(ProfileDiffTests.loaded)
        let root = AdaptationTestRules.repository
        let profile = try loaded.planner.nutrition.profileDecoder.decode(
            contentsOf: root.appendingPathComponent("examples/complete.yaml"), displayPath: "examples/complete.yaml")
        let plan = try loaded.planner.generatePlan(profile).jsonValue()
        let folder = root.appendingPathComponent("examples/checkins")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files == ["low-week.yaml", "progression.yaml", "sore-legs.yaml"])
        var lines: [String: [String]] = [:]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let input = try AdaptationInputDecoder.decode(text: text, file: "examples/checkins/\(file)")
            let result = try loaded.adaptation.adaptPlan(plan, input: input, training: loaded.planner.training, nutrition: loaded.planner.nutrition)
            #expect(result.warnings == [], "\(file)")
            #expect(!result.changeLog.isEmpty, "\(file)")
            lines[file] = result.changeLog.map(\.line)
        }
        #expect(lines["progression.yaml"] == [
            "Machine chest press reps 6–10 → 6–12 at 60 kg: the next 5 kg step is +8.3%, above 5%, so reps first (readiness 4, RIR 4 above target 3)",
            "Barbell back squat +2.5 kg to 102.5 kg (4x10 reached at RIR 1; est. 1RM 133.3 kg)",
            "Conventional deadlift -1 set (missed reps: 5 of 6; load held)",
        ])
        // The lean-mass plan sits at its band's floor (1.05 × TDEE): no cut below it, and the log says why.
        #expect(lines["sore-legs.yaml"]?.contains { $0.hasPrefix("Calories unchanged (weight above target): at the floor of the lean mass band") } == true)
    }
}
