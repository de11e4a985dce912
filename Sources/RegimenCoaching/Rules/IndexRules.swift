import RegimenLanguage
import RegimenRules

/// `rules/indexes.yaml`: the recalculateIndexes formulas as compiled expressions.
public struct IndexRules: RuleFileKind, Sendable {
    public static let kind = "indexes"
    /// Variables every index formula may read, in slot order.
    public static var variables: [String] { IndexVariables.person.map(\.name) }
    public static var expressionScopes: [ExpressionScope] { [IndexVariables.formulasScope, IndexVariables.oneRepMaxScope] }

    /// One row of the BMR method table: the first whose condition holds is used.
    public struct BMRMethod: Sendable {
        public var method: String
        public var when: CompiledExpression
        public var formula: CompiledExpression
    }

    /// A labelled band of a context scale; the last band has no upper bound.
    public struct Band: Sendable, Hashable {
        public var below: Double?
        public var label: String
    }

    /// Slot order of the formulas' environment (shared-function environments may add variables first).
    public var slotNames: [String]
    public var bmrMethods: [BMRMethod]
    public var leanBodyMass: CompiledExpression
    public var tdee: CompiledExpression
    public var bmi: CompiledExpression
    public var whtr: CompiledExpression
    public var ffmi: CompiledExpression
    /// Epley, with variables `load` and `reps`.
    public var oneRepMax: CompiledExpression
    public var overrideWarningPct: Double
    /// Context scales by index name (`BMI`, `WHtR`, `FFMI`).
    public var context: [String: [Band]]

    /// The label of the band `value` falls in.
    public func contextLabel(_ index: String, _ value: Double) -> String? {
        guard let bands = context[index] else { return nil }
        return bands.first { band in band.below.map { value < $0 } ?? true }?.label
    }

    public static func decode(_ document: inout MappingDecoder) -> IndexRules? {
        let context = document.context
        let environment = context.environment(declaring: IndexVariables.person)
        let methods = document.mapping("bmr") { bmr -> [BMRMethod]? in
            bmr.list("methods") { node, path in
                context.mapping(node, at: path) { row -> BMRMethod? in
                    guard let name = row.required("method", as: String.self) else { return nil }
                    row.path = row.path.about("BMR method '\(name)'")
                    guard ["katch", "mifflin"].contains(name) else {
                        context.error("rules.value", "BMR method '\(name)' is not one the response can name (katch, mifflin; override comes from the profile)", at: row.location(ofKey: "method"))
                        return nil
                    }
                    let when = row.requiredExpression("when", in: environment)
                    let formula = row.requiredExpression("formula", in: environment)
                    guard let when, let formula else { return nil }
                    return BMRMethod(method: name, when: when, formula: formula)
                }
            }
        }
        let lbm = document.requiredExpression("lbm_kg", in: environment)
        let tdee = document.requiredExpression("tdee", in: environment)
        let bmi = document.requiredExpression("bmi", in: environment)
        let whtr = document.requiredExpression("whtr", in: environment)
        let ffmi = document.requiredExpression("ffmi", in: environment)
        let oneRepMax = document.mapping("one_rep_max") { map -> CompiledExpression? in
            let parameters = map.required("parameters", as: [String].self)
            guard let parameters else { return nil }
            if parameters != ["load", "reps"] {
                context.error("rules.value", "one_rep_max: 'parameters' must be [load, reps]", at: map.location(ofKey: "parameters"))
            }
            return map.requiredExpression("formula", in: context.environment(declaring: IndexVariables.oneRepMaxScope.variables))
        }
        let warning = document.required("override_warning_pct", as: Double.self, in: 0...100)
        let bands = document.mapping("context") { map -> [String: [Band]]? in
            var result: [String: [Band]] = [:]
            for name in ["BMI", "WHtR", "FFMI"] {
                result[name] = map.list(name) { node, path in
                    context.mapping(node, at: path) { band -> Band? in
                        let below = band.optional("below", as: Double.self)
                        return band.required("label", as: String.self).map { Band(below: below, label: $0) }
                    }
                } ?? []
            }
            return result
        }
        guard let methods, !methods.isEmpty, let lbm, let tdee, let bmi, let whtr, let ffmi, let oneRepMax, let warning, let bands
        else { return nil }
        return IndexRules(
            slotNames: environment.variables, bmrMethods: methods, leanBodyMass: lbm, tdee: tdee, bmi: bmi, whtr: whtr, ffmi: ffmi, oneRepMax: oneRepMax,
            overrideWarningPct: warning, context: bands)
    }
}

