import OrderedCollections
import RegimenLanguage
import RegimenRules

/// `kind: plan_templates` — `catalogs/plan-templates.yaml`.
struct PlanTemplatesFile: RuleFileKind {
    package static let kind = "plan_templates"

    var dayTypes: [TrainingRules.DayType]
    var templates: [TrainingRules.PlanTemplate]
    var locations: [String: SourceLocation]

    package var catalogEntryCount: Int { templates.count }

    package static func decode(_ document: inout MappingDecoder) -> PlanTemplatesFile? {
        let context = document.context
        var locations: [String: SourceLocation] = [:]
        var dayTypes: [TrainingRules.DayType] = []
        _ = document.mapping("day_types") { days -> Bool? in
            for id in days.keys {
                if let location = days.location(ofKey: id) { locations["day:\(id)"] = location }
                let dayType = days.mapping(id) { map -> TrainingRules.DayType? in
                    map.path = DecodingPath(subject: "day type '\(id)'")
                    // The checks against the volume rules and the catalog report a word where it stands.
                    context.noteWords(["muscles", "roles", "prefer_patterns"] + ["roles", "prefer_patterns"].flatMap { key in
                        (map.node[key]?.mapping ?? []).compactMap { $0.key.scalar.map { "\(key).\($0.text)" } }
                    }, of: map.node, entry: locations["day:\(id)"])
                    let focus = map.required("focus", as: String.self)
                    let muscles = map.required("muscles", as: [String].self)
                    map.vocabulary("muscles", SchemaVocabulary.muscle)
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
                    let patterns = map.optional("prefer_patterns", as: OrderedDictionary<String, [String]>.self) ?? [:]
                    let roles = map.optional("roles", as: OrderedDictionary<String, [String]>.self) ?? [:]
                    guard let focus, let muscles else { return nil }
                    return TrainingRules.DayType(
                        id: id, focus: focus, muscles: muscles, isRecovery: recovery,
                        preferredPatterns: Dictionary(uniqueKeysWithValues: patterns.map { ($0.key, $0.value) }),
                        roles: Dictionary(uniqueKeysWithValues: roles.map { ($0.key, $0.value) }))
                }
                if let dayType { dayTypes.append(dayType) }
            }
            return true
        }
        var ids: [(id: String, location: SourceLocation)] = []
        let templates: [TrainingRules.PlanTemplate]? = document.list("templates") { node, path in
            context.mapping(node, at: path) { map -> TrainingRules.PlanTemplate? in
                // Every key is read even without `id`, so a missing one is a single error.
                let id = map.required("id", as: String.self)
                if let id {
                    map.path = map.path.about("template '\(id)'")
                    ids.append((id, node.location))
                    locations[id] = node.location
                }
                context.noteWords(["weekly_structure"], of: node, entry: node.location)
                let name = map.required("name", as: String.self)
                let profiles = map.required("equipment_profiles", as: [EquipmentName].self)
                let structure = map.required("weekly_structure", as: [String].self)
                guard let id, let name, let profiles, let structure else { return nil }
                return TrainingRules.PlanTemplate(id: id, name: name, equipmentProfiles: profiles.map(\.value), weeklyStructure: structure)
            }
        }
        context.checkUnique(ids, what: "template")
        guard let templates else { return nil }
        return PlanTemplatesFile(dayTypes: dayTypes, templates: templates, locations: locations)
    }
}
