import RegimenLanguage
package import RegimenRules

/// `rules/goals.yaml`: canonical goal names, their aliases and the default goal.
package struct GoalsFile: RuleFileKind, Sendable {
    package static let kind = "goals"

    package struct Goal: Sendable, Hashable {
        package var id: String
        package var description: String
        var aliases: [String]
    }

    var defaultGoal: String
    package var goals: [Goal]

    /// `goal`: the canonical goal ids, which expressions compare `goal` with.
    package static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>] {
        let ids = ruleSet.all(GoalsFile.self).flatMap { $0.goals.map(\.id) }
        return ids.isEmpty ? [:] : ["goal": Set(ids)]
    }

    /// The canonical id for `name` (an id or an alias, compared case-insensitively), or `nil`.
    func canonical(_ name: String) -> String? {
        let key = name.lowercased()
        for goal in goals where goal.id == key || goal.aliases.contains(key) { return goal.id }
        return nil
    }

    /// Every accepted spelling, canonical ids first.
    var acceptedNames: [String] { goals.map(\.id) + goals.flatMap(\.aliases) }

    package static func decode(_ document: inout MappingDecoder) -> GoalsFile? {
        let context = document.context
        let defaultGoal = document.required("default", as: String.self)
        let defaultLocation = document.node("default")?.location
        let goals = document.list("goals") { node, path in
            context.mapping(node, at: path) { map -> Goal? in
                // Every key is read even without `id`, so a missing one is a single error.
                let id = map.required("id", as: String.self)
                if let id { map.path = map.path.about("goal '\(id)'") }
                let description = map.required("description", as: String.self) ?? ""
                let aliases = map.optional("aliases", as: [String].self) ?? []
                guard let id else { return nil }
                return Goal(id: id, description: description, aliases: aliases.map { $0.lowercased() })
            }
        } ?? []
        var names: [(id: String, location: SourceLocation)] = []
        for (index, goal) in goals.enumerated() {
            let location = document.node("goals")?.sequence?[index].location ?? SourceLocation(file: "", line: 0, column: 0)
            names.append((goal.id, location))
            for alias in goal.aliases { names.append((alias, location)) }
        }
        context.checkUnique(names, what: "goal name or alias")
        guard let defaultGoal else { return nil }
        guard goals.contains(where: { $0.id == defaultGoal }) else {
            context.error("rules.reference", "goals: default '\(defaultGoal)' is not a goal id (\(goals.map(\.id).joined(separator: ", ")))", at: defaultLocation)
            return nil
        }
        return GoalsFile(defaultGoal: defaultGoal, goals: goals)
    }

    package var ruleCount: Int { goals.count }
}
