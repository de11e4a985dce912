import RegimenLanguage
import RegimenRules

/// `kind: progression_rules` — `rules/progression-rules.yaml`.
package struct ProgressionRulesFile: RuleFileKind {
    package static let kind = "progression_rules"
    package static var expressionScopes: [ExpressionScope] { [AdaptationVariables.weekScope, AdaptationVariables.loggedExerciseScope] }
    package let rules: ProgressionRules
    /// Every rule id written in the file, including rules with errors.
    let declaredIds: [String]

    package var ruleCount: Int { rules.rules.count }

    package static func decode(_ document: inout MappingDecoder) -> ProgressionRulesFile? {
        let context = document.context
        var increments: [(equipment: String, kg: Double)] = []
        var incrementsValid = true
        if let node = document.requiredNode("increments") {
            if let pairs = node.mapping {
                for pair in pairs {
                    guard let equipment = pair.key.scalar?.text else { continue }
                    if let kg = kilograms(pair.value, at: DecodingPath(keyPath: "increments.\(equipment)"), in: context) {
                        increments.append((equipment, kg))
                    } else {
                        incrementsValid = false
                    }
                }
            } else {
                context.wrongType(node, expected: "a mapping of equipment to load steps such as 2.5kg", at: DecodingPath(keyPath: "increments"))
                incrementsValid = false
            }
        }
        let fallback = document.requiredNode("default_increment").flatMap { kilograms($0, at: DecodingPath(keyPath: "default_increment"), in: context) }
        var declaredIds: [String] = []
        let rules = document.list("rules") { node, path in
            AdaptationRuleDecoder.decode(node, at: path, in: context, scopes: [.loggedExercise], defaultScope: .loggedExercise, declaring: &declaredIds)
        }
        guard incrementsValid, let fallback, let rules else { return nil }
        return ProgressionRulesFile(rules: ProgressionRules(increments: increments, defaultIncrementKg: fallback, rules: rules), declaredIds: declaredIds)
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
