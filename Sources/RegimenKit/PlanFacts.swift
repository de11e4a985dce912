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
        }
        var exercises = Set<String>()
        for workout in plan["workouts"]?.listValue ?? [] {
            for block in workout["blocks"]?.listValue ?? [] {
                if let id = block["exerciseId"]?.stringValue { exercises.insert(id) }
            }
        }
        sets["exercises"] = exercises
    }

    private mutating func read(supplements advice: Value) {
        var shortlist = Set<String>()
        var cautions = Set<String>()
        for item in advice["shortlist"]?.listValue ?? [] {
            guard let id = item["id"]?.stringValue else { continue }
            shortlist.insert(id)
            for caution in item["cautions"]?.listValue ?? [] {
                if let text = caution.stringValue { cautions.insert("\(id): \(text)") }
            }
        }
        sets["supplement shortlist"] = shortlist
        sets["supplement cautions"] = cautions
    }

    /// The differences from `before` to `after`, in a fixed order (failures, labels, numbers,
    /// sets; each by measure name) so that reports are deterministic.
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
