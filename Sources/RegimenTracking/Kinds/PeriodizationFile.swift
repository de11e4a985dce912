import RegimenLanguage
import RegimenRules
import OrderedCollections

/// `kind: periodization` — decodes `rules/periodization.yaml` into ``PeriodizationRules``.
struct PeriodizationFile: RuleFileKind {
    package static let kind = "periodization"
    package static var expressionScopes: [ExpressionScope] {
        [PeriodizationVariables.weeklyScope, PeriodizationVariables.deloadScope, PeriodizationVariables.effortScope, PeriodizationVariables.selectionScope]
    }
    /// Where the file is written: the entry its goals are noted under.
    let entry: SourceLocation
    /// Where each goal alias's goal is written.
    let aliasLocations: [String: SourceLocation]
    package let rules: PeriodizationRules

    /// Every goal of `goals` is a goal id of rules/goals.yaml (a misspelt one would leave that
    /// goal without its phase changes), an error at the goal with a suggestion.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        for file in ruleSet.all(PeriodizationFile.self) {
            let goals = file.rules.goals.keys.sorted()
            for (alias, target) in file.rules.goalAliases.sorted(by: { $0.key < $1.key }) where file.rules.goals[target] == nil {
                context.error("rules.unknown-reference", "'goal_aliases.\(alias)' must name a goal of 'goals'\(Suggestion.clause(for: target, among: goals))",
                              at: file.aliasLocations[alias] ?? file.entry)
            }
        }
        guard let known = ruleSet.vocabulary("goal") else { return }
        for file in ruleSet.all(PeriodizationFile.self) {
            for goal in file.rules.goals.keys.sorted() where !known.contains(goal) {
                context.error("rules.unknown-reference",
                              "periodization: goal '\(goal)' is not a goal id in rules/goals.yaml\(Suggestion.clause(for: goal, among: known.sorted()))",
                              at: context.location(of: goal, under: "goals", in: file.entry))
            }
        }
    }

    package var ruleCount: Int { rules.durations.count + rules.focus.count + rules.protocols.count + rules.effortLevels.count }

    package static func decode(_ document: inout MappingDecoder) -> PeriodizationFile? {
        let context = document.context
        var focus: [String: PeriodizationRules.Focus] = [:]
        _ = document.mapping("focus") { map -> Bool? in
            func decodeFocus(_ id: String, _ entry: inout MappingDecoder) -> PeriodizationRules.Focus? {
                entry.path = entry.path.about("focus '\(id)'")
                let intensity = entry.range("intensity")
                let rpe = entry.range("rpe")
                let purpose = entry.required("purpose", as: String.self)
                guard let intensity, let rpe, let purpose else { return nil }
                return PeriodizationRules.Focus(id: id, intensity: intensity, rpe: rpe, purpose: purpose)
            }
            // Deload weeks train the `deload` focus, so it is a required key (a wrong value in
            // it is reported as such, not as a missing focus).
            focus["deload"] = map.mapping("deload") { decodeFocus("deload", &$0) }
            for id in map.keys where id != "deload" {
                focus[id] = map.mapping(id) { decodeFocus(id, &$0) }
            }
            return true
        }
        let durations = document.list("phases_by_duration") { node, path in
            context.mapping(node, at: path) { row -> PeriodizationRules.DurationRow? in
                let weeks = row.requiredNode("weeks").flatMap { context.intRange($0, at: row.path.appending(key: "weeks")) }
                let phases = row.strings("phases")
                let shares = row.required("shares", as: [Int].self) ?? []
                for phase in phases where focus[phase] == nil {
                    context.error("rules.unknown-reference", row.path.message("names phase '\(phase)', which 'focus' does not define"), at: row.node["phases"]?.location)
                }
                if shares.count != phases.count || shares.contains(where: { $0 < 1 }) {
                    context.error("rules.bad-value", row.path.message("needs one positive share per phase"), at: row.node["shares"]?.location)
                }
                guard let weeks, !phases.isEmpty else { return nil }
                return PeriodizationRules.DurationRow(weeks: weeks, phases: phases, shares: shares)
            }
        } ?? []
        let sortedRows = durations.sorted { $0.weeks.lowerBound < $1.weeks.lowerBound }
        for (a, b) in zip(sortedRows, sortedRows.dropFirst()) where a.weeks.upperBound + 1 != b.weeks.lowerBound {
            let problem = a.weeks.upperBound >= b.weeks.lowerBound ? "overlap" : "leave a gap"
            context.error("periodization.duration-gap", "'phases_by_duration' rows \(a.weeks.lowerBound)-\(a.weeks.upperBound) and \(b.weeks.lowerBound)-\(b.weeks.upperBound) \(problem)",
                          at: document.node["phases_by_duration"]?.location)
        }
        var goals: [String: [String: String]] = [:]
        _ = document.mapping("goals") { map -> Bool? in
            for goal in map.keys {
                goals[goal] = map.mapping(goal) { entry -> [String: String]? in
                    entry.path = entry.path.about("goal '\(goal)'")
                    var replace: [String: String] = [:]
                    for (from, to) in entry.optional("replace", as: Value.self)?.mapValue ?? [:] {
                        guard let target = to.stringValue, focus[from] != nil, focus[target] != nil else {
                            context.error("rules.unknown-reference", entry.path.message("'replace' must map a focus to a focus, not \(from) → \(to)"),
                                          at: entry.node["replace"]?.location)
                            continue
                        }
                        replace[from] = target
                    }
                    return replace
                }
            }
            return true
        }
        var aliases: [String: String] = [:]
        var aliasLocations: [String: SourceLocation] = [:]
        let aliasNode = document.node["goal_aliases"]
        for (alias, target) in document.optional("goal_aliases", as: Value.self)?.mapValue ?? [:] {
            if let target = target.stringValue {
                // Checked against `goals` once the file is read (`validate`), so that a misspelt
                // goal is reported at itself as well as at the aliases naming its right spelling.
                aliases[alias] = target
                aliasLocations[alias] = aliasNode?[alias]?.location ?? aliasNode?.location
            } else {
                context.error("rules.unknown-reference", "'goal_aliases.\(alias)' must name a goal of 'goals'", at: aliasNode?[alias]?.location ?? aliasNode?.location)
            }
        }
        // The goals are rules/goals.yaml's ids (checked once every file is read, at each goal).
        context.noteWords(["goals"], of: document.node, entry: document.node.location)
        let weekly = document.formula("weekly_intensity", declaring: PeriodizationVariables.weeklyScope.variables)
        // Which weeks deload is the one deload clock's (`block_weeks` of rules/readiness-rules.yaml,
        // which adapt reads too); this file says only how hard a deload week trains.
        let deload = document.mapping("deload") { map -> Formula? in
            map.formula("intensity", declaring: PeriodizationVariables.deloadScope.variables)
        }
        let protocols = document.list("protocols") { node, path in
            context.mapping(node, at: path) { row -> PeriodizationRules.ProtocolRow? in
                let below = row.required("below", as: Double.self, in: 0...10)
                let compound = row.mapping("compound") { prescription(&$0) }
                let isolation = row.mapping("isolation") { prescription(&$0) }
                guard let below, let compound, let isolation else { return nil }
                return PeriodizationRules.ProtocolRow(below: below, compound: compound, isolation: isolation)
            }
        } ?? []
        var efforts: [PeriodizationRules.EffortLevel] = []
        _ = document.mapping("effort_levels") { map -> Bool? in
            for id in map.keys {
                if let level = map.mapping(id, { entry -> PeriodizationRules.EffortLevel? in
                    entry.path = entry.path.about("effort level '\(id)'")
                    let intensity = entry.range("intensity")
                    let rpe = entry.range("rpe")
                    let use = entry.required("use", as: String.self)
                    guard let intensity, let rpe, let use else { return nil }
                    return PeriodizationRules.EffortLevel(id: id, intensity: intensity, rpe: rpe, use: use)
                }) { efforts.append(level) }
            }
            return true
        }
        let effortIntensity = document.formula("effort_intensity", declaring: PeriodizationVariables.effortScope.variables)
        let selection = document.mapping("selection_ranking") { map -> SelectionRanking? in
            var factors: [String: Double] = [:]
            for name in map.keys where name != "score" {
                if let factor = map.required(name, as: Double.self, in: 0...10) { factors[name] = factor }
            }
            let variables = PeriodizationVariables.selectionVariables(factors: Array(factors.keys))
            guard let score = map.formula("score", declaring: variables) else { return nil }
            return SelectionRanking(factors: factors, score: score)
        }
        guard !context.hasErrors, let weekly, let deload, let selection, let effortIntensity, !protocols.isEmpty else { return nil }
        return PeriodizationFile(entry: document.node.location, aliasLocations: aliasLocations, rules: PeriodizationRules(
            durations: durations, focus: focus, goals: goals, goalAliases: aliases, weeklyIntensity: weekly,
            deloadIntensity: deload,
            protocols: protocols, effortLevels: efforts, effortIntensity: effortIntensity, selection: selection))
    }

    private static func prescription(_ map: inout MappingDecoder) -> PeriodizationRules.Prescription? {
        let sets = map.required("sets", as: Int.self, in: 1...20)
        let reps = map.required("reps", as: Int.self, in: 1...100)
        let load = map.required("load", as: String.self)
        guard let sets, let reps, let load else { return nil }
        return PeriodizationRules.Prescription(sets: sets, reps: reps, load: load)
    }
}
