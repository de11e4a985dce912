import OrderedCollections
import RegimenLanguage
import RegimenRules

extension AdaptationRule.Scope: NodeEnum {}

/// `kind: readiness_rules` — `rules/readiness.yaml`.
public struct ReadinessRulesFile: RuleFileKind {
    public static let kind = "readiness_rules"
    public static var expressionScopes: [ExpressionScope] {
        [AdaptationVariables.checkinScope, AdaptationVariables.dayScope, AdaptationVariables.weekScope, AdaptationVariables.soreRegionScope,
         AdaptationVariables.loggedExerciseScope, AdaptationVariables.laggingScope]
    }
    public let rules: ReadinessRules
    /// Every rule id written in the file, including rules with errors (so that a broken rule is
    /// not reported a second time by the rules that name it).
    let declaredIds: [String]

    public var ruleCount: Int { rules.rules.count }

    public static func decode(_ document: inout MappingDecoder) -> ReadinessRulesFile? {
        let context = document.context
        var lets: [NamedExpression] = []
        // A `let:` name is declared with the type its expression is known to have.
        var letVariables: [VariableDeclaration] = []
        var letsValid = true
        let checkinVariables = AdaptationVariables.checkinScope.variables
        let score = document.mapping("checkin_readiness") { map -> CompiledExpression? in
            if let letNode = map.node("let") {
                if let pairs = letNode.mapping {
                    for pair in pairs {
                        guard let name = pair.key.scalar?.text else { continue }
                        let path = map.path.appending(key: "let").appending(key: name)
                        let environment = context.environment(declaring: checkinVariables + letVariables)
                        if checkinVariables.contains(where: { $0.name == name }) || lets.contains(where: { $0.name == name }) {
                            context.error("rules.duplicate-id", path.message("is already defined"), at: pair.key.location)
                            letsValid = false
                        } else if let expression = context.compileExpression(pair.value, at: path, in: environment) {
                            lets.append(NamedExpression(name: name, expression: expression))
                            letVariables.append(VariableDeclaration(name, expression.inferredType, "let: of checkin_readiness"))
                        } else {
                            letsValid = false
                        }
                    }
                } else {
                    context.wrongType(letNode, expected: "a mapping of names to expressions", at: map.path.appending(key: "let"))
                    letsValid = false
                }
            }
            guard let score = map.requiredExpression("score", in: context.environment(declaring: checkinVariables + letVariables)) else { return nil }
            // low_day and high_day compare the score as a number; a score known to be something
            // else could never be compared.
            let type = score.inferredType
            if type.base != .any, type.base != .int, type.base != .float, type.base != .number {
                context.error("rules.wrong-type", map.path.appending(key: "score").message("must give a number, not \(type)"), at: map.node("score")?.location)
                return nil
            }
            return score
        }
        let dayEnvironment = context.environment(declaring: AdaptationVariables.dayScope.variables)
        let lowDay = document.requiredExpression("low_day", in: dayEnvironment)
        let highDay = document.requiredExpression("high_day", in: dayEnvironment)
        let regions = document.required("regions", as: OrderedDictionary<String, [String]>.self)
        let lagging = document.requiredExpression("lagging", in: context.environment(declaring: AdaptationVariables.laggingScope.variables))
        let minSets = document.required("min_sets_per_block", as: Int.self, in: 0...20)
        let blockWeeks = document.required("block_weeks", as: Int.self, in: 1...52)
        let weekEnvironment = context.environment(declaring: AdaptationVariables.weekScope.variables)
        let macros = document.mapping("macros") { map -> ReadinessRules.MacroRule? in
            let protein = map.required("protein_kcal_per_g", as: Double.self, in: 0.1...20)
            let carb = map.required("carb_kcal_per_g", as: Double.self, in: 0.1...20)
            let fat = map.required("fat_kcal_per_g", as: Double.self, in: 0.1...20)
            let floor = map.requiredExpression("kcal_floor", in: weekEnvironment)
            guard let protein, let carb, let fat, let floor else { return nil }
            return ReadinessRules.MacroRule(proteinKcalPerGram: protein, carbKcalPerGram: carb, fatKcalPerGram: fat, kcalFloor: floor)
        }
        var declaredIds: [String] = []
        let rules = document.list("rules") { node, path in
            AdaptationRuleDecoder.decode(node, at: path, in: context, scopes: AdaptationRule.Scope.allCases, defaultScope: .week, declaring: &declaredIds)
        }
        guard let score, letsValid, let lowDay, let highDay, let regions, let lagging, let minSets, let blockWeeks, let macros, let rules else { return nil }
        return ReadinessRulesFile(rules: ReadinessRules(
            readinessLets: lets, readinessScore: score, lowDay: lowDay, highDay: highDay,
            regions: regions.map { ($0.key, $0.value) }, lagging: lagging, minSetsPerBlock: minSets, blockWeeks: blockWeeks, macros: macros, rules: rules),
            declaredIds: declaredIds)
    }

