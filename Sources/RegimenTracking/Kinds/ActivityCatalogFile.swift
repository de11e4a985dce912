import RegimenLanguage
import RegimenRules

/// `kind: activity_catalog` — decodes `catalogs/activity-catalog.yaml` into an ``ActivityCatalog``.
///
/// Checked against the calorie-burn rules once both are loaded: each row names a level, and its
/// MET lies in that level's band.
extension ActivityCategory: NodeEnum {}

struct ActivityCatalogFile: RuleFileKind {
    package static let kind = "activity_catalog"
    package let catalog: ActivityCatalog
    let locations: [String: SourceLocation]

    package var catalogEntryCount: Int { catalog.activities.count }

    package static func decode(_ document: inout MappingDecoder) -> ActivityCatalogFile? {
        let context = document.context
        var activities: [Activity] = []
        var locations: [String: SourceLocation] = [:]
        _ = document.mapping("activities") { map -> Bool? in
            for id in map.keys {
                locations[id] = map.location(ofKey: id)
                if let activity = map.mapping(id, { entry -> Activity? in
                    entry.path = entry.path.about("activity '\(id)'")
                    let name = entry.required("name", as: String.self)
                    let category = entry.required("category", as: ActivityCategory.self)
                    let usual = entry.required("usual", as: String.self)
                    entry.note("usual", "One of the levels under 'rows': a rule between values, checked by the loader alone.")
                    var rows: [CompendiumRow] = []
                    let rowsRead = entry.mapping("rows") { rowMap -> Bool? in
                        // At least one row (a shape rule: the schema requires a key); a row with
                        // a wrong value is reported as such, not as a missing row.
                        guard rowMap.requireSomething(rowMap.keys.isEmpty, "'rows' must name at least one Compendium row") else { return nil }
                        for level in rowMap.keys {
                            if let row = rowMap.mapping(level, { row -> CompendiumRow? in
                                row.path = row.path.about("row '\(level)' of activity '\(id)'")
                                let code = row.required("code", as: String.self)
                                let met = row.required("met", as: Double.self, in: 0.9...25)
                                let description = row.required("description", as: String.self)
                                if let code, code.count != 5 || !code.allSatisfy(\.isNumber) {
                                    context.error("rules.bad-value", row.path.message("'code' must be a five-digit Compendium code, not '\(code)'"),
                                                  at: row.node["code"]?.location)
                                }
                                guard let code, let met, let description else { return nil }
                                return CompendiumRow(level: level, code: code, met: met, description: description)
                            }) { rows.append(row) }
                        }
                        return true
                    }
                    if let usual, rowsRead != nil, !rows.isEmpty, !rows.contains(where: { $0.level == usual }) {
                        context.error("rules.unknown-reference", entry.path.message("'usual' is '\(usual)', which is not one of its rows \(rows.map(\.level).joined(separator: ", "))"),
                                      at: entry.node["usual"]?.location)
                    }
                    guard let name, let category, let usual, !rows.isEmpty else { return nil }
                    return Activity(id: id, name: name, category: category, rows: rows, usualLevel: usual)
                }) { activities.append(activity) }
            }
            return true
        }
        guard !context.hasErrors else { return nil }
        return ActivityCatalogFile(catalog: ActivityCatalog(activities: activities), locations: locations)
    }

    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        guard let burn = ruleSet.first(CalorieBurnFile.self)?.rules else { return }
        for file in ruleSet.all(ActivityCatalogFile.self) {
            for activity in file.catalog.activities {
                let location = file.locations[activity.id]
                for row in activity.rows {
                    guard let level = burn.level(row.level) else {
                        context.error("activity.unknown-intensity", "activity '\(activity.id)': row '\(row.level)' is not a level of the calorie-burn rules",
                                      at: location)
                        continue
                    }
                    if row.met < level.minMET || row.met > level.maxMET {
                        context.error("activity.met-outside-level",
                                      "activity '\(activity.id)': Compendium row \(row.code) (MET \(format(row.met))) is not \(row.level): that level spans MET \(format(level.minMET))-\(format(level.maxMET))",
                                      at: location)
                    }
                }
            }
        }
    }
}
