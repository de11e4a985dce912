package import RegimenLanguage
package import RegimenRules

/// `rules/nutrition.yaml`: the energy definition, calories by goal and the macro split.
package struct NutritionFile: RuleFileKind, Sendable {
    package static let kind = "nutrition"
    /// `calories`: one goal calories per entry, for coverage and explanations.
    package static let caloriesSection = RuleSection(Self.self, .entries, key: "calories", category: "goal calories")
    package static var ruleSections: [RuleSection] { [caloriesSection] }
    /// Variables point expressions may read, in slot order (``NutritionVariables``).
    static var pointVariables: [String] { NutritionVariables.pointScope.names }
    package static var expressionScopes: [ExpressionScope] { [NutritionVariables.pointScope] }

    /// A range a coach wrote and the expression that picks the point inside it.
    package struct RangedPoint: Sendable {
        package var range: ClosedRange<Double>
        package var point: CompiledExpression
        /// Where the range is written, for plausibility errors.
        package var location: SourceLocation?
    }

    /// What may give way, in order, when carbohydrate would fall below its floor.
    enum GiveWay: String, Sendable, Hashable, CaseIterable {
        case protein, fat, kcal
    }

    /// Slot order of the point expressions' environment.
    var pointSlotNames: [String]
    var energy: EnergyFactors
    /// TDEE multiplier per canonical goal id.
    var calories: [String: RangedPoint]
    /// Where the file is written: the entry its goals are noted under, for the check against
    /// rules/goals.yaml.
    var entry: SourceLocation?
    package var proteinPerKg: RangedPoint
    package var fatPerKg: RangedPoint
    var carbFloorPerKg: Double
    var giveWay: [GiveWay]
    /// Per goal, the highest multiple of TDEE the give-way may lift the kcal target to.
    var kcalCeilingMultiplier: [String: Double]
    /// Which kilograms protein is planned on: lean mass, adjusted or total body weight.
    package var proteinBasis: ProteinBasisRules
    /// The safety floors and the pregnancy rule of the one calorie precedence (``CaloriePrecedence``).
    var precedence: CalorieSafetyRules

    package static func decode(_ document: inout MappingDecoder) -> NutritionFile? {
        let context = document.context
        let environment = context.environment(declaring: NutritionVariables.pointScope.variables)
        func rangedPoint(_ map: inout MappingDecoder, rangeKey: String) -> RangedPoint? {
            let range = decodeRange(&map, rangeKey)
            let point = map.requiredExpression("point", in: environment)
            guard let range, let point else { return nil }
            return RangedPoint(range: range, point: point, location: map.location(ofKey: rangeKey))
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
        let macros = document.mapping("macros") { map -> (RangedPoint, RangedPoint, Double, [GiveWay], [String: Double], ProteinBasisRules)? in
            let protein = map.mapping("protein_g_per_kg") { rangedPoint(&$0, rangeKey: "range") }
            let basis = map.mapping("protein_basis") { basis -> ProteinBasisRules? in
                let leanMass = basis.mapping("lean_mass_g_per_kg") { rangedPoint(&$0, rangeKey: "range") }
                let adjusted = basis.mapping("adjusted_weight") { adjusted -> (Double, Double, Double)? in
                    let from = adjusted.required("from_bmi", as: Double.self, in: 10...80)
                    let reference = adjusted.required("reference_bmi", as: Double.self, in: 10...80)
                    let fraction = adjusted.required("excess_fraction", as: Double.self, in: 0...1)
                    guard let from, let reference, let fraction else { return nil }
                    return (from, reference, fraction)
                }
                guard let leanMass, let adjusted else { return nil }
                return ProteinBasisRules(leanMass: leanMass, adjustedFromBMI: adjusted.0, referenceBMI: adjusted.1, excessFraction: adjusted.2)
            }
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
            guard let protein, let fat, let floor, giveWayNames != nil, let ceilings, let basis else { return nil }
            return (protein, fat, floor, giveWay, ceilings, basis)
        }
        let precedence = document.mapping("calorie_precedence") { CalorieSafetyRules.decode(&$0) }
        guard let energy, let calories, let macros, let precedence else { return nil }
        // The check against rules/goals.yaml reports a goal where it is written.
        context.noteWords(["calories", "macros.kcal_ceiling_multiplier", "calorie_precedence.floors.absolute_kcal"], of: document.node, entry: document.node.location)
        var rules = NutritionFile(
            pointSlotNames: environment.variables, energy: energy, calories: calories, proteinPerKg: macros.0, fatPerKg: macros.1, carbFloorPerKg: macros.2,
            giveWay: macros.3, kcalCeilingMultiplier: macros.4, proteinBasis: macros.5, precedence: precedence)
        rules.entry = document.node.location
        return rules
    }

    /// Every goal has a calorie rule and every calorie rule names a goal; every range lies inside
    /// its plausible range of rules/plausibility.yaml.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        if let plausibility = ruleSet.first(PlausibilityFile.self) {
            for nutrition in ruleSet.all(NutritionFile.self) { checkPlausible(nutrition, plausibility, context) }
        }
        guard let goals = ruleSet.first(GoalsFile.self) else { return }
        for (path, nutrition) in ruleSet.files(of: NutritionFile.self) {
            let ids = Set(goals.goals.map(\.id))
            for goal in ids.subtracting(nutrition.calories.keys).sorted() {
                context.error("rules.gap", "nutrition: no calorie rule for goal '\(goal)'", at: SourceLocation(file: path, line: 1, column: 1))
            }
            let fileStart = SourceLocation(file: path, line: 1, column: 1)
            for name in Set(nutrition.calories.keys).subtracting(ids).sorted() {
                context.error("rules.reference", "nutrition: calorie rule for '\(name)', which is not a goal id in rules/goals.yaml\(Suggestion.clause(for: name, among: ids.sorted()))",
                              at: context.location(of: name, under: "calories", in: nutrition.entry) ?? fileStart)
            }
            for name in Set(nutrition.kcalCeilingMultiplier.keys).subtracting(ids).sorted() {
                context.error("rules.reference", "nutrition: kcal_ceiling_multiplier for '\(name)', which is not a goal id in rules/goals.yaml\(Suggestion.clause(for: name, among: ids.sorted()))",
                              at: context.location(of: name, under: "macros.kcal_ceiling_multiplier", in: nutrition.entry) ?? fileStart)
            }
        }
    }

    package var ruleCount: Int { calories.count + 3 }
}

