import RegimenLanguage
import RegimenRules

extension TrainingRules.SplitChoice.Rule: NodeEnum {}

/// `kind: training_splits` — `rules/training-splits.yaml`: days per week → plan template.
public struct TrainingSplitsFile: RuleFileKind {
    public static let kind = "training_splits"
    public static var expressionScopes: [ExpressionScope] { [TrainingVariables.splitScope] }

    var maxTrainingDays: Int
    var maxTrainingDaysLocation: SourceLocation
    var recoveryTemplate: String
    var splitByDays: DecisionTable<TrainingRules.SplitChoice>

    public var ruleCount: Int { splitByDays.rows.count }

    public static func decode(_ document: inout MappingDecoder) -> TrainingSplitsFile? {
        let location = document.location(ofKey: "max_training_days") ?? document.node.location
        let maxDays = document.required("max_training_days", as: Int.self, in: 1...7)
        let recovery = document.required("recovery_template", as: String.self)
        let table = DecisionTable<TrainingRules.SplitChoice>.decode(
            "split_by_days", in: &document, named: "training_splits.split_by_days", inputs: [TrainingVariables.days]
        ) { row in
            let split = row.required("split", as: String.self)
            let options = row.optional("options", as: [String].self) ?? []
            let choose = row.optional("choose", as: TrainingRules.SplitChoice.Rule.self) ?? .first
            return split.map { TrainingRules.SplitChoice(defaultTemplate: $0, options: options, choose: choose) }
        }
        guard let maxDays, let recovery, let table else { return nil }
        return TrainingSplitsFile(maxTrainingDays: maxDays, maxTrainingDaysLocation: location, recoveryTemplate: recovery, splitByDays: table)
    }

    /// Resolves every training rule file together so `regimen check` reports cross-file problems.
    /// Runs only when the set holds training rule files: a check of other domains' files alone
    /// does not ask for them.
    public static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        let ruleKinds = Set(TrainingRules.ruleKinds.map { $0.kind })
        guard ruleSet.files.contains(where: { ruleKinds.contains($0.kind) }) else { return }
        _ = TrainingRulesResolver(ruleSet: ruleSet, context: context).resolve()
    }
}

/// `kind: plan_templates` — `catalogs/plan-templates.yaml`.
public struct PlanTemplatesFile: RuleFileKind {
    public static let kind = "plan_templates"

    var dayTypes: [TrainingRules.DayType]
    var templates: [TrainingRules.PlanTemplate]
    var locations: [String: SourceLocation]

    public var catalogEntryCount: Int { templates.count }

    public static func decode(_ document: inout MappingDecoder) -> PlanTemplatesFile? {
        let context = document.context
        var locations: [String: SourceLocation] = [:]
        var dayTypes: [TrainingRules.DayType] = []
        if let node = document.requiredNode("day_types"), let pairs = node.mapping {
            for pair in pairs {
                guard let id = pair.key.scalar?.text else { continue }
                locations["day:\(id)"] = pair.key.location
                let dayType = context.mapping(pair.value, at: DecodingPath(subject: "day type '\(id)'")) { map -> TrainingRules.DayType? in
                    let focus = map.required("focus", as: String.self)
                    let muscles = map.required("muscles", as: [String].self)
                    if muscles != nil, let items = map.node["muscles"]?.sequence {
                        // The list is the day's session order and each muscle takes its share of the
                        // week's sets once, so a repeat has no meaning: it is a slip in the file.
                        var firstListed: [String: SourceLocation] = [:]
                        for item in items {
                            guard let muscle = item.scalar?.text else { continue }
                            if let first = firstListed[muscle] {
                                context.error(
                                    "rules.duplicate-id", map.path.appending(key: "muscles").message("lists '\(muscle)' twice"),
                                    at: item.location, notes: ["first listed at \(first)"])
                            } else {
                                firstListed[muscle] = item.location
                            }
                        }
                    }
                    let recovery = map.optional("recovery", as: Bool.self) ?? false
                    func patternMap(_ key: String) -> [String: [String]] {
                        var patterns: [String: [String]] = [:]
                        guard let node = map.node(key) else { return patterns }
                        let path = map.path.appending(key: key)
                        if let pairs = node.mapping {
                            for pair in pairs {
                                guard let muscle = pair.key.scalar?.text,
                                      let list = context.decode(pair.value, as: [String].self, at: path.appending(key: muscle)) else { continue }
                                patterns[muscle] = list
                            }
                        } else {
                            context.wrongType(node, expected: "a mapping from muscle to patterns", at: path)
                        }
                        return patterns
                    }
                    let patterns = patternMap("prefer_patterns")
                    let roles = patternMap("roles")
                    guard let focus, let muscles else { return nil }
                    return TrainingRules.DayType(id: id, focus: focus, muscles: muscles, isRecovery: recovery, preferredPatterns: patterns, roles: roles)
                }
                if let dayType { dayTypes.append(dayType) }
            }
        } else if let node = document.node["day_types"] {
            context.wrongType(node, expected: "a mapping of day types", at: document.path.appending(key: "day_types"))
        }
        var ids: [(id: String, location: SourceLocation)] = []
        let templates: [TrainingRules.PlanTemplate]? = document.list("templates") { node, path in
            context.mapping(node, at: path) { map -> TrainingRules.PlanTemplate? in
                guard let id = map.required("id", as: String.self) else { return nil }
                map.path = map.path.about("template '\(id)'")
                ids.append((id, node.location))
                locations[id] = node.location
                let name = map.required("name", as: String.self)
                let profiles = map.required("equipment_profiles", as: [EquipmentName].self)
                let structure = map.required("weekly_structure", as: [String].self)
                guard let name, let profiles, let structure else { return nil }
                return TrainingRules.PlanTemplate(id: id, name: name, equipmentProfiles: profiles.map(\.value), weeklyStructure: structure)
            }
        }
        context.checkUnique(ids, what: "template")
        guard let templates else { return nil }
        return PlanTemplatesFile(dayTypes: dayTypes, templates: templates, locations: locations)
    }
}
