import OrderedCollections
import RegimenLanguage
package import RegimenRules

/// `kind: readiness_rules` — `rules/readiness-rules.yaml`.
package struct ReadinessRulesFile: RuleFileKind {
    package static let kind = "readiness_rules"
    /// `rules`: one readiness rule per entry, for coverage and explanations.
    package static let rulesSection = RuleSection(Self.self, .list(idKey: "id"), key: "rules", category: "readiness rule")
    package static var ruleSections: [RuleSection] { [rulesSection] }
    package static var expressionScopes: [ExpressionScope] {
        [AdaptationVariables.checkinScope, AdaptationVariables.dayScope, AdaptationVariables.weekScope, AdaptationVariables.soreRegionScope,
         AdaptationVariables.loggedExerciseScope, AdaptationVariables.laggingScope]
    }
    package let rules: ReadinessRules
    /// Every rule id written in the file, including rules with errors (so that a broken rule is
    /// not reported a second time by the rules that name it).
    let declaredIds: [String]
    /// Where the file is written: the entry the regions' muscles are noted under.
    var entry: SourceLocation?

    package var ruleCount: Int { rules.rules.count }

    package static func decode(_ document: inout MappingDecoder) -> ReadinessRulesFile? {
        let context = document.context
        var lets: [NamedExpression] = []
        // A `let:` name is declared with the type its expression is known to have.
        var letVariables: [VariableDeclaration] = []
        var letsValid = true
        let checkinVariables = AdaptationVariables.checkinScope.variables
        let score = document.mapping("checkin_readiness") { map -> CompiledExpression? in
            if let letNode = map.node("let") {
                if context.describe(.dictionary(.expression), for: letNode) {
                    // Describing: names, each bound to an expression.
                } else if let pairs = letNode.mapping {
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
            let compiled = map.requiredExpression("score", in: context.environment(declaring: checkinVariables + letVariables))
            map.note("score", "It must compute a number (low_day and high_day compare it): what an expression computes is checked by the loader alone.")
            guard let score = compiled else { return nil }
            // low_day and high_day compare the score as a number; a score known to be something
            // else could never be compared. What an expression computes is no part of the file's
            // shape (a word of the rules language, not a YAML type), hence its own id.
            let type = score.inferredType
            if type.base != .any, type.base != .int, type.base != .float, type.base != .number {
                context.error("rules.expression-type", map.path.appending(key: "score").message("must give a number, not \(type)"), at: map.node("score")?.location)
                return nil
            }
            return score
        }
        let dayEnvironment = context.environment(declaring: AdaptationVariables.dayScope.variables)
        let lowDay = document.requiredExpression("low_day", in: dayEnvironment)
        let highDay = document.requiredExpression("high_day", in: dayEnvironment)
        let regions = document.required("regions", as: OrderedDictionary<String, [String]>.self)
        document.vocabulary("regions", SchemaVocabulary.muscle)
        if let regionsNode = document.node("regions") {
            context.noteWords((regionsNode.mapping ?? []).compactMap { $0.key.scalar?.text }, of: regionsNode, entry: document.node.location)
        }
        let lagging = document.requiredExpression("lagging", in: context.environment(declaring: AdaptationVariables.laggingScope.variables))
        let minSets = document.required("min_sets_per_block", as: Int.self, in: 0...20)
        let blockWeeks = document.required("block_weeks", as: Int.self, in: 1...52)
        let weekEnvironment = context.environment(declaring: AdaptationVariables.weekScope.variables)
        let macros = document.mapping("macros") { map -> ReadinessRules.MacroRule? in
            let protein = map.required("protein_kcal_per_g", as: Double.self, in: 0.1...20)
            let carb = map.required("carb_kcal_per_g", as: Double.self, in: 0.1...20)
            let fat = map.required("fat_kcal_per_g", as: Double.self, in: 0.1...20)
            guard let protein, let carb, let fat else { return nil }
            return ReadinessRules.MacroRule(proteinKcalPerGram: protein, carbKcalPerGram: carb, fatKcalPerGram: fat)
        }
        let adjustments = document.mapping("adjustments") { map -> AdjustmentPolicy? in
            let recovered = map.requiredExpression("recovered", in: weekEnvironment)
            let keep = map.required("keep_weeks", as: Int.self, in: 1...104)
            guard let recovered, let keep else { return nil }
            return AdjustmentPolicy(recovered: recovered, keepWeeks: keep)
        }
        let trend = document.mapping("weight_trend") { map -> WeightTrendRule? in
            let window = map.required("window_days", as: Int.self, in: 7...90)
            let count = map.required("min_weigh_ins", as: Int.self, in: 2...90)
            let span = map.required("min_span_days", as: Int.self, in: 1...90)
            let targets = map.mapping("target_pct_per_week") { goals -> [String: ClosedRange<Double>]? in
                var out: [String: ClosedRange<Double>] = [:]
                var valid = true
                for goal in goals.keys {
                    let range = goals.mapping(goal) { entry -> ClosedRange<Double>? in
                        let low = entry.required("min", as: Double.self, in: -5...5)
                        let high = entry.required("max", as: Double.self, in: -5...5)
                        guard let low, let high else { return nil }
                        guard low <= high else {
                            context.error("rules.out-of-range", entry.path.message("min \(low) is above max \(high)"), at: entry.node.location)
                            return nil
                        }
                        return low...high
                    }
                    if let range { out[goal] = range } else { valid = false }
                }
                return valid ? out : nil
            }
            guard let window, let count, let span, let targets else { return nil }
            return WeightTrendRule(windowDays: window, minWeighIns: count, minSpanDays: span, targetPercentPerWeek: targets)
        }
        let band = document.mapping("calorie_band") { map -> CalorieBandAdvice? in
            let floor = map.required("at_floor", as: String.self)
            let ceiling = map.required("at_ceiling", as: String.self)
            let pregnancy = map.optional("in_pregnancy", as: String.self)
            guard let floor, let ceiling else { return nil }
            return CalorieBandAdvice(atFloor: floor, atCeiling: ceiling, inPregnancy: pregnancy)
        }
        var declaredIds: [String] = []
        let rules = document.list("rules") { node, path in
            AdaptationRuleDecoder.decode(node, at: path, in: context, scopes: AdaptationRule.Scope.allCases, defaultScope: .week, declaring: &declaredIds)
        }
        guard let score, letsValid, let lowDay, let highDay, let regions, let lagging, let minSets, let blockWeeks, let macros, let rules,
              let adjustments, let trend, let band else { return nil }
        return ReadinessRulesFile(rules: ReadinessRules(
            readinessLets: lets, readinessScore: score, lowDay: lowDay, highDay: highDay,
            regions: regions.map { ($0.key, $0.value) }, lagging: lagging, minSetsPerBlock: minSets, blockWeeks: blockWeeks, macros: macros, rules: rules,
            adjustments: adjustments, weightTrend: trend, calorieBand: band),
            declaredIds: declaredIds, entry: document.node.location)
    }

    /// Rule ids are unique across the readiness and progression files, and `supersedes` names
    /// rules that exist.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        // A region covers tracked muscles: a misspelt one would make the region cover nothing.
        if let tracked = ruleSet.all(TrainingVolumeFile.self).first.map({ Set($0.trackedMuscles) }) {
            for file in ruleSet.all(ReadinessRulesFile.self) {
                for (region, muscles) in file.rules.regions {
                    for muscle in muscles where !tracked.contains(muscle) {
                        context.error(SchemaVocabulary.unknownWord,
                                      "regions.\(region): muscle '\(muscle)' is not in training_volume.tracked_muscles\(Suggestion.clause(for: muscle, among: tracked.sorted()))",
                                      at: context.location(of: muscle, under: region, in: file.entry))
                    }
                }
            }
        }
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
