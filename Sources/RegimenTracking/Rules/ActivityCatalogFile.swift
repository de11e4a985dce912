import RegimenLanguage
import RegimenRules

/// `kind: activity_catalog` — decodes `catalogs/activities.yaml` into an ``ActivityCatalog``.
///
/// Checked against the calorie-burn rules once both are loaded: each intensity an activity
/// lists must be a level, and the level its base MET falls in must be one of them.
public struct ActivityCatalogFile: RuleFileKind {
    public static let kind = "activity_catalog"
    public let catalog: ActivityCatalog
    let locations: [String: SourceLocation]

    public var catalogEntryCount: Int { catalog.activities.count }

    public static func decode(_ document: inout MappingDecoder) -> ActivityCatalogFile? {
        let context = document.context
        var activities: [Activity] = []
        var locations: [String: SourceLocation] = [:]
        _ = document.mapping("activities") { map -> Bool? in
            for id in map.keys {
                locations[id] = map.location(ofKey: id)
                if let activity = map.mapping(id, { entry -> Activity? in
                    entry.path = entry.path.about("activity '\(id)'")
                    let name = entry.required("name", as: String.self)
                    let categoryName = entry.required("category", as: String.self)
                    let code = entry.required("compendium", as: String.self)
                    let met = entry.required("met", as: Double.self, in: 0.9...25)
                    let intensities = entry.strings("intensities")
                    if intensities.isEmpty {
                        context.error("rules.missing-key", entry.path.message("'intensities' must list at least one level"), at: entry.node.location)
                    }
                    var category: ActivityCategory?
                    if let categoryName {
                        category = ActivityCategory(rawValue: categoryName)
                        if category == nil {
                            context.error("rules.bad-value", entry.path.message("'category' must be one of \(ActivityCategory.allCases.map(\.rawValue).joined(separator: ", ")), not '\(categoryName)'"),
                                          at: entry.node["category"]?.location)
                        }
                    }
                    if let code, code.count != 5 || !code.allSatisfy(\.isNumber) {
                        context.error("rules.bad-value", entry.path.message("'compendium' must be a five-digit Compendium code, not '\(code)'"),
                                      at: entry.node["compendium"]?.location)
                    }
                    guard let name, let category, let code, let met else { return nil }
                    return Activity(id: id, name: name, category: category, compendiumCode: code, baseMET: met, intensities: intensities)
                }) { activities.append(activity) }
            }
            return true
        }
        guard !context.hasErrors else { return nil }
        return ActivityCatalogFile(catalog: ActivityCatalog(activities: activities), locations: locations)
    }

    public static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        guard let burn = ruleSet.first(CalorieBurnFile.self)?.rules else { return }
        for file in ruleSet.all(ActivityCatalogFile.self) {
            for activity in file.catalog.activities {
                let location = file.locations[activity.id]
                for intensity in activity.intensities where burn.level(intensity) == nil {
                    context.error("activity.unknown-intensity", "activity '\(activity.id)': intensity '\(intensity)' is not a level of the calorie-burn rules",
                                  at: location)
                }
                if let band = burn.level(forMET: activity.baseMET), !activity.intensities.contains(band.id) {
                    context.error("activity.met-outside-intensities",
                                  "activity '\(activity.id)': base MET \(format(activity.baseMET)) is \(band.id), which its intensities \(activity.intensities.joined(separator: ", ")) do not include",
                                  at: location)
                }
            }
        }
    }
}
