import RegimenLanguage
import RegimenRules

/// `kind: plan_templates` — `catalogs/plan-templates.yaml`.
package struct PlanTemplatesFile: RuleFileKind {
    package static let kind = "plan_templates"

    var dayTypes: [TrainingRules.DayType]
    var templates: [TrainingRules.PlanTemplate]
    var locations: [String: SourceLocation]

    package var catalogEntryCount: Int { templates.count }

    package static func decode(_ document: inout MappingDecoder) -> PlanTemplatesFile? {
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
