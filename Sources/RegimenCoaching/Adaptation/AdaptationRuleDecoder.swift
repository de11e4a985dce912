import RegimenLanguage
import RegimenRules
import Foundation

extension AdaptationRule.Scope: NodeEnum {}

/// Decoding of the rule entries shared by the readiness and progression files.
enum AdaptationRuleDecoder {
    /// The action keys, with the scopes each needs (`nil`: any scope).
    static let actionScopes: [String: Set<AdaptationRule.Scope>?] = [
        "sets": [.soreRegion, .loggedExercise], "suggest_regression": [.soreRegion], "weekly_sets_pct": nil, "rir_floor": nil,
        "kcal_pct": nil, "load_pct": [.loggedExercise], "lagging_set": [.loggedExercise], "otherwise_load_pct": [.loggedExercise], "otherwise_reps": [.loggedExercise],
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
            if let scopeNode = map.node("for_each") {
                guard let decoded = context.decode(scopeNode, among: scopes, at: map.path.appending(key: "for_each")) else {
                    // The rule's expressions read its scope's variables: without a scope they are
                    // not compiled (nor reported as unknown keys).
                    for key in map.keys { map.allow(key) }
                    return nil
                }
                scope = decoded
            }
            let environment = context.environment(declaring: scope.variables)
            let condition = map.requiredExpression("when", in: environment)
            let reason = map.requiredTemplate("reason", in: environment)
            let supersedes = map.optional("supersedes", default: [String]())
            let lasts = map.optional("lasts", default: AdjustmentLifetime.persistent)
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
                actions.otherwiseReps = then.optionalExpression("otherwise_reps", in: environment)
                actions.deload = then.optional("deload", default: false)
                actions.reps = then.optionalExpression("reps", in: environment)
                actions.harderVariant = then.optional("harder_variant", default: false)
                actions.note = then.optional("note", as: String.self)
                if !then.requireKey("sets", whenPresent: "suggest_regression", "'suggest_regression' needs 'sets' (the regression is named for exercises that lose sets)") {
                    valid = false
                }
                if !then.requireKey("lagging_set", whenPresent: "otherwise_load_pct", "'otherwise_load_pct' needs 'lagging_set'") {
                    valid = false
                }
                if !then.requireKey("lagging_set", whenPresent: "otherwise_reps", "'otherwise_reps' needs 'lagging_set'") {
                    valid = false
                }
                // Naming no action is a shape problem (the schema requires a key). An action whose
                // value is wrong has been reported already and is not "nothing" again; actions
                // that are all null or `false` name keys but change nothing: a rule between values
                // the schema leaves to the loader.
                let named = then.keys.filter { actionScopes[$0] != nil }
                if !then.requireSomething(named.isEmpty, "'then' changes nothing; give at least one action (\(actionScopes.keys.sorted().joined(separator: ", ")))") {
                    valid = false
                } else if !named.isEmpty, actions.isEmpty, named.allSatisfy({ then.node[$0].map(Self.isNullOrFalse) ?? true }) {
                    context.error("rules.no-effect", then.path.prefixed("'then' changes nothing: every action is null or false"), at: then.node.location)
                    valid = false
                }
                return valid ? actions : nil
            }
            guard let condition, let reason, let actions else { return nil }
            return AdaptationRule(id: id, scope: scope, condition: condition, actions: actions, reason: reason, supersedes: supersedes, lasts: lasts, location: idNode.location)
        }
    }

    /// A plain `null`, `~` or `false`: an action that does nothing.
    private static func isNullOrFalse(_ node: LocatedNode) -> Bool {
        guard node.tag == nil, let scalar = node.scalar else { return false }
        return scalar.plainType == .null || scalar.plainType == .bool(false)
    }

    static func checkSingleFile<K: RuleFileKind>(_ kind: K.Type, _ ruleSet: RuleSet, _ context: DecodingContext) {
        let files = ruleSet.files(of: kind)
        for extra in files.dropFirst() {
            context.error("rules.duplicate-file", "a second file of kind '\(K.kind)'; the first is \(files[0].path)", at: SourceLocation(file: extra.path, line: 1, column: 1))
        }
    }
}
