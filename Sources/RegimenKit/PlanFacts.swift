import Foundation
import RegimenLanguage

/// The facts of one client's plan that a coach compares across rule sets, read from the plan's
/// contract JSON and the supplement advice (so they are exactly what the client receives).
struct PlanFacts: Sendable {
    /// Categorical facts: measure → value ("split" → "upper_lower_4").
    var labels: [String: String] = [:]
    /// Numeric facts: measure → value ("kcal" → 2137).
    var numbers: [String: Double] = [:]
    /// Set-valued facts: measure → members ("exercises" → ids).
    var sets: [String: Set<String>] = [:]
    /// The training days and their blocks, in plan order: compared by alignment, not by place
    /// (PlanFacts+Sequences.swift).
    var days: [(key: String, day: Day)] = []
    /// The error that stopped the plan, if one did.
    var failure: String?

    init(engine: RegimenEngine, profile: Data, name: String) {
        self.init(engine: engine, planned: Self.plan(engine: engine, profile: profile, name: name))
    }

    /// The profile read and planned by `engine`, or the error that stopped it.
    static func plan(engine: RegimenEngine, profile: Data, name: String) -> Result<(Profile, GeneratedPlan), RegimenError> {
        Result { () throws(RegimenError) in
            let parsed = try engine.profile(from: profile, name: name)
            return (parsed, try engine.generatePlan(parsed))
        }
    }

    /// The facts of a plan `engine` made (its supplements are asked of `engine` too).
    init(engine: RegimenEngine, planned: Result<(Profile, GeneratedPlan), RegimenError>) {
        let plan: GeneratedPlan
        let parsed: Profile
        switch planned {
        case .success(let made): (parsed, plan) = made
        case .failure(let error):
            failure = error.description.split(separator: "\n").first.map(String.init) ?? "refused"
            return
        }
        read(plan.contractValue)
        if let advice = try? engine.supplements(for: parsed) {
            read(supplements: advice.contractValue)
        }
    }

    private mutating func read(_ plan: Value) {
        let training = plan["training"]
        labels["split"] = training?["split"]?["id"]?.stringValue
        numbers["training days"] = training?["split"]?["training_days"]?.numberValue
        for muscle in training?["weekly_sets"]?.listValue ?? [] {
            guard let name = muscle["muscle"]?.stringValue else { continue }
            numbers["\(name) weekly sets"] = muscle["planned"]?.numberValue
            labels["\(name) weekly band"] = muscle["band"]?.stringValue
            labels["\(name) short of its band"] = muscle["shortfall"] == nil ? "no" : "yes"
        }
        numbers["kcal"] = plan["kcal"]?.numberValue
        for (key, label) in [("protein_g", "protein g"), ("carb_g", "carbs g"), ("fat_g", "fat g")] {
            numbers[label] = plan["macros"]?[key]?.numberValue
        }
        for (key, label) in [("BMR", "BMR"), ("TDEE", "TDEE")] {
            numbers[label] = plan["idx"]?[key]?.numberValue
        }
        labels["confidence"] = plan["confidence"]?.stringValue
        let meals = plan["ingredients"]?["meals"]?.listValue ?? []
        labels["meals per day"] = String(meals.count)
        let mealNames = Self.mealNames(meals)
        for (key, category) in [("protein_opts", "protein"), ("carb_opts", "carb"), ("fat_opts", "fat"), ("veg_opts", "vegetable")] {
            let counts = meals.map { $0[key]?.listValue?.count ?? 0 }
            // "loses all vegan options" is a meal left with none; fewer options is a number.
            labels["meals with no \(category) option"] = String(counts.filter { $0 == 0 }.count)
            numbers["\(category) options across meals"] = Double(counts.reduce(0, +))
            var ingredients = Set<String>()
            for meal in meals {
                for option in meal[key]?.listValue ?? [] {
                    // A meal option names its catalog entry by `ingredientId` (the plan contract).
                    if let id = option["ingredientId"]?.stringValue { ingredients.insert(id) }
                }
            }
            sets["\(category) ingredients"] = ingredients
            // Each meal's options by its slot, so a change says which meal it is in, and a meal
            // added before it (five meals a day add `morning` second) does not move it.
            for (meal, name) in zip(meals, mealNames) {
                let ids = (meal[key]?.listValue ?? []).compactMap { $0["ingredientId"]?.stringValue }
                sets["\(name) \(category) options"] = Set(ids)
            }
        }
        sets["meals"] = Set(mealNames)
        var exercises = Set<String>()
        for workout in plan["workouts"]?.listValue ?? [] {
            for block in workout["blocks"]?.listValue ?? [] {
                if let id = block["exerciseId"]?.stringValue { exercises.insert(id) }
            }
        }
        sets["exercises"] = exercises
        days = Self.days(plan)
    }

