import ArgumentParser
import RegimenKit

/// `regimen nutrition PROFILE`: kcal, macros and meals with ingredient options.
struct Nutrition: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Plan kcal, macros and ingredient options per meal for a profile.",
        discussion: """
            Any one option from each category (protein, carb, veg, fat) lands a meal within the \
            rules' tolerance (±10% on kcal and protein, wider on carbohydrate and fat as rules/meals.yaml says; never narrower than the rules' floor for small targets) of its \
            protein, carb, fat and kcal targets. Text by default: every meal with its options and \
            grams. Exit status: 0 ok (a meal the catalog cannot serve says so), 1 rule error, \
            2 bad profile.
            """)

    @OptionGroup var arguments: ProfileReportArguments

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(arguments.sources, in: context)
        let profile = try EngineInput.profile(arguments.profile, engine: engine, in: context)
        let plan = try EngineInput.run({ () throws(RegimenError) in try engine.nutrition(profile) }, in: context)
        ProfileInput.print(plan.jsonValue, format: arguments.format ?? .text, text: { NutritionText.render(plan, ingredientName: engine.ingredientName) }, in: context)
    }
}

/// The nutrition plan as text a coach or client reads.
enum NutritionText {
    static func render(_ plan: NutritionPlan, ingredientName: (String) -> String?) -> String {
        let number = MealOptionsText.number
        var lines: [String] = []
        lines.append("Goal \(plan.goal): \(number(plan.kcal, 0)) kcal/day (TDEE \(number(plan.tdee, 0)) × \(number(plan.multiplier, 3)))")
        lines.append("Protein \(number(plan.macros.proteinG, 0)) g (\(number(plan.proteinPerKg, 2)) g/kg\(plan.proteinBasis.kind.perKgSuffix)) · fat \(number(plan.macros.fatG, 0)) g (\(number(plan.fatPerKg, 2)) g/kg) · carbs \(number(plan.macros.carbG, 0)) g   [kcal: \(plan.energyDefinition)]")
        lines.append("Budget \(plan.budgetTier.rawValue) · exclusions: \(plan.exclusions.isEmpty ? "none" : plan.exclusions.joined(separator: ", ")) · \(MealOptionsText.guarantee(plan))")
        for adjustment in plan.adjustments { lines.append("adjusted: \(adjustment)") }
        for caution in plan.cautions { lines.append("caution: \(caution)") }
        lines.append(contentsOf: MealOptionsText.lines(plan, ingredientName: ingredientName))
        if !plan.tips.isEmpty { lines.append("") }
        for tip in plan.tips { lines.append("tip: \(tip)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
