import Foundation
import RegimenLanguage

extension CaloriePrecedence {
    /// What the nutrition section tells the client beside the kcal figure
    /// (`calorie_precedence.pregnancy` in `rules/nutrition.yaml`): for a pregnant client, why the
    /// target is not in deficit whatever the goal, then what her trimester asks (or, without a
    /// trimester, that the plan assumed the first). Empty for everyone else.
    func cautions(_ facts: Facts) -> [String] {
        guard facts.pregnant else { return [] }
        let safety = rules.precedence
        let extras = safety.pregnancyExtraByTrimester
        func extra(_ trimester: Int) -> String {
            extras.indices.contains(trimester - 1) ? NumberText.plain(extras[trimester - 1].rounded(.toNearestOrAwayFromZero)) : "0"
        }
        func filled(_ text: String, trimester: Int?) -> String {
            var text = text
            for known in 1...3 { text = text.replacingOccurrences(of: "{extra_kcal_\(known)}", with: extra(known)) }
            return text.replacingOccurrences(of: "{extra_kcal}", with: extra(trimester ?? 1))
        }
        var cautions = [filled(safety.pregnancyCaution, trimester: facts.trimester)]
        if let trimester = facts.trimester, safety.pregnancyCautionByTrimester.indices.contains(trimester - 1) {
            cautions.append(filled(safety.pregnancyCautionByTrimester[trimester - 1], trimester: trimester))
        } else {
            cautions.append(filled(safety.pregnancyCautionTrimesterUnknown, trimester: nil))
        }
        return cautions.filter { !$0.isEmpty }
    }
}

extension NutritionPlan {
    /// What the client must know about the kcal target beside the number: for a pregnant client,
    /// why it is not in deficit and what her trimester asks (`calorie_precedence.pregnancy` in
    /// `rules/nutrition.yaml`). Empty for everyone else.
    public var cautions: [String] { calories.cautions }
}