    /// `lunch meal`, by the meal's slot (`meal 3` without one); a slot named twice in a day
    /// (a coach's own `snack, snack`) is `snack meal 2` the second time.
    static func mealNames(_ meals: [Value]) -> [String] {
        var seen: [String: Int] = [:]
        return meals.enumerated().map { index, meal in
            let base = meal["slot"]?.stringValue.map { "\($0) meal" } ?? "meal \(index + 1)"
            seen[base, default: 0] += 1
            let count = seen[base] ?? 1
            return count == 1 ? base : "\(base) \(count)"
        }
    }

    /// Everything the client is told about supplements: the shortlist, the optional items, the
    /// items left out (with their reasons), and every caution of a shortlisted or optional item,
    /// the catalog's and the personal ones the caution rules add (`personal_cautions`).
    private mutating func read(supplements advice: Value) {
        var cautions = Set<String>()
        for (key, measure) in [("shortlist", "supplement shortlist"), ("optional", "optional supplements")] {
            var ids = Set<String>()
            for item in advice[key]?.listValue ?? [] {
                guard let id = item["id"]?.stringValue else { continue }
                ids.insert(id)
                for caution in item["cautions"]?.listValue ?? [] {
                    if let text = caution.stringValue { cautions.insert("\(id): \(text)") }
                }
                for caution in item["personal_cautions"]?.listValue ?? [] {
                    if let text = caution["message"]?.stringValue { cautions.insert("\(id): \(text)") }
                }
            }
            sets[measure] = ids
        }
        var leftOut = Set<String>()
        var reasons = Set<String>()
        for item in advice["left_out"]?.listValue ?? [] {
            guard let id = item["id"]?.stringValue else { continue }
            leftOut.insert(id)
            for reason in item["reasons"]?.listValue ?? [] {
                if let text = reason["message"]?.stringValue { reasons.insert("\(id): \(text)") }
            }
        }
        sets["supplement cautions"] = cautions
        sets["supplements left out"] = leftOut
        sets["reasons supplements are left out"] = reasons
    }

    /// The differences from `before` to `after`, in a fixed order (failures, labels, workout
    /// blocks in plan order, numbers, sets; the others by measure name) so that reports are
    /// deterministic.
    static func changes(from before: PlanFacts, to after: PlanFacts) -> [PlanImpact.Change] {
        if before.failure != nil || after.failure != nil {
            guard before.failure != after.failure else { return [] }
            return [PlanImpact.Change(measure: "plan", before: before.failure.map { "refused (\($0))" } ?? "planned",
                                      after: after.failure.map { "refused (\($0))" } ?? "planned", percent: nil)]
        }
        var changes: [PlanImpact.Change] = []
        for measure in Set(before.labels.keys).union(after.labels.keys).sorted() {
            let old = before.labels[measure] ?? "none", new = after.labels[measure] ?? "none"
            if old != new { changes.append(PlanImpact.Change(measure: measure, before: old, after: new, percent: nil)) }
        }
        changes += blockChanges(blockRows(from: before.days, to: after.days))
        for measure in Set(before.numbers.keys).union(after.numbers.keys).sorted() {
            let old = before.numbers[measure], new = after.numbers[measure]
            guard old != new else { continue }
            var percent: Double?
            if let old, let new, old != 0, old.isFinite, new.isFinite { percent = (new - old) / abs(old) * 100 }
            // Small whole counts (weekly sets, training days, option counts) read better as
            // "10 → 12" than as a percentage, and group by their exact values.
            let countLike = measure.hasSuffix("sets") || measure.hasSuffix("days") || measure.hasSuffix("across meals")
            changes.append(PlanImpact.Change(measure: measure, before: number(old), after: number(new), percent: countLike ? nil : percent))
        }
        for measure in Set(before.sets.keys).union(after.sets.keys).sorted() {
            let old = before.sets[measure] ?? [], new = after.sets[measure] ?? []
            for added in new.subtracting(old).sorted() {
                changes.append(PlanImpact.Change(measure: measure, before: "", after: added, percent: nil))
            }
            for removed in old.subtracting(new).sorted() {
                changes.append(PlanImpact.Change(measure: measure, before: removed, after: "", percent: nil))
            }
        }
        return changes
    }

    static func number(_ value: Double?) -> String {
        value.map(NumberText.tenths) ?? "none"
    }

    /// A relative change as a coach writes it: "+4%", "−3%" (true minus sign), "+0.4%".
    static func percentText(_ percent: Double) -> String {
        // Tenths below 1% (a 0.4% kcal change is worth seeing), whole percents above.
        let magnitude = NumberText.rounded(abs(percent), decimals: abs(percent) < 1 ? 1 : 0)
        return (percent < 0 ? "−" : "+") + magnitude + "%"
    }
}
