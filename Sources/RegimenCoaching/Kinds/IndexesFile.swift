package import RegimenLanguage
package import RegimenRules

/// `rules/indexes.yaml`: the recalculateIndexes formulas as compiled expressions.
package struct IndexesFile: RuleFileKind, Sendable {
    package static let kind = "indexes"
    /// Variables every index formula may read, in slot order.
    package static var variables: [String] { IndexVariables.person.map(\.name) }
    package static var expressionScopes: [ExpressionScope] { [IndexVariables.formulasScope, IndexVariables.oneRepMaxScope] }

    /// One row of the BMR method table: the first whose condition holds is used.
    struct BMRMethod: Sendable {
        package var method: String
        package var when: CompiledExpression
        package var formula: CompiledExpression
        /// Where the formula is written, for plausibility errors.
        package var location: SourceLocation?
    }

    /// A labelled band of a context scale; the last band has no upper bound.
    package struct Band: Sendable, Hashable {
        var below: Double?
        package var label: String
    }

    /// Slot order of the formulas' environment (shared-function environments may add variables first).
    var slotNames: [String]
    var bmrMethods: [BMRMethod]
    var leanBodyMass: CompiledExpression
    var tdee: CompiledExpression
    var bmi: CompiledExpression
    var whtr: CompiledExpression
    var ffmi: CompiledExpression
    /// Epley, with variables `load` and `reps`.
    package var oneRepMax: CompiledExpression
    var overrideWarningPct: Double
    /// Context scales by index name (`BMI`, `WHtR`, `FFMI`).
    package var context: [String: [Band]]
    /// Ranges the computed indexes and the client's measurements must stay in (the index part of
    /// rules/plausibility.yaml, set when the rule set is assembled; `nil` for a lone file).
    package var plausibility: IndexPlausibility?
    /// Where each formula key (`tdee`, `bmi`, …) is written, for plausibility errors.
    var formulaLocations: [String: SourceLocation]

    /// The label of the band `value` falls in.
    func contextLabel(_ index: String, _ value: Double) -> String? {
        guard let bands = context[index] else { return nil }
        return bands.first { band in band.below.map { value < $0 } ?? true }?.label
    }

    package static func decode(_ document: inout MappingDecoder) -> IndexesFile? {
        let context = document.context
        let environment = context.environment(declaring: IndexVariables.person)
        let methods = document.mapping("bmr") { bmr -> [BMRMethod]? in
            bmr.list("methods") { node, path in
                context.mapping(node, at: path) { row -> BMRMethod? in
                    // Every key is read before any check stops the row, so a bad method name does
                    // not also report the row's other keys as unknown.
                    let name = row.required("method", as: String.self)
                    if let name { row.path = row.path.about("BMR method '\(name)'") }
                    let when = row.requiredExpression("when", in: environment)
                    let formula = row.requiredExpression("formula", in: environment)
                    guard let name else { return nil }
                    guard ["katch", "mifflin"].contains(name) else {
                        context.error("rules.value", "BMR method '\(name)' is not one the response can name (katch, mifflin; override comes from the profile)", at: row.location(ofKey: "method"))
                        return nil
                    }
                    guard let when, let formula else { return nil }
                    return BMRMethod(method: name, when: when, formula: formula, location: row.location(ofKey: "formula"))
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
            let formula = map.requiredExpression("formula", in: context.environment(declaring: IndexVariables.oneRepMaxScope.variables))
            guard let parameters else { return nil }
            if parameters != ["load", "reps"] {
                context.error("rules.value", "one_rep_max: 'parameters' must be [load, reps]", at: map.location(ofKey: "parameters"))
            }
            return formula
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
        var locations: [String: SourceLocation] = [:]
        for key in ["lbm_kg", "tdee", "bmi", "whtr", "ffmi"] { locations[key] = document.location(ofKey: key) }
        guard let methods, !methods.isEmpty, let lbm, let tdee, let bmi, let whtr, let ffmi, let oneRepMax, let warning, let bands
        else { return nil }
        return IndexesFile(
            slotNames: environment.variables, bmrMethods: methods, leanBodyMass: lbm, tdee: tdee, bmi: bmi, whtr: whtr, ffmi: ffmi, oneRepMax: oneRepMax,
            overrideWarningPct: warning, context: bands, plausibility: nil, formulaLocations: locations)
    }

    /// Every formula over the grid of plausible profiles of rules/plausibility.yaml: the first
    /// profile a formula's result leaves its range for is an error at that formula (what
    /// `regimen check` reports).
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        guard let ranges = ruleSet.first(PlausibilityFile.self) else { return }
        for var rules in ruleSet.all(IndexesFile.self) {
            rules.plausibility = IndexPlausibility(ranges)
            for failure in rules.gridFailures() { context.error("rules.plausibility", failure.message, at: failure.location) }
        }
    }
}

extension IndexesFile {
    /// A formula whose result leaves its plausible range, with where it is written.
    struct PlausibilityFailure: Sendable, Hashable {
        package var message: String
        package var location: SourceLocation?
    }

    /// The value of `formula` checked against its range: nil when plausible, else the failure.
    func implausible(_ key: String, _ value: Double?, at location: SourceLocation?, for subject: String) -> PlausibilityFailure? {
        guard let value, let range = plausibility?.formulas[key], !range.contains(value) else { return nil }
        let shown = value.isFinite ? NumberText.rounded(value, decimals: 2) : "a non-finite number"
        return PlausibilityFailure(
            message: "\(key): gives \(shown) for \(subject), outside its plausible range \(range.text) (rules/plausibility.yaml, indexes.\(key))", location: location)
    }

    /// The first failure of each formula over the plausibility grid.
    func gridFailures() -> [PlausibilityFailure] {
        var failures: [String: PlausibilityFailure] = [:]
        var order: [String] = []
        func note(_ key: String, _ failure: PlausibilityFailure?) {
            guard let failure, failures[key] == nil else { return }
            failures[key] = failure
            order.append(key)
        }
        /// The formula's number (nil for null), or why it has none.
        func evaluate(_ expression: CompiledExpression, _ slots: ExpressionSlots) -> (value: Double?, problem: String?) {
            do {
                let value = try expression.evaluate(slots: slots.values)
                if value.isNull { return (nil, nil) }
                guard let number = value.numberValue else { return (nil, "gives \(value.typeName), not a number") }
                return (number, nil)
            } catch {
                return (nil, error.message)
            }
        }
        for profile in plausibility?.profiles() ?? [] {
            let subject = "the grid profile \(profile.description)"
            var slots = ExpressionSlots(names: slotNames)
            slots.set(IndexVariables.sex, .string(profile.sex))
            slots.set(IndexVariables.age, .int(Int64((profile.values["age"] ?? nil) ?? 30)))
            for (key, name) in [("height_cm", IndexVariables.heightCm), ("weight_kg", IndexVariables.weightKg), ("bodyfat_pct", IndexVariables.bodyfatPct),
                                ("waist_cm", IndexVariables.waistCm), ("activity_multiplier", IndexVariables.activityMultiplier)] {
                slots.set(name, ((profile.values[key] ?? nil).map(Value.float)) ?? .null)
            }
            slots.set(IndexVariables.assumed, .list([]))
            func check(_ key: String, _ expression: CompiledExpression, at location: SourceLocation?) -> Double? {
                let outcome = evaluate(expression, slots)
                if let problem = outcome.problem {
                    note(key, PlausibilityFailure(message: "\(key): fails for \(subject): \(problem)", location: location))
                    return nil
                }
                note(key, implausible(key, outcome.value, at: location, for: subject))
                return outcome.value
            }
            let lbm = check("lbm_kg", leanBodyMass, at: formulaLocations["lbm_kg"])
            slots.set(IndexVariables.lbmKg, lbm.map(Value.float) ?? .null)
            var bmr: Double?
            for method in bmrMethods {
                guard (try? method.when.evaluate(slots: slots.values)) == .bool(true) else { continue }
                bmr = check("bmr", method.formula, at: method.location)
                break
            }
            guard let bmr else { continue }
            slots.set(IndexVariables.bmr, .float(bmr))
            guard let tdee = check("tdee", tdee, at: formulaLocations["tdee"]) else { continue }
            slots.set(IndexVariables.tdee, .float(tdee))
            _ = check("bmi", bmi, at: formulaLocations["bmi"])
            if profile.values["waist_cm"] ?? nil != nil { _ = check("whtr", whtr, at: formulaLocations["whtr"]) }
            if lbm != nil { _ = check("ffmi", ffmi, at: formulaLocations["ffmi"]) }
            if failures.count == IndexPlausibility.formulaKeys.count { break }
        }
        return order.compactMap { failures[$0] }
    }
}