/// `macros.protein_basis` in `rules/nutrition.yaml`: lean mass when body fat is known, else an
/// adjusted body weight when BMI says total weight misleads, else total weight.
extension NutritionFile {
    /// Both ends of every range the file writes inside its plausible range: a multiplier of
    /// `8.0-9.0` (for 0.80–0.90) would plan nine times the TDEE, within its own range and so
    /// never refused at plan time. Each range out of bounds is an error at the range.
    static func checkPlausible(_ nutrition: NutritionFile, _ plausibility: PlausibilityFile, _ context: DecodingContext) {
        var ranges: [(what: String, key: String, point: RangedPoint)] = nutrition.calories.sorted { $0.key < $1.key }.map {
            ("calories.\($0.key).multiplier", "tdee_multiplier", $0.value)
        }
        ranges.append(("macros.protein_g_per_kg.range", "protein_g_per_kg", nutrition.proteinPerKg))
        ranges.append(("macros.protein_basis.lean_mass_g_per_kg.range", "lean_mass_protein_g_per_kg", nutrition.proteinBasis.leanMass))
        ranges.append(("macros.fat_g_per_kg.range", "fat_g_per_kg", nutrition.fatPerKg))
        for (what, key, point) in ranges {
            guard let plausible = plausibility.nutrition[key] else { continue }
            for end in [point.range.lowerBound, point.range.upperBound] where !plausible.contains(end) {
                context.error(
                    "rules.plausibility",
                    "nutrition: \(what) reaches \(NumberText.rounded(end, decimals: 2)), outside the plausible \(key) range \(plausible.text) (rules/plausibility.yaml)",
                    at: point.location)
                break
            }
        }
        // A floor is a target some client gets: outside the plan's kcal range, plan would refuse
        // every client it applies to.
        if let planKcal = plausibility.plan["kcal"] {
            for (sex, floor) in nutrition.precedence.absoluteFloor.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where !planKcal.contains(floor) {
                context.error(
                    "rules.plausibility",
                    "nutrition: calorie_precedence.floors.absolute_kcal.\(sex.rawValue) is \(NumberText.rounded(floor, decimals: 1)), outside the plausible plan kcal range \(planKcal.text) (rules/plausibility.yaml)",
                    at: context.location(of: sex.rawValue, under: "calorie_precedence.floors.absolute_kcal", in: nutrition.entry) ?? nutrition.entry)
            }
        }
        // Adapt writes loads up to plan.load_kg and reads plans up to the hard limit: a wider
        // range would have adapt write a plan it then refuses.
        if let load = plausibility.plan["load_kg"], load.low < PlanView.plausible.loadKg.lowerBound || load.high > PlanView.plausible.loadKg.upperBound {
            context.error(
                "rules.plausibility",
                "plausibility: plan.load_kg \(load.text) reaches past the \(NumberText.rounded(PlanView.plausible.loadKg.lowerBound, decimals: 0))–\(NumberText.rounded(PlanView.plausible.loadKg.upperBound, decimals: 0)) kg a plan document may hold",
                at: load.location)
        }
    }
}