    /// Rule ids are unique across the readiness and progression files, and `supersedes` names
    /// rules that exist.
    public static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        AdaptationRuleDecoder.checkSingleFile(ReadinessRulesFile.self, ruleSet, context)
        AdaptationRuleDecoder.checkSingleFile(ProgressionRulesFile.self, ruleSet, context)
        let all = ruleSet.all(ReadinessRulesFile.self).flatMap(\.rules.rules) + ruleSet.all(ProgressionRulesFile.self).flatMap(\.rules.rules)
        context.checkUnique(all.compactMap { rule in rule.location.map { (rule.id, $0) } }, what: "adaptation rule")
        let known = Set(ruleSet.all(ReadinessRulesFile.self).flatMap(\.declaredIds) + ruleSet.all(ProgressionRulesFile.self).flatMap(\.declaredIds))
        for rule in all {
            guard let location = rule.location else { continue }
            for other in rule.supersedes {
                context.checkReference(other, at: location, path: DecodingPath(subject: "rule '\(rule.id)'", keyPath: "supersedes"),
                                       what: "rule", known: known)
            }
        }
    }
}

/// `kind: progression_rules` — `rules/progression.yaml`.
public struct ProgressionRulesFile: RuleFileKind {
    public static let kind = "progression_rules"
    public static var expressionScopes: [ExpressionScope] { [AdaptationVariables.weekScope, AdaptationVariables.loggedExerciseScope] }
    public let rules: ProgressionRules
    /// Every rule id written in the file, including rules with errors.
    let declaredIds: [String]

    public var ruleCount: Int { rules.rules.count }

