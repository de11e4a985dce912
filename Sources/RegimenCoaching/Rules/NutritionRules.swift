import RegimenLanguage
import RegimenRules

/// `rules/nutrition.yaml`: the energy definition, calories by goal and the macro split.
package struct NutritionRules: RuleFileKind, Sendable {
    package static let kind = "nutrition"
    /// Variables point expressions may read, in slot order (``NutritionVariables``).
    package static var pointVariables: [String] { NutritionVariables.pointScope.names }
    package static var expressionScopes: [ExpressionScope] { [NutritionVariables.pointScope] }

    /// A range a coach wrote and the expression that picks the point inside it.
    package struct RangedPoint: Sendable {
        package var range: ClosedRange<Double>
        package var point: CompiledExpression
    }

    /// What may give way, in order, when carbohydrate would fall below its floor.
    package enum GiveWay: String, Sendable, Hashable, CaseIterable {
        case protein, fat, kcal
    }

    /// Slot order of the point expressions' environment.
    package var pointSlotNames: [String]
    package var energy: EnergyFactors
    /// TDEE multiplier per canonical goal id.
    package var calories: [String: RangedPoint]
    package var proteinPerKg: RangedPoint
    package var fatPerKg: RangedPoint
    package var carbFloorPerKg: Double
    package var giveWay: [GiveWay]
    /// Per goal, the highest multiple of TDEE the give-way may lift the kcal target to.
    package var kcalCeilingMultiplier: [String: Double]

    package static func decode(_ document: inout MappingDecoder) -> NutritionRules? {
        let context = document.context
        let environment = context.environment(declaring: NutritionVariables.pointScope.variables)
        func rangedPoint(_ map: inout MappingDecoder, rangeKey: String) -> RangedPoint? {
            let range = decodeRange(&map, rangeKey)
            let point = map.requiredExpression("point", in: environment)
            guard let range, let point else { return nil }
            return RangedPoint(range: range, point: point)
        }
        let energy = document.mapping("energy") { map -> EnergyFactors? in
            let definition = map.required("definition", as: String.self)
            let factors = map.mapping("kcal_per_g") { factors -> Macros? in
                let p = factors.required("protein", as: Double.self, in: 0...20)
                let c = factors.required("carb", as: Double.self, in: 0...20)
                let f = factors.required("fat", as: Double.self, in: 0...20)
                guard let p, let c, let f else { return nil }
                return Macros(protein: p, carb: c, fat: f)
            }
            guard let definition, let factors else { return nil }
            return EnergyFactors(definition: definition, kcalPerGram: factors)
        }
        let calories = document.mapping("calories") { map -> [String: RangedPoint]? in
            var result: [String: RangedPoint] = [:]
            for goal in map.keys {
                map.path = map.path.about("calories for '\(goal)'")
                result[goal] = map.mapping(goal) { entry in rangedPoint(&entry, rangeKey: "multiplier") }
            }
            return result
        }
        let macros = document.mapping("macros") { map -> (RangedPoint, RangedPoint, Double, [GiveWay], [String: Double])? in
            let protein = map.mapping("protein_g_per_kg") { rangedPoint(&$0, rangeKey: "range") }
            let fat = map.mapping("fat_g_per_kg") { rangedPoint(&$0, rangeKey: "range") }
            let floor = map.required("carb_floor_g_per_kg", as: Double.self, in: 0...10)
            let giveWayNames = map.required("give_way", as: [String].self)
            var giveWay: [GiveWay] = []
            for name in giveWayNames ?? [] {
                if let step = GiveWay(rawValue: name) {
                    giveWay.append(step)
                } else {
                    context.error("rules.value", "nutrition: give_way step '\(name)' must be one of protein, fat, kcal", at: map.location(ofKey: "give_way"))
                }
            }
            if giveWayNames != nil, !giveWay.contains(.kcal) {
                context.error("rules.value", "nutrition: give_way must end with kcal, or carbohydrate could stay below its floor", at: map.location(ofKey: "give_way"))
            }
            let ceilings = map.mapping("kcal_ceiling_multiplier") { entries -> [String: Double]? in
                var result: [String: Double] = [:]
                for goal in entries.keys {
                    if let value = entries.required(goal, as: Double.self, in: 0.5...2) { result[goal] = value }
                }
                return result
            }
            guard let protein, let fat, let floor, giveWayNames != nil, let ceilings else { return nil }
            return (protein, fat, floor, giveWay, ceilings)
        }
        guard let energy, let calories, let macros else { return nil }
        return NutritionRules(
            pointSlotNames: environment.variables, energy: energy, calories: calories, proteinPerKg: macros.0, fatPerKg: macros.1, carbFloorPerKg: macros.2,
            giveWay: macros.3, kcalCeilingMultiplier: macros.4)
    }

    /// Every goal has a calorie rule and every calorie rule names a goal.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        guard let goals = ruleSet.first(GoalRules.self) else { return }
        for (path, nutrition) in ruleSet.files(of: NutritionRules.self) {
            let ids = Set(goals.goals.map(\.id))
            for goal in ids.subtracting(nutrition.calories.keys).sorted() {
                context.error("rules.gap", "nutrition: no calorie rule for goal '\(goal)'", at: SourceLocation(file: path, line: 1, column: 1))
            }
            for name in Set(nutrition.calories.keys).subtracting(ids).sorted() {
                context.error("rules.reference", "nutrition: calorie rule for '\(name)', which is not a goal id in rules/goals.yaml", at: SourceLocation(file: path, line: 1, column: 1))
            }
            for name in Set(nutrition.kcalCeilingMultiplier.keys).subtracting(ids).sorted() {
                context.error("rules.reference", "nutrition: kcal_ceiling_multiplier for '\(name)', which is not a goal id in rules/goals.yaml", at: SourceLocation(file: path, line: 1, column: 1))
            }
        }
    }

    package var ruleCount: Int { calories.count + 2 }
}
