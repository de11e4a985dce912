import RegimenLanguage
import RegimenRules

/// `rules/dietary-exclusions.yaml`: dietary patterns and allergens, each a set of ingredient tags it excludes.
package struct DietaryExclusionRules: RuleFileKind, Sendable {
    package static let kind = "dietary_exclusions"

    /// Every tag an ingredient may carry.
    package var tags: [String]
    /// Exclusion name → the tags it excludes.
    package var exclusions: [String: [String]]

    /// The accepted exclusion names, sorted.
    package var names: [String] { exclusions.keys.sorted() }

    /// Whether an ingredient with `contains` is allowed under `selected` exclusions.
    package func allows(_ contains: [String], under selected: [String]) -> Bool {
        let excluded = Set(selected.flatMap { exclusions[$0] ?? [] })
        return excluded.isDisjoint(with: contains)
    }

    package static func decode(_ document: inout MappingDecoder) -> DietaryExclusionRules? {
        let context = document.context
        let tags = document.required("tags", as: [String].self)
        let tagLocation = document.node("tags")?.location
        let exclusions = document.mapping("exclusions") { map -> [String: [String]]? in
            var result: [String: [String]] = [:]
            for name in map.keys {
                let location = map.location(ofKey: name)
                let excluded = map.mapping(name) { entry -> [String]? in
                    entry.allow("description")
                    return entry.required("excludes", as: [String].self)
                }
                guard let excluded else { continue }
                for tag in excluded where !(tags ?? []).contains(tag) {
                    context.error("rules.reference", "exclusion '\(name)': tag '\(tag)' is not in 'tags'", at: location)
                }
                result[name] = excluded
            }
            return result
        }
        _ = tagLocation
        guard let tags, let exclusions else { return nil }
        return DietaryExclusionRules(tags: tags, exclusions: exclusions)
    }

    package var ruleCount: Int { exclusions.count }
}