package struct ProteinBasisRules: Sendable {
    /// g/kg of lean body mass, with the expression that picks the point.
    var leanMass: NutritionFile.RangedPoint
    /// Without body fat, a BMI at or above this plans protein on the adjusted weight.
    var adjustedFromBMI: Double
    /// The BMI whose weight the adjusted weight starts from.
    var referenceBMI: Double
    /// The share of the weight above the reference that counts.
    var excessFraction: Double
}

/// `calorie_precedence` in `rules/nutrition.yaml`: the safety floors and the pregnancy rule that
/// rank above a goal's calorie band.
package struct CalorieSafetyRules: Sendable, Hashable {
    /// The absolute floor per sex, kcal/day.
    var absoluteFloor: [Profile.Sex: Double]
    /// The target never falls below BMR × this.
    var bmrMultiplier: Double
    /// Where the floors come from, as the plan names it.
    var floorSource: String
    /// A pregnant client's target is at least TDEE × this (no deficit).
    var pregnancyMinMultiplier: Double
    /// Extra kcal/day in the first, second and third trimester.
    var pregnancyExtraByTrimester: [Double]
    /// Where the pregnancy rule comes from, as the plan names it.
    var pregnancySource: String
    /// What the nutrition section tells a pregnant client: why the kcal is not in deficit.
    var pregnancyCaution: String = ""
    /// What a careful coach does in the first, second and third trimester; `{extra_kcal}` stands
    /// for the trimester's extra energy, `{extra_kcal_1}`…`{extra_kcal_3}` for each trimester's.
    var pregnancyCautionByTrimester: [String] = []
    /// The same when the profile gives no trimester.
    var pregnancyCautionTrimesterUnknown: String = ""

    static func decode(_ map: inout MappingDecoder) -> CalorieSafetyRules? {
        let floors = map.mapping("floors") { floors -> (Double, Double, Double, String)? in
            let absolute = floors.mapping("absolute_kcal") { sexes -> (Double, Double)? in
                let female = sexes.required("female", as: Double.self, in: 0...5000)
                let male = sexes.required("male", as: Double.self, in: 0...5000)
                guard let female, let male else { return nil }
                return (female, male)
            }
            let bmr = floors.required("bmr_multiplier", as: Double.self, in: 0...2)
            let source = floors.required("source", as: String.self)
            guard let absolute, let bmr, let source else { return nil }
            return (absolute.0, absolute.1, bmr, source)
        }
        let pregnancy = map.mapping("pregnancy") { pregnancy -> (Double, [Double], String, String, [String], String)? in
            let minimum = pregnancy.required("min_multiplier", as: Double.self, in: 1...2)
            let extra = pregnancy.required("extra_kcal_by_trimester", as: [Double].self)
            let source = pregnancy.required("source", as: String.self)
            let caution = pregnancy.required("caution", as: String.self)
            let byTrimester = pregnancy.required("caution_by_trimester", as: [String].self)
            let unknown = pregnancy.required("caution_trimester_unknown", as: String.self)
            if let byTrimester, byTrimester.count != 3 {
                pregnancy.context.error(
                    "rules.value", "nutrition: caution_by_trimester must list three cautions (first, second, third trimester)",
                    at: pregnancy.location(ofKey: "caution_by_trimester"))
                return nil
            }
            if let extra, extra.count != 3 || extra.contains(where: { !(0...1500).contains($0) }) {
                pregnancy.context.error(
                    "rules.value", "nutrition: extra_kcal_by_trimester must list three numbers from 0 to 1500 (first, second, third trimester)",
                    at: pregnancy.location(ofKey: "extra_kcal_by_trimester"))
                return nil
            }
            guard let minimum, let extra, let source, let caution, let byTrimester, let unknown else { return nil }
            return (minimum, extra, source, caution, byTrimester, unknown)
        }
        guard let floors, let pregnancy else { return nil }
        return CalorieSafetyRules(
            absoluteFloor: [.female: floors.0, .male: floors.1], bmrMultiplier: floors.2, floorSource: floors.3,
            pregnancyMinMultiplier: pregnancy.0, pregnancyExtraByTrimester: pregnancy.1, pregnancySource: pregnancy.2,
            pregnancyCaution: pregnancy.3, pregnancyCautionByTrimester: pregnancy.4, pregnancyCautionTrimesterUnknown: pregnancy.5)
    }
}
