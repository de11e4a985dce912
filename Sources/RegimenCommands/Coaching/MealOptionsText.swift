import Foundation
import RegimenKit

/// Every meal of a nutrition plan as text a person follows: the meal's targets, then each
/// category's options with grams and what they bring, or the plain reason a meal has none.
/// Shared by `regimen nutrition` and `regimen plan --format text`.
enum MealOptionsText {
    static func lines(_ plan: NutritionPlan, ingredientName: (String) -> String?) -> [String] {
        var lines: [String] = []
        for meal in plan.meals {
            let t = meal.targets
            lines.append("")
            lines.append("\(meal.slot.capitalized) — target P \(number(t.macros.protein, 1)) g · C \(number(t.macros.carb, 1)) g · F \(number(t.macros.fat, 1)) g · \(number(t.kcal)) kcal")
            switch meal.allocation {
            case .infeasible(let reason):
                lines.append("  no options: \(reason)")
            case .options(let options):
                lines.append("  pick one from each of protein, carb, veg and fat:")
                // The categories in the order the line above names them.
                let categories = [("protein", options.protein), ("carb", options.carb), ("veg", options.veg), ("fat", options.fat)]
                for (category, choices) in categories {
                    for (index, option) in choices.enumerated() {
                        let name = ingredientName(option.ingredientId) ?? option.ingredientId
                        let label = index == 0 ? padded(category, 8) : padded("", 8)
                        lines.append("  \(label)\(padded(name, 46))\(right(number(option.grams) + " g", 7))  P \(right(number(option.macros.protein, 1), 5))  C \(right(number(option.macros.carb, 1), 5))  F \(right(number(option.macros.fat, 1), 5))  \(right(number(option.kcal), 4)) kcal  \(option.budgetTier.rawValue)")
                    }
                }
            }
        }
        return lines
    }

    /// How close any pick lands, in words: ±10%, or the rules' floor for small targets.
    static func guarantee(_ plan: NutritionPlan) -> String {
        let floor = plan.toleranceFloor
        var text = "any one pick per category stays within \(plan.tolerances.toleranceWords)"
        if floor.protein > 0 || floor.carb > 0 || floor.fat > 0 || floor.kcal > 0 {
            text += " (at least ±\(number(floor.protein)) g P, ±\(number(floor.carb)) g C, ±\(number(floor.fat)) g F, ±\(number(floor.kcal)) kcal)"
        }
        return text
    }

    static func number(_ value: Double, _ places: Int = 0) -> String {
        String(format: "%.\(places)f", value)
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
