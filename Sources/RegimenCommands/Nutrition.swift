import ArgumentParser
import RegimenCoaching
import RegimenLanguage

/// `regimen nutrition PROFILE`: kcal, macros and meals with ingredient options.
struct Nutrition: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Plan kcal, macros and ingredient options per meal for a profile.",
        discussion: """
            Any one option from each category (protein, carb, veg, fat) lands a meal within the \
            rules' tolerance (±10%) of its protein, carb, fat and kcal targets; a meal the catalog \
            cannot serve that way says so instead. Exit status: 0 ok, 1 rule error, 2 bad profile.
            """)

    @OptionGroup var arguments: ProfileReportArguments

    func run() throws {
        try ProfileInput.report(arguments, in: CommandContext.current) { (rules, profile) throws(RuleEvaluationError) in
            let plan = try rules.planNutrition(profile)
            return (plan.jsonValue, { NutritionText.render(plan, catalog: rules.catalog) })
        }
    }
}

/// The nutrition plan as a table a coach reads.
enum NutritionText {
    static func render(_ plan: NutritionPlan, catalog: IngredientCatalog) -> String {
        func number(_ value: Double, _ places: Int = 0) -> String { String(format: "%.\(places)f", value) }
        func padded(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        func right(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
        }
        var lines: [String] = []
        lines.append("Goal \(plan.goal): \(number(plan.kcal)) kcal/day (TDEE \(number(plan.tdee)) × \(number(plan.multiplier, 3)))")
        lines.append("Protein \(number(plan.macros.proteinG)) g (\(number(plan.proteinPerKg, 2)) g/kg) · fat \(number(plan.macros.fatG)) g (\(number(plan.fatPerKg, 2)) g/kg) · carbs \(number(plan.macros.carbG)) g   [kcal: \(plan.energyDefinition)]")
        lines.append("Budget \(plan.budgetTier.rawValue) · exclusions: \(plan.exclusions.isEmpty ? "none" : plan.exclusions.joined(separator: ", ")) · any one pick per category stays within ±\(number(plan.tolerance * 100))%")
        for adjustment in plan.adjustments { lines.append("adjusted: \(adjustment)") }
        for meal in plan.meals {
            let t = meal.targets
            lines.append("")
            lines.append("\(meal.slot.capitalized) — target P \(number(t.macros.protein, 1)) g · C \(number(t.macros.carb, 1)) g · F \(number(t.macros.fat, 1)) g · \(number(t.kcal)) kcal")
            switch meal.allocation {
            case .infeasible(let reason):
                lines.append("  no options: \(reason)")
            case .options(let options):
                for category in IngredientCategory.allCases {
                    for (index, option) in options[category].enumerated() {
                        let name = catalog.ingredient(option.ingredientId)?.name ?? option.ingredientId
                        let label = index == 0 ? padded(category.rawValue, 8) : padded("", 8)
                        lines.append("  \(label)\(padded(name, 44))\(right(number(option.grams) + " g", 7))  P \(right(number(option.macros.protein, 1), 5))  C \(right(number(option.macros.carb, 1), 5))  F \(right(number(option.macros.fat, 1), 5))  \(right(number(option.kcal), 4)) kcal  \(option.budgetTier.rawValue)")
                    }
                }
            }
        }
        if !plan.tips.isEmpty { lines.append("") }
        for tip in plan.tips { lines.append("tip: \(tip)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
