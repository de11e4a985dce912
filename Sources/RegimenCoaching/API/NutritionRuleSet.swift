import Foundation
package import RegimenLanguage
package import RegimenRules

/// The loaded rule files the profile reader, `recalculateIndexes` and nutrition planning use.
///
/// Build it once from a ``RuleSet`` (or straight from the `rules/` and `catalogs/` folders) and
/// share it: it is immutable and `Sendable`.
package struct NutritionRuleSet: Sendable {
    package var profile: ProfileRules
    package var defaults: ProfileDefaultsFile
    package var indexes: IndexesFile
    package var activity: ActivityMultipliersFile
    var accuracy: AccuracyLadderFile
    package var nutrition: NutritionFile
    package var meals: MealsFile
    package var catalog: IngredientsFile
    /// The ranges a plan's numbers must stay in (rules/plausibility.yaml `plan`).
    var planPlausibility: PlanPlausibility

    /// The rule-file kinds this part of the planner registers with the loader: the ones it takes.
    package static let kinds = RequiredRuleFiles.kinds { (required: inout RequiredRuleFiles) throws(DiagnosticsError) in
        _ = try NutritionRuleSet(&required)
    }

    /// Picks this part's rule files out of a loaded rule set.
    /// - Throws: ``DiagnosticsError`` naming every kind the set lacks.
    package init(_ ruleSet: RuleSet) throws(DiagnosticsError) {
        var required = RequiredRuleFiles(ruleSet)
        try self.init(&required)
    }

    private init(_ required: inout RequiredRuleFiles) throws(DiagnosticsError) {
        let goals = required.take(GoalsFile.self)
        let ages = required.take(AgeRangesFile.self)
        let fields = required.take(ProfileFieldsFile.self)
        let defaults = required.take(ProfileDefaultsFile.self)
        let diets = required.take(DietaryExclusionsFile.self)
        let indexes = required.take(IndexesFile.self)
        let activity = required.take(ActivityMultipliersFile.self)
        let accuracy = required.take(AccuracyLadderFile.self)
        let nutrition = required.take(NutritionFile.self)
        let meals = required.take(MealsFile.self)
        let catalog = required.take(IngredientsFile.self)
        let plausibility = required.take(PlausibilityFile.self)
        guard let goals, let plausibility, let ages, let fields, let defaults, let diets, let indexes, let activity, let accuracy, let nutrition,
              let meals, let catalog
        else {
            throw required.error(neededBy: "the planner")
        }
        self.profile = ProfileRules(fields: fields, ages: ages, goals: goals, diets: diets)
        self.defaults = defaults
        self.indexes = indexes
        self.indexes.plausibility = IndexPlausibility(plausibility)
        self.planPlausibility = PlanPlausibility(plausibility)
        self.activity = activity
        self.accuracy = accuracy
        self.nutrition = nutrition
        self.meals = meals
        self.catalog = catalog
    }

    /// Loads `rules/` and `catalogs/` with this part's kinds plus `extraKinds` (other parts of the
    /// planner register theirs here so one pass reports every file's problems). Files of other
    /// modules' kinds are skipped; RegimenKit's engine names them, so a misspelt kind is reported.
    /// - Throws: ``DiagnosticsError`` with every problem in every file.
    package static func load(
        from sources: RuleSources, extraKinds: [any RuleFileKind.Type] = [], otherModulesKinds: RuleSetLoader.OtherModulesKinds = .anyUnregistered
    ) throws(DiagnosticsError) -> (NutritionRuleSet, RuleSet) {
        let result = RuleSetLoader(kinds: kinds + extraKinds, otherModulesKinds: otherModulesKinds).load(from: sources)
        let ruleSet = try result.get()
        return (try NutritionRuleSet(ruleSet), ruleSet)
    }

    /// A profile reader bound to these rules.
    package var profileDecoder: ProfileDecoder { ProfileDecoder(rules: profile) }
}

