import Foundation
@testable import RegimenKit
import Testing

/// `regimen impact` names a changed exercise as that exercise in its block, and a changed meal
/// by its slot (issue 30 item 5): a day's blocks are aligned by exercise id and meals by slot, so
/// a swapped exercise is one block's change, an exercise added in the middle of a day is one
/// added block (it did not shift every later block into a "change"), and a meal keeps its name
/// when another meal is added before it. Each test makes a real edit of the shipped rules.
@Suite struct ImpactNamesTheChangedBlockTests {
    /// One block of a plan as the client reads it: `Name (id) 3 × 8–12`.
    static func blockTexts(_ engine: RegimenEngine, _ client: PlanImpact.Client) throws -> [String: [String]] {
        let plan = try engine.generatePlan(try engine.profile(from: client.profile, name: client.name))
        let object = try JSONSerialization.jsonObject(with: Data(plan.json().utf8)) as? [String: Any]
        var days: [String: [String]] = [:]
        for workout in object?["workouts"] as? [[String: Any]] ?? [] {
            let day = "day \((workout["day"] as? NSNumber)?.intValue ?? 0)"
            days[day] = (workout["blocks"] as? [[String: Any]] ?? []).map { block in
                let sets = (block["sets"] as? NSNumber)?.intValue ?? 0
                return "\(block["name"] as? String ?? "") (\(block["exerciseId"] as? String ?? "")) \(sets) × \(block["reps"] as? String ?? "")"
            }
        }
        return days
    }

    /// `day 2` of `day 2 (Upper body) block 3`, and whether the measure names a block.
    static func day(of measure: String) -> String? {
        guard measure.hasPrefix("day "), measure.contains(" block ") else { return nil }
        return measure.split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// No block is reported as changed while it is still in its day unchanged: a reported
    /// block's old text is gone from the new day, its new text was not in the old day.
    static func expectNoUnchangedBlockIsReported(base: RegimenEngine, new: RegimenEngine, impact: PlanImpact) throws {
        for client in impact.changed {
            let profile = try #require(PlanImpactTests.panel.first { $0.name == client.client })
            let before = try blockTexts(base, profile), after = try blockTexts(new, profile)
            for change in client.changes {
                guard let day = day(of: change.measure), !change.measure.contains(", ") else { continue }
                if !change.before.isEmpty {
                    #expect(!(after[day] ?? []).contains(change.before), "\(client.client): \(change.summary) (the block is still in \(day))")
                }
                if !change.after.isEmpty {
                    #expect(!(before[day] ?? []).contains(change.after), "\(client.client): \(change.summary) (the block was already in \(day))")
                }
            }
        }
    }

    /// A catalog edit takes barbell bench press away from novices and intermediates (its level
    /// raised to advanced): each client who had it gets the next chest press in the same block,
    /// reported as that exercise swapped in that block.
    @Test func aSwappedExerciseIsNamedInItsBlock() throws {
        let edited = try PlanImpactTests.editedRules(
            "../catalogs/exercise-catalog.yaml",
            replacing: "    name: Barbell bench press\n    muscles: [chest]\n    secondary_muscles: [triceps, shoulders]\n    equipment: [barbell, bench, rack]\n    movement: compound\n    pattern: horizontal_push\n    level: beginner",
            with: "    name: Barbell bench press\n    muscles: [chest]\n    secondary_muscles: [triceps, shoulders]\n    equipment: [barbell, bench, rack]\n    movement: compound\n    pattern: horizontal_push\n    level: advanced")
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited.appendingPathComponent("rules"), catalogs: edited.appendingPathComponent("catalogs"))
        let impact = PlanImpact.compare(base: base, new: new, panel: PlanImpactTests.panel)
        var swapped = 0
        for client in impact.changed where client.changes.contains(where: { $0.summary == "exercises: drops barbell_bench_press" }) {
            let swaps = client.changes.filter {
                Self.day(of: $0.measure) != nil && $0.before.contains("(barbell_bench_press) ") && !$0.after.isEmpty
            }
            #expect(!swaps.isEmpty, "\(client.client): \(client.changes.map(\.summary))")
            for swap in swaps {
                // `day 1 (Full body) block 2: Barbell bench press (barbell_bench_press) 3 × 8–12 → Dumbbell bench press (…) …`
                #expect(swap.measure.range(of: #"^day \d+ \([^)]+\) block \d+$"#, options: .regularExpression) != nil, "\(swap.summary)")
                #expect(swap.after.contains(" (") && !swap.after.contains("(barbell_bench_press)"), "\(swap.summary)")
                swapped += 1
            }
        }
        #expect(swapped > 0, "\(impact.groups.map(\.summary).prefix(12))")
        try Self.expectNoUnchangedBlockIsReported(base: base, new: new, impact: impact)
    }

