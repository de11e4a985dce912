package import RegimenLanguage

/// A plan document (`regimen plan --format json`, or `adapt`'s `patched_plan`) as the week a
/// person follows: the same lines `regimen plan` prints for the training week, the weekly sets
/// and the day's calories and macros, plus the changes in effect with their ends. It reads only
/// the document, so an adapted plan prints as a plan.
package enum PlanDocumentText {
    /// The plan inside `document`: the document itself, or the `patched_plan` of adapt's response.
    package static func plan(in document: Value) -> Value {
        if let patched = document["patched_plan"], patched["workouts"] != nil { return patched }
        return document
    }

    /// Whether `document` is a plan (or adapt's response) rather than a profile.
    package static func isPlan(_ document: Value) -> Bool {
        plan(in: document)["workouts"]?.listValue != nil
    }

    package static func render(_ document: Value) -> String {
        let plan = plan(in: document)
        var lines: [String] = []
        if let split = plan["training"]?["split"], let name = split["name"]?.stringValue {
            let days = split["training_days"]?.intValue.map { " — \($0) training day(s)" } ?? ""
            lines.append(name + days + (plan["deload"]?.boolValue == true ? " · deload week" : ""))
        } else if plan["deload"]?.boolValue == true {
            lines.append("Deload week")
        }
        for workout in plan["workouts"]?.listValue ?? [] {
            let day = workout["day"]?.intValue.map(String.init) ?? "?"
            let focus = workout["focus"]?.stringValue.map { " · \($0)" } ?? ""
            let minutes = workout["estimated_minutes"]?.intValue.map { " · about \($0) min" } ?? ""
            lines.append("")
            lines.append("Day \(day)\(focus)\(minutes)")
            for block in workout["blocks"]?.listValue ?? [] {
                let name = block["name"]?.stringValue ?? block["exerciseId"]?.stringValue.map(ValueText.label) ?? "?"
                let sets = block["sets"]?.intValue.map(String.init) ?? "?"
                let reps = block["reps"]?.stringValue ?? "?"
                let effort = block["rir"]?.stringValue.map { " @ RIR \($0)" } ?? ""
                let load = block["load_kg"]?.numberValue.map { " · \(ValueText.number($0)) kg" } ?? ""
                let marker = block["alt_compact"]?.boolValue == true ? "*" : " "
                lines.append(" \(marker) \(name) — \(sets) × \(reps)\(effort)\(load)  [\(block["muscle"]?.stringValue ?? "?")]")
                if let regression = block["suggested_regression"]?.stringValue { lines.append("      suggested regression: \(ValueText.label(regression))") }
            }
        }
        let weekly = plan["training"]?["weekly_sets"]?.listValue ?? []
        if !weekly.isEmpty {
            lines.append("")
            lines.append("Weekly sets per muscle (band → planned):")
            for entry in weekly {
                let band = entry["band"]?.stringValue ?? "?"
                let planned = entry["planned"]?.numberValue.map { ValueText.number($0, decimals: 1) } ?? "?"
                lines.append("  \(entry["muscle"]?.stringValue ?? "?"): \(band) → \(planned)")
            }
        }
        if let kcal = plan["kcal"]?.numberValue {
            let macros = plan["macros"]
            let grams = ["protein_g": "protein", "fat_g": "fat", "carb_g": "carbs"].sorted { $0.key > $1.key }.compactMap { key, name in
                macros?[key]?.numberValue.map { "\(name) \(ValueText.number($0.rounded())) g" }
            }
            lines.append("")
            lines.append((["Nutrition: \(ValueText.number(kcal.rounded())) kcal/day"] + grams).joined(separator: " · "))
        }
        let state = AdaptationState(value: plan["adaptation"])
        if !state.adjustments.isEmpty {
            lines.append("")
            lines.append("In effect:")
            for adjustment in state.adjustments { lines.append("  \(adjustment.line) — \(adjustment.lasts.phrase)") }
        }
        lines.append("")
        return lines.joined(separator: "\n") + "\n"
    }
}
