import Foundation
import RegimenLanguage
import RegimenCoaching
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
/// input can reach is still listed, as never covered) where each kind's ``RuleSection``s say.
///
/// Built only when coverage or provenance is asked for: plain planning never reads it.
package struct CoachingRuleInventory: Sendable {
    /// The rules in file order (files by path).
    package let rules: [CoachingRule]
    private let byId: [String: Int]
    /// Each table row's condition, compiled against its section's inputs, by section name: to
    /// tell which rows given inputs make hold.
    private let conditions: [String: [(id: String, condition: CompiledExpression)]]

    /// Reads every rule file under `sources.rules` and lists the entries of the sections its kind
    /// declares (``RuleFileKind/ruleSections``); files that do not parse, and kinds not in `kinds`,
    /// are left out (loading the engine has already reported them).
    init(sources: RuleSources, kinds: [any RuleFileKind.Type] = RegimenRuleKinds.all) {
        var sections: [String: [RuleSection]] = [:]
        for kind in kinds where sections[kind.kind] == nil { sections[kind.kind] = kind.ruleSections }
        var rules: [CoachingRule] = []
        var conditions: [String: [(id: String, condition: CompiledExpression)]] = [:]
        for url in Self.yamlFiles(under: sources.rules) {
            let display = sources.displayPath(for: url)
            guard let text = try? InputFile.read(url, displayPath: display),
                  let document = YAMLReader.read(text, file: display).document,
                  let kind = document["kind"]?.scalar?.text, let kindSections = sections[kind] else { continue }
            for section in kindSections {
                switch section.layout {
                case .table(let inputs):
                    let environment = try? ExpressionEnvironment(declaring: inputs)
                    for (index, row) in (document[section.key]?["rows"]?.sequence ?? []).enumerated() {
                        let when = row["when"]?.scalar?.text ?? "?"
                        let id = section.rowId(index)
                        rules.append(CoachingRule(id: id, category: section.category, location: row.location, summary: "when \(when)"))
                        if let environment, let condition = try? CompiledExpression(SourceText(when), environment: environment) {
                            conditions[section.name, default: []].append((id, condition))
                        }
                    }
                case .entries:
                    for pair in document[section.key]?.mapping ?? [] {
                        guard let name = pair.key.scalar?.text else { continue }
                        rules.append(CoachingRule(id: section.id(name), category: section.category, location: pair.key.location, summary: name))
                    }
                case .list(let idKey):
                    for item in document[section.key]?.sequence ?? [] {
                        guard let name = item[idKey]?.scalar?.text else { continue }
                        let when = item["when"]?.scalar?.text
                        rules.append(CoachingRule(
                            id: section.id(name), category: section.category, location: item.location,
                            summary: when.map { "\(name): when \($0)" } ?? name))
                    }
                }
            }
        }
        self.rules = rules
        var byId: [String: Int] = [:]
        for (index, rule) in rules.enumerated() where byId[rule.id] == nil { byId[rule.id] = index }
        self.byId = byId
        self.conditions = conditions
    }

    /// The rule named `id`, if the rules folder has one.
    package func rule(_ id: String) -> CoachingRule? { byId[id].map { rules[$0] } }

    /// The adaptation rule a change-log entry names (`sore_region`), in either adaptation file.
    func adaptationRule(_ id: String) -> CoachingRule? {
        rule(ReadinessRulesFile.rulesSection.id(id)) ?? rule(ProgressionRulesFile.rulesSection.id(id))
    }

    /// The ids of the rows of table `section` whose condition holds for `inputs` (its
    /// ``RuleSection/inputs`` by name), in file order.
    func rows(of section: RuleSection, holdingFor inputs: [String: Value]) -> [String] {
        (conditions[section.name] ?? []).compactMap { entry in
            guard case .bool(true)? = try? entry.condition.evaluate(inputs) else { return nil }
            return entry.id
        }
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