    /// A muscle added to the middle of the upper day's list adds its exercise in the middle of
    /// upper days: one block added, and the blocks after it that kept their exercise and dose
    /// are not reported (compared by place, every one of them was).
    @Test func anExerciseAddedMidDayIsOneAddedBlock() throws {
        let edited = try PlanImpactTests.editedRules(
            "../catalogs/plan-templates.yaml",
            replacing: "    focus: Upper body\n    muscles: [chest, back, shoulders, triceps, biceps]",
            with: "    focus: Upper body\n    muscles: [chest, back, core, shoulders, triceps, biceps]")
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited.appendingPathComponent("rules"), catalogs: edited.appendingPathComponent("catalogs"))
        let impact = PlanImpact.compare(base: base, new: new, panel: PlanImpactTests.panel)
        let added = impact.changed.flatMap(\.changes).filter { $0.measure.contains("(Upper body) block ") && $0.before.isEmpty }
        #expect(!added.isEmpty, "\(impact.groups.map(\.summary).prefix(12))")
        try Self.expectNoUnchangedBlockIsReported(base: base, new: new, impact: impact)
    }

    /// Each meal's options by slot and category (`lunch meal protein options` → ids), read from
    /// the plan the client receives.
    static func mealOptions(_ engine: RegimenEngine, _ client: PlanImpact.Client) throws -> [String: Set<String>] {
        let plan = try engine.generatePlan(try engine.profile(from: client.profile, name: client.name))
        let object = try JSONSerialization.jsonObject(with: Data(plan.json().utf8)) as? [String: Any]
        let meals = (object?["ingredients"] as? [String: Any])?["meals"] as? [[String: Any]] ?? []
        var options: [String: Set<String>] = [:]
        for meal in meals {
            for (key, category) in [("protein_opts", "protein"), ("carb_opts", "carb"), ("fat_opts", "fat"), ("veg_opts", "vegetable")] {
                let ids = (meal[key] as? [[String: Any]] ?? []).compactMap { $0["ingredientId"] as? String }
                options["\(meal["slot"] as? String ?? "?") meal \(category) options"] = Set(ids)
            }
        }
        return options
    }

    /// The four-meal day's `afternoon` meal becomes a `morning` meal before lunch: each meal is
    /// named by its slot, so lunch stays `lunch meal` (compared by place it became meal 3, and
    /// every option of it was reported as dropped from meal 2 and added to meal 3), and every
    /// option change reported is one the client's meal of that slot really has.
    @Test func aMealIsNamedBySlotAndKeepsItsNameWhenAMealIsAddedBeforeIt() throws {
        let edited = try PlanImpactTests.editedRules(
            "meals.yaml",
            replacing: "  4:\n    - {name: breakfast, weight: 1}\n    - {name: lunch, weight: 1}\n    - {name: afternoon, weight: 1}\n    - {name: dinner, weight: 1}",
            with: "  4:\n    - {name: breakfast, weight: 1}\n    - {name: morning, weight: 1}\n    - {name: lunch, weight: 1}\n    - {name: dinner, weight: 1}")
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited)
        let impact = PlanImpact.compare(base: base, new: new, panel: PlanImpactTests.panel)
        #expect(!impact.changed.isEmpty)
        for client in impact.changed {
            let summaries = client.changes.map(\.summary)
            #expect(summaries.contains("meals: adds morning meal") && summaries.contains("meals: drops afternoon meal"), "\(client.client): \(summaries)")
            let profile = try #require(PlanImpactTests.panel.first { $0.name == client.client })
            let before = try Self.mealOptions(base, profile), after = try Self.mealOptions(new, profile)
            var reported: [String: (adds: Set<String>, drops: Set<String>)] = [:]
            for change in client.changes where change.measure.hasSuffix(" options") && !change.measure.hasSuffix("across meals") {
                // `morning meal protein options: adds …`: the slot names the meal; no meal number.
                #expect(change.measure.range(of: #"^(breakfast|morning|lunch|afternoon|dinner) meal (protein|carb|fat|vegetable) options$"#,
                                             options: .regularExpression) != nil, "\(client.client): \(change.summary)")
                if !change.after.isEmpty { reported[change.measure, default: ([], [])].adds.insert(change.after) }
                if !change.before.isEmpty { reported[change.measure, default: ([], [])].drops.insert(change.before) }
            }
            // Exactly each slot's real differences: lunch's options that stayed are not reported.
            for measure in Set(before.keys).union(after.keys) {
                let old = before[measure] ?? [], now = after[measure] ?? []
                #expect(reported[measure]?.adds ?? [] == now.subtracting(old), "\(client.client): \(measure)")
                #expect(reported[measure]?.drops ?? [] == old.subtracting(now), "\(client.client): \(measure)")
            }
        }
    }
}
