import OrderedCollections
import RegimenLanguage
package import RegimenRules

/// `kind: supplement_rules` — `rules/supplement-rules.yaml`.
package struct SupplementRulesFile: RuleFileKind {
    package static let kind = "supplement_rules"
    /// `cautions`: one supplement caution per entry, for coverage and explanations.
    package static let cautionsSection = RuleSection(Self.self, .list(idKey: "id"), key: "cautions", category: "supplement caution")
    package static var ruleSections: [RuleSection] { [cautionsSection] }
    package static var expressionScopes: [ExpressionScope] { [SupplementVariables.factsScope, SupplementVariables.cautionsScope] }
    let rules: SupplementRules
    /// Where each caution's id is written.
    let locations: [String: SourceLocation]
    /// Where each of `advisor.always_include_goals` is written.
    let goalLocations: [SourceLocation]

    package var ruleCount: Int { rules.cautions.count }

    /// `medication class`: the classes of `medication_classes`, which catalog items' interactions
    /// and expressions (`'anticoagulant' in medication_classes`) name.
    package static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>] {
        let classes = ruleSet.all(SupplementRulesFile.self).flatMap { $0.rules.medicationClasses.keys }
        return classes.isEmpty ? [:] : [SchemaVocabulary.medicationClass: Set(classes)]
    }

    package static func decode(_ document: inout MappingDecoder) -> SupplementRulesFile? {
        let context = document.context
        var goalLocations: [SourceLocation] = []
        let advisor = document.mapping("advisor") { map -> (Supplement.EvidenceTier, [String], Supplement.EvidenceTier?)? in
            let tier = map.required("shortlist_min_tier", as: Supplement.EvidenceTier.self)
            let goals = map.required("always_include_goals", as: [String].self)
            map.vocabulary("always_include_goals", SchemaVocabulary.supplementGoal)
            let optional = map.optional("optional_tier", as: Supplement.EvidenceTier.self)
            goalLocations = map.node("always_include_goals")?.sequence?.map(\.location) ?? []
            guard let tier, let goals else { return nil }
            return (tier, goals, optional)
        }

        // Facts: each may read the built-in names and the facts before it, never the item.
        var facts: [SupplementRules.Fact] = []
        // Names of every fact written, including broken ones, so that their users are not
        // reported a second time.
        var factNames: [String] = []
        // Each fact is declared with the type its expression is known to have (`any` when broken).
        var factVariables: [VariableDeclaration] = []
        var factsValid = true
        if let factsNode = document.requiredNode("facts") {
            if context.describe(.dictionary(.expression), for: factsNode) {
                // Describing: names, each bound to an expression (a list there is the loader's
                // wrong-type error, so the schema says it too).
            } else if let pairs = factsNode.mapping {
                for pair in pairs {
                    guard let name = pair.key.scalar?.text else { continue }
                    let path = DecodingPath(subject: "fact '\(name)'")
                    if SupplementRules.builtinVariables.contains(where: { $0.name == name }) || factNames.contains(name) {
                        context.error("rules.duplicate-id", path.prefixed("the name is already taken"), at: pair.key.location)
                        factsValid = false
                        continue
                    }
                    let environment = context.environment(declaring: SupplementRules.builtinVariables + factVariables)
                    factNames.append(name)
                    guard let expression = context.compileExpression(pair.value, at: path, in: environment, defining: name) else {
                        factVariables.append(VariableDeclaration(name, .any, "a fact of facts: (does not compile)"))
                        factsValid = false
                        continue
                    }
                    factVariables.append(VariableDeclaration(name, expression.inferredType, "a fact of facts:"))
                    let itemNames = expression.referencedVariables.filter { SupplementRules.itemVariables.contains($0) }
                    if !itemNames.isEmpty {
                        context.error("rules.scope", path.prefixed("a fact is about the person and cannot read \(itemNames.map { "'\($0)'" }.joined(separator: ", "))"), at: pair.value.location)
                        factsValid = false
                        continue
                    }
                    facts.append(.init(name: name, expression: expression))
                }
            } else {
                context.wrongType(factsNode, expected: "a mapping of names to expressions", at: DecodingPath(keyPath: "facts"))
                factsValid = false
            }
        }

        let medicationClasses = document.required("medication_classes", as: OrderedDictionary<String, [String]>.self)
        for (classId, names) in medicationClasses ?? [:] {
            for name in names where SupplementRules.normalizedMedication(name) != name {
                context.error("rules.invalid-name", "medication class '\(classId)': write '\(name)' as '\(SupplementRules.normalizedMedication(name))' (lower case, '_' for spaces)",
                              at: document.node("medication_classes")?[classId]?.location)
            }
        }

        let environment = context.environment(declaring: SupplementRules.builtinVariables + factVariables)
        var locations: [String: SourceLocation] = [:]
        var ids: [(id: String, location: SourceLocation)] = []
        let cautions = document.list("cautions") { node, path in
            context.mapping(node, at: path) { map -> SupplementRules.Caution? in
                guard let idNode = map.requiredNode("id"), let id = context.decode(idNode, as: String.self, at: path.appending(key: "id")) else {
                    for key in map.keys { map.allow(key) }
                    return nil
                }
                map.path = DecodingPath(subject: "caution '\(id)'")
                ids.append((id, idNode.location))
                locations[id] = idNode.location
                let condition = map.requiredExpression("when", in: environment)
                let actionName = map.required("action", as: ActionName.self)?.rawValue
                let message = map.requiredTemplate("message", in: environment)
                // `daily_cap` and `already_taken` belong to `action: limit` alone; they are read
                // whatever the action (so a wrong action does not report them as unknown too).
                let cap = map.optionalExpression("daily_cap", in: environment)
                let taken = map.optionalExpression("already_taken", in: environment)
                var action: SupplementRules.Action?
                switch actionName {
                case "exclude", "caution":
                    action = actionName == "exclude" ? .exclude : .caution
                    for key in ["daily_cap", "already_taken"] where map.contains(key) {
                        context.error("rules.unknown-key", map.path.prefixed("'\(key)' belongs to action 'limit', not '\(actionName ?? "")'"), at: map.location(ofKey: key))
                    }
                case "limit":
                    for key in ["daily_cap", "already_taken"] where !map.contains(key) {
                        context.error("rules.missing-key", map.path.prefixed("missing required key '\(key)' (action 'limit' needs it)"), at: map.node.location)
                    }
                    if let cap, let taken { action = .limit(dailyCap: cap, alreadyTaken: taken) }
                default:
                    break
                }
                guard let condition, let action, let message else { return nil }
                return SupplementRules.Caution(id: id, condition: condition, action: action, message: message)
            }
        }
        context.checkUnique(ids, what: "caution")
        guard let advisor, let medicationClasses, let cautions, factsValid else { return nil }
        let rules = SupplementRules(shortlistMinTier: advisor.0, alwaysIncludeGoals: advisor.1, optionalTier: advisor.2, facts: facts,
                                    medicationClasses: medicationClasses, cautions: cautions, environment: environment)
        return SupplementRulesFile(rules: rules, locations: locations, goalLocations: goalLocations)
    }

    /// `always_include_goals` must be goals of the catalog.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        guard let file = ruleSet.first(SupplementRulesFile.self), let catalog = ruleSet.first(SupplementCatalogFile.self) else { return }
        for (goal, location) in zip(file.rules.alwaysIncludeGoals, file.goalLocations) {
            context.checkReference(goal, at: location,
                                   path: DecodingPath(keyPath: "advisor.always_include_goals"), what: "goal (the supplement catalog's 'goals')", known: Set(catalog.catalog.goals),
                                   diagnostic: SchemaVocabulary.unknownWord)
        }
    }
}

/// What a caution does, as `action:` spells it; the schema lists the same words.
private enum ActionName: String, NodeEnum { case exclude, caution, limit }