/// `rules/activity-multipliers.yaml`: TDEE multipliers by training days.
public struct ActivityMultiplierRules: RuleFileKind, Sendable {
    public static let kind = "activity_multipliers"

    public var byTrainingDays: [Int: Double]

    public static func decode(_ document: inout MappingDecoder) -> ActivityMultiplierRules? {
        let context = document.context
        let table = document.mapping("by_training_days") { map -> [Int: Double]? in
            var result: [Int: Double] = [:]
            for key in map.keys {
                guard let days = Int(key), (1...6).contains(days) else {
                    context.error("rules.value", "activity multipliers: '\(key)' is not a number of training days (1-6)", at: map.location(ofKey: key))
                    _ = map.node(key)
                    continue
                }
                result[days] = map.required(key, as: Double.self, in: 1...3)
            }
            return result
        }
        guard let table else { return nil }
        let missing = (1...6).filter { table[$0] == nil }
        if !missing.isEmpty {
            context.error("rules.gap", "activity multipliers: no multiplier for \(missing.map(String.init).joined(separator: ", ")) training day(s)", at: document.node("by_training_days")?.location)
            return nil
        }
        return ActivityMultiplierRules(byTrainingDays: table)
    }
}

/// `rules/accuracy-ladder.yaml`: the accuracy meter's ladder, next-best inputs and tips.
public struct AccuracyLadderRules: RuleFileKind, Sendable {
    public static let kind = "accuracy_ladder"
    /// The inputs the ladder may name.
    static let inputs = ["weight_kg", "height_cm", "age_range", "bodyfat_pct", "waist_cm"]

    public struct Level: Sendable, Hashable {
        public var level: String
        public var requires: [String]
        public var confidence: String
    }

    public var levels: [Level]
    public var nextBestOrder: [String]
    public var tips: [String: String]

    public static func decode(_ document: inout MappingDecoder) -> AccuracyLadderRules? {
        let context = document.context
        let levels = document.list("levels") { node, path in
            context.mapping(node, at: path) { map -> Level? in
                guard let level = map.required("level", as: String.self) else { return nil }
                map.path = map.path.about("accuracy level '\(level)'")
                let requires = map.required("requires", as: [String].self) ?? []
                for input in requires where !inputs.contains(input) {
                    context.error("rules.value", "accuracy level '\(level)': '\(input)' is not a ladder input (\(inputs.joined(separator: ", ")))", at: map.location(ofKey: "requires"))
                }
                let confidence = map.required("confidence", as: String.self) ?? "low"
                if !["low", "med", "high"].contains(confidence) {
                    context.error("rules.value", "accuracy level '\(level)': confidence must be low, med or high", at: map.location(ofKey: "confidence"))
                }
                return Level(level: level, requires: requires, confidence: confidence)
            }
        }
        let order = document.required("next_best_order", as: [String].self)
        let tips = document.mapping("tips") { map -> [String: String]? in
            var result: [String: String] = [:]
            for input in inputs { result[input] = map.required(input, as: String.self) }
            return result
        }
        guard let levels, !levels.isEmpty, let order, let tips else { return nil }
        for input in order where !inputs.contains(input) {
            context.error("rules.value", "accuracy ladder: next_best_order names '\(input)', not a ladder input", at: document.node("next_best_order")?.location)
        }
        return AccuracyLadderRules(levels: levels, nextBestOrder: order, tips: tips)
    }
}