/// A rule expression failed while planning (a type error, a point outside its range): the rule
/// file needs fixing. Carries the file location of the expression.
package struct RuleEvaluationError: DiagnosticError {
    package var message: String
    package var location: SourceLocation?

    init(_ message: String, at location: SourceLocation?) {
        self.message = message
        self.location = location
    }

    package var kind: ErrorKind { .rules }
    package var diagnostics: [Diagnostic] { [.error("rules.evaluation", message, at: location)] }
}

/// Variable values in an environment's slot order, for the fast evaluation path (no name lookups
/// per expression).
struct ExpressionSlots {
    let names: [String]
    var values: [Value]
    /// Whether each slot was set, for ``BindingRecorder`` (an unset slot holds `null`).
    private var isSet: [Bool]

    init(names: [String]) {
        self.names = names
        self.values = Array(repeating: .null, count: names.count)
        self.isSet = Array(repeating: false, count: names.count)
    }

    /// Sets every slot called `name` (a child environment may shadow a parent's).
    mutating func set(_ name: String, _ value: Value) {
        for index in names.indices where names[index] == name {
            values[index] = value
            isSet[index] = true
        }
    }

    /// The slots set so far, by name.
    var bound: [String: Value] {
        var bound: [String: Value] = [:]
        for index in names.indices where isSet[index] { bound[names[index]] = values[index] }
        return bound
    }
}

extension CompiledExpression {
    /// Evaluates to a number, or `nil` for `null`, with variables given by slot.
    func number(_ slots: ExpressionSlots, rule: String) throws(RuleEvaluationError) -> Double? {
        BindingRecorder.current?.record(at: source.lineOrigins.first, slots.bound)
        let value: Value
        do {
            value = try evaluate(slots: slots.values)
        } catch {
            throw RuleEvaluationError("\(rule): \(error.message)", at: location(of: error) ?? source.lineOrigins.first)
        }
        if value.isNull { return nil }
        guard let number = value.numberValue, number.isFinite else {
            throw RuleEvaluationError("\(rule): expected a number, got \(value.typeName) \(value)", at: source.lineOrigins.first)
        }
        return number
    }

    /// Evaluates to a bool, with variables given by slot.
    func condition(_ slots: ExpressionSlots, rule: String) throws(RuleEvaluationError) -> Bool {
        BindingRecorder.current?.record(at: source.lineOrigins.first, slots.bound)
        let value: Value
        do {
            value = try evaluate(slots: slots.values)
        } catch {
            throw RuleEvaluationError("\(rule): \(error.message)", at: location(of: error) ?? source.lineOrigins.first)
        }
        guard case .bool(let result) = value else {
            throw RuleEvaluationError("\(rule): a condition must be true or false, got \(value.typeName) \(value)", at: source.lineOrigins.first)
        }
        return result
    }

    /// Evaluates to a number, or `nil` for `null`; anything else is a ``RuleEvaluationError``
    /// naming `rule`.
    func number(_ bindings: [String: Value], rule: String) throws(RuleEvaluationError) -> Double? {
        BindingRecorder.current?.record(at: source.lineOrigins.first, bindings)
        let value: Value
        do {
            value = try evaluate(bindings)
        } catch {
            throw RuleEvaluationError("\(rule): \(error.message)", at: location(of: error) ?? source.lineOrigins.first)
        }
        if value.isNull { return nil }
        guard let number = value.numberValue, number.isFinite else {
            throw RuleEvaluationError("\(rule): expected a number, got \(value.typeName) \(value)", at: source.lineOrigins.first)
        }
        return number
    }

    /// Evaluates to a bool; anything else is a ``RuleEvaluationError`` naming `rule`.
    func condition(_ bindings: [String: Value], rule: String) throws(RuleEvaluationError) -> Bool {
        BindingRecorder.current?.record(at: source.lineOrigins.first, bindings)
        let value: Value
        do {
            value = try evaluate(bindings)
        } catch {
            throw RuleEvaluationError("\(rule): \(error.message)", at: location(of: error) ?? source.lineOrigins.first)
        }
        guard case .bool(let result) = value else {
            throw RuleEvaluationError("\(rule): a condition must be true or false, got \(value.typeName) \(value)", at: source.lineOrigins.first)
        }
        return result
    }
}
