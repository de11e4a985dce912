import RegimenLanguage
package import RegimenRules

/// `kind: progression_rules` — `rules/progression-rules.yaml`.
package struct ProgressionRulesFile: RuleFileKind {
    package static let kind = "progression_rules"
    /// `rules`: one progression rule per entry, for coverage and explanations.
    package static let rulesSection = RuleSection(Self.self, .list(idKey: "id"), key: "rules", category: "progression rule")
    package static var ruleSections: [RuleSection] { [rulesSection] }
    package static var expressionScopes: [ExpressionScope] { [AdaptationVariables.weekScope, AdaptationVariables.loggedExerciseScope] }
    package let rules: ProgressionRules
    /// Every rule id written in the file, including rules with errors.
    let declaredIds: [String]

    package var ruleCount: Int { rules.rules.count }

    package static func decode(_ document: inout MappingDecoder) -> ProgressionRulesFile? {
        let context = document.context
        // A mapping of equipment to its load step, read key by key so the schema says the same.
        let increments = document.mapping("increments") { map -> [(equipment: String, kg: Double)]? in
            var steps: [(equipment: String, kg: Double)] = []
            var valid = true
            for equipment in map.keys {
                guard let node = map.node(equipment) else { continue }
                if let kg = kilograms(node, at: map.path.appending(key: equipment), in: context) {
                    steps.append((equipment, kg))
                } else {
                    valid = false
                }
            }
            return valid ? steps : nil
        }
        let fallback = document.requiredNode("default_increment").flatMap { kilograms($0, at: DecodingPath(keyPath: "default_increment"), in: context) }
        let stepPercent = document.mapping("load_step_pct") { map -> ClosedRange<Double>? in
            let low = map.required("min", as: Double.self, in: 0.1...50)
            let high = map.required("max", as: Double.self, in: 0.1...50)
            guard let low, let high else { return nil }
            guard low <= high else {
                context.error("rules.out-of-range", map.path.message("min \(low) is above max \(high)"), at: map.node.location)
                return nil
            }
            return low...high
        }
        let extendReps = document.required("extend_reps", as: Int.self, in: 0...20)
        var declaredIds: [String] = []
        let rules = document.list("rules") { node, path in
            AdaptationRuleDecoder.decode(node, at: path, in: context, scopes: [.loggedExercise], defaultScope: .loggedExercise, declaring: &declaredIds)
        }
        guard let increments, let fallback, let rules, let stepPercent, let extendReps else { return nil }
        return ProgressionRulesFile(
            rules: ProgressionRules(increments: increments, defaultIncrementKg: fallback, rules: rules, loadStepPercent: stepPercent, extendReps: extendReps),
            declaredIds: declaredIds)
    }

    /// A load step: a mass above zero, in kilograms.
    private static func kilograms(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Double? {
        guard let quantity = Quantity.decode(from: node, at: path, in: context, dimension: .mass) else { return nil }
        guard quantity.amount.lower == quantity.amount.upper, quantity.baseValue > 0 else {
            context.error("rules.out-of-range", path.message("must be one load step above zero, not '\(quantity)'"), at: node.location)
            return nil
        }
        return quantity.baseValue
    }
}
