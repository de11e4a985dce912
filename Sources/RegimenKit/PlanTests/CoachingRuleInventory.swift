import Foundation
import RegimenLanguage
import RegimenRules

/// One coaching rule a coach can point at: a row of a decision table, a named entry of a rule
/// file (an injury cut, a diet exclusion, a supplement caution, an auto-adjust row) or an
/// adaptation rule. Plan-test coverage counts which of these the cases reached.
package struct CoachingRule: Sendable, Hashable {
    /// The rule's stable name, the one the plan's explanations use (`training_volume.bands.rows[1]`,
    /// `supplement_rules.cautions.total_caffeine`).
    package var id: String
    /// What kind of rule it is, in a coach's words (`band row`, `supplement caution`).
    package var category: String
    /// Where the rule is written.
    package var location: SourceLocation
    /// The rule in a few words (its `when:` or its key).
    var summary: String
}

/// Every coaching rule of a rules folder, found by reading the rule files' YAML (so a rule that no
/// input can reach is still listed, as never covered).
///
/// Built only when coverage or provenance is asked for: plain planning never reads it.
package struct CoachingRuleInventory: Sendable {
    /// The rules in file order (files by path).
    package let rules: [CoachingRule]
    private let byId: [String: Int]
    /// `training_selection.levels` rows, compiled, to tell which one an experience makes hold.
    private let levelConditions: [(id: String, condition: CompiledExpression)]

    /// Where each kind's rules are, and how they are named.
    private enum Shape {
        /// `key: {rows: [{when: …}]}`, named `kind.key.rows[n]` (zero-based, ``RowAddress``) as the planner's explanations name them.
        case table(key: String, category: String)
        /// `key: {name: …}`, named `kind.key.name`.
        case entries(key: String, category: String)
        /// `key: [{id: …}]` (or `field:`), named `kind.key.id`.
        case list(key: String, idKey: String, category: String)
    }

    private static let shapes: [String: [Shape]] = [
        "training_splits": [.table(key: "split_by_days", category: "split row")],
        "training_volume": [.table(key: "bands", category: "band row")],
        "training_goals": [.table(key: "modifiers", category: "goal modifier")],
        "training_session_limits": [.table(key: "limits", category: "session limit row"), .table(key: "rest", category: "rest row")],
        "training_selection": [
            .table(key: "levels", category: "selection rule"), .entries(key: "equipment_profiles", category: "equipment profile"),
            .entries(key: "injury_set_cuts", category: "injury cut"),
        ],
        "nutrition": [.entries(key: "calories", category: "goal calories")],
        "dietary_exclusions": [.entries(key: "exclusions", category: "diet exclusion")],
        "supplement_rules": [.list(key: "cautions", idKey: "id", category: "supplement caution")],
        "readiness_rules": [.list(key: "rules", idKey: "id", category: "readiness rule")],
        "progression_rules": [.list(key: "rules", idKey: "id", category: "progression rule")],
        "auto_adjust_matrix": [.list(key: "matrix", idKey: "field", category: "auto-adjust row")],
    ]

    /// Reads every rule file under `sources.rules`; files that do not parse are left out (loading
    /// the engine has already reported them).
    init(sources: RuleSources) {
        var rules: [CoachingRule] = []
        var levels: [(String, CompiledExpression)] = []
        for url in Self.yamlFiles(under: sources.rules) {
            let display = sources.displayPath(for: url)
            guard let text = try? InputFile.read(url, displayPath: display),
                  let document = YAMLReader.read(text, file: display).document,
                  let kind = document["kind"]?.scalar?.text, let shapes = Self.shapes[kind] else { continue }
            for shape in shapes {
                switch shape {
                case .table(let key, let category):
                    for (index, row) in (document[key]?["rows"]?.sequence ?? []).enumerated() {
                        let when = row["when"]?.scalar?.text ?? "?"
                        let id = RowAddress.of(table: "\(kind).\(key)", index: index)
                        rules.append(CoachingRule(id: id, category: category, location: row.location, summary: "when \(when)"))
                        if kind == "training_selection", key == "levels", let condition = Self.experienceCondition(when) {
                            levels.append((id, condition))
                        }
                    }
                case .entries(let key, let category):
                    for pair in document[key]?.mapping ?? [] {
                        guard let name = pair.key.scalar?.text else { continue }
                        rules.append(CoachingRule(id: "\(kind).\(key).\(name)", category: category, location: pair.key.location, summary: name))
                    }
                case .list(let key, let idKey, let category):
                    for item in document[key]?.sequence ?? [] {
                        guard let name = item[idKey]?.scalar?.text else { continue }
                        let when = item["when"]?.scalar?.text
                        rules.append(CoachingRule(
                            id: "\(kind).\(key).\(name)", category: category, location: item.location,
                            summary: when.map { "\(name): when \($0)" } ?? name))
                    }
                }
            }
        }
        self.rules = rules
        var byId: [String: Int] = [:]
        for (index, rule) in rules.enumerated() where byId[rule.id] == nil { byId[rule.id] = index }
        self.byId = byId
        levelConditions = levels
    }

    /// The rule named `id`, if the rules folder has one.
    package func rule(_ id: String) -> CoachingRule? { byId[id].map { rules[$0] } }

    /// The adaptation rule a change-log entry names (`sore_region`), in either adaptation file.
    func adaptationRule(_ id: String) -> CoachingRule? {
        rule("readiness_rules.rules.\(id)") ?? rule("progression_rules.rules.\(id)")
    }

    /// The `training_selection.levels` rows whose condition holds for `experience`.
    func levelRules(experience: String) -> [String] {
        levelConditions.compactMap { entry in
            guard case .bool(true)? = try? entry.condition.evaluate(["experience": .string(experience)]) else { return nil }
            return entry.id
        }
    }

    private static func experienceCondition(_ text: String) -> CompiledExpression? {
        guard let environment = try? ExpressionEnvironment(declaring: [VariableDeclaration("experience", ExpressionType(.string), "the experience")]) else { return nil }
        return try? CompiledExpression(SourceText(text), environment: environment)
    }

    private static func yamlFiles(under directory: URL?) -> [URL] {
        guard let directory, let enumerator = FileManager.default.enumerator(
            at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where ["yaml", "yml"].contains(url.pathExtension) {
            files.append(url.standardizedFileURL)
        }
        return files.sorted { $0.path < $1.path }
    }
}
