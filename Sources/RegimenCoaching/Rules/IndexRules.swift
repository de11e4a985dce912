import RegimenLanguage
import RegimenRules

/// `rules/indexes.yaml`: the recalculateIndexes formulas as compiled expressions.
package struct IndexRules: RuleFileKind, Sendable {
    package static let kind = "indexes"
    /// Variables every index formula may read, in slot order.
    package static var variables: [String] { IndexVariables.person.map(\.name) }
    package static var expressionScopes: [ExpressionScope] { [IndexVariables.formulasScope, IndexVariables.oneRepMaxScope] }

    /// One row of the BMR method table: the first whose condition holds is used.
    package struct BMRMethod: Sendable {
        package var method: String
        package var when: CompiledExpression
        package var formula: CompiledExpression
    }

    /// A labelled band of a context scale; the last band has no upper bound.
    package struct Band: Sendable, Hashable {
        package var below: Double?
        package var label: String
    }

    /// Slot order of the formulas' environment (shared-function environments may add variables first).
    package var slotNames: [String]
    package var bmrMethods: [BMRMethod]
    package var leanBodyMass: CompiledExpression
    package var tdee: CompiledExpression
    package var bmi: CompiledExpression
    package var whtr: CompiledExpression
    package var ffmi: CompiledExpression
    /// Epley, with variables `load` and `reps`.
    package var oneRepMax: CompiledExpression
    package var overrideWarningPct: Double
    /// Context scales by index name (`BMI`, `WHtR`, `FFMI`).
    package var context: [String: [Band]]

    /// The label of the band `value` falls in.
    package func contextLabel(_ index: String, _ value: Double) -> String? {
        guard let bands = context[index] else { return nil }
        return bands.first { band in band.below.map { value < $0 } ?? true }?.label
    }

    package static func decode(_ document: inout MappingDecoder) -> IndexRules? {
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
        guard let methods, !methods.isEmpty, let lbm, let tdee, let bmi, let whtr, let ffmi, let oneRepMax, let warning, let bands
        else { return nil }
        return IndexRules(
            slotNames: environment.variables, bmrMethods: methods, leanBodyMass: lbm, tdee: tdee, bmi: bmi, whtr: whtr, ffmi: ffmi, oneRepMax: oneRepMax,
            overrideWarningPct: warning, context: bands)
    }
}