    public static func decode(_ document: inout MappingDecoder) -> ProgressionRulesFile? {
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

/// Decoding of the rule entries shared by the readiness and progression files.
enum AdaptationRuleDecoder {
    /// The action keys, with the scopes each needs (`nil`: any scope).
    static let actionScopes: [String: Set<AdaptationRule.Scope>?] = [
        "sets": [.soreRegion, .loggedExercise], "suggest_regression": [.soreRegion], "weekly_sets_pct": nil, "rir_floor": nil,
        "kcal_pct": nil, "load_pct": [.loggedExercise], "lagging_set": [.loggedExercise], "otherwise_load_pct": [.loggedExercise],
        "deload": nil, "note": nil, "reps": [.loggedExercise], "harder_variant": [.loggedExercise],
    ]

    static func decode(
        _ node: LocatedNode, at path: DecodingPath, in context: DecodingContext, scopes: [AdaptationRule.Scope], defaultScope: AdaptationRule.Scope,
        declaring declaredIds: inout [String]
    ) -> AdaptationRule? {
        context.mapping(node, at: path) { map -> AdaptationRule? in
            guard let idNode = map.requiredNode("id"), let id = context.decode(idNode, as: String.self, at: path.appending(key: "id")) else {
                for key in map.keys { map.allow(key) }
                return nil
            }
            declaredIds.append(id)
            map.path = DecodingPath(subject: "rule '\(id)'")
            map.allow("description")
            var scope = defaultScope
            if let scopeNode = map.node("for_each"), let decoded = context.decode(scopeNode, as: AdaptationRule.Scope.self, at: map.path.appending(key: "for_each")) {
                if scopes.contains(decoded) {
                    scope = decoded
                } else {
                    context.error("rules.unknown-value", map.path.message("'for_each' must be \(scopes.map { "'\($0.rawValue)'" }.joined(separator: " or ")) in this file, not '\(decoded.rawValue)'"), at: scopeNode.location)
                    return nil
                }
            }
            let environment = context.environment(declaring: scope.variables)
            let condition = map.requiredExpression("when", in: environment)
            let reason = map.requiredTemplate("reason", in: environment)
            let supersedes = map.optional("supersedes", default: [String]())
            let actions = map.mapping("then") { then -> AdaptationRule.Actions? in
                var actions = AdaptationRule.Actions()
                var valid = true
                for key in then.keys {
                    guard let needed = actionScopes[key] else { continue }
                    if let needed, !needed.contains(scope) {
                        context.error("rules.scope", then.path.appending(key: key).message("needs for_each: \(needed.map(\.rawValue).sorted().joined(separator: " or ")), the rule is checked per \(scope.rawValue.replacingOccurrences(of: "_", with: " "))"), at: then.location(ofKey: key))
                        valid = false
                    }
                }
                actions.sets = then.optionalExpression("sets", in: environment)
                actions.suggestRegression = then.optional("suggest_regression", default: false)
                actions.weeklySetsPercent = then.optionalExpression("weekly_sets_pct", in: environment)
                actions.rirFloor = then.optionalExpression("rir_floor", in: environment)
                actions.kcalPercent = then.optionalExpression("kcal_pct", in: environment)
                actions.loadPercent = then.optionalExpression("load_pct", in: environment)
                actions.laggingSet = then.optionalExpression("lagging_set", in: environment)
                actions.otherwiseLoadPercent = then.optionalExpression("otherwise_load_pct", in: environment)
                actions.deload = then.optional("deload", default: false)
                actions.reps = then.optionalExpression("reps", in: environment)
                actions.harderVariant = then.optional("harder_variant", default: false)
                actions.note = then.optional("note", as: String.self)
                if actions.suggestRegression && actions.sets == nil {
                    context.error("rules.missing-key", then.path.prefixed("'suggest_regression' needs 'sets' (the regression is named for exercises that lose sets)"), at: then.location(ofKey: "suggest_regression"))
                    valid = false
                }
                if actions.otherwiseLoadPercent != nil && actions.laggingSet == nil {
                    context.error("rules.missing-key", then.path.prefixed("'otherwise_load_pct' needs 'lagging_set'"), at: then.location(ofKey: "otherwise_load_pct"))
                    valid = false
                }
                if actions.isEmpty {
                    context.error("rules.missing-key", then.path.prefixed("'then' changes nothing; give at least one action (\(actionScopes.keys.sorted().joined(separator: ", ")))"), at: then.node.location)
                    valid = false
                }
                return valid ? actions : nil
            }
            guard let condition, let reason, let actions else { return nil }
            return AdaptationRule(id: id, scope: scope, condition: condition, actions: actions, reason: reason, supersedes: supersedes, location: idNode.location)
        }
    }

    static func checkSingleFile<K: RuleFileKind>(_ kind: K.Type, _ ruleSet: RuleSet, _ context: DecodingContext) {
        let files = ruleSet.files(of: kind)
        for extra in files.dropFirst() {
            context.error("rules.duplicate-file", "a second file of kind '\(K.kind)'; the first is \(files[0].path)", at: SourceLocation(file: extra.path, line: 1, column: 1))
        }
    }
}
