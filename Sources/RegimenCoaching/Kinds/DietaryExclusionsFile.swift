import RegimenLanguage
package import RegimenRules

/// `rules/dietary-exclusions.yaml`: dietary patterns and allergens, each excluding the catalog
/// ingredients that carry one of its tags, the ingredients it names by id, or both.
package struct DietaryExclusionsFile: RuleFileKind, Sendable {
    package static let kind = "dietary_exclusions"
    /// `exclusions`: one diet exclusion per entry, for coverage and explanations.
    package static let exclusionsSection = RuleSection(Self.self, .entries, key: "exclusions", category: "diet exclusion")
    package static var ruleSections: [RuleSection] { [exclusionsSection] }

    /// Every tag an ingredient may carry.
    package var tags: [String]
    /// Exclusion name → the tags it excludes.
    var exclusions: [String: [String]]
    /// Exclusion name → the ingredient ids it excludes by name (`ingredients:`).
    var excludedIngredients: [String: [String]] = [:]
    /// Where each exclusion is written, and each ingredient id it names, for the checks against
    /// the ingredient catalog (which is another file).
    var locations = Locations()

    struct Locations: Sendable {
        var exclusion: [String: SourceLocation] = [:]
        var ingredientIds: [(exclusion: String, index: Int, id: String, location: SourceLocation)] = []
    }

    /// `food tag` (the tags) and `diet` (the exclusions), which ingredients, supplements, a
    /// profile's `exclusions` and expressions name.
    package static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>] {
        let files = ruleSet.all(DietaryExclusionsFile.self)
        guard !files.isEmpty else { return [:] }
        return [SchemaVocabulary.foodTag: Set(files.flatMap(\.tags)), SchemaVocabulary.diet: Set(files.flatMap(\.names))]
    }

    /// The accepted exclusion names, sorted.
    var names: [String] { exclusions.keys.sorted() }

    /// Whether `ingredient` is allowed under the `selected` exclusions: it carries none of their
    /// tags and none of them names it.
    package func allows(_ ingredient: Ingredient, under selected: [String]) -> Bool {
        let excluded = Set(selected.flatMap { exclusions[$0] ?? [] })
        return excluded.isDisjoint(with: ingredient.contains)
            && !selected.contains { excludedIngredients[$0]?.contains(ingredient.id) ?? false }
    }

    package static func decode(_ document: inout MappingDecoder) -> DietaryExclusionsFile? {
        let context = document.context
        let tags = document.required("tags", as: [String].self)
        // The schema lists the loaded tags here too: a misspelt tag in this list leaves the
        // exclusions that name the right one unknown, which the loader reports in this file.
        document.vocabulary("tags", SchemaVocabulary.foodTag)
        let known = Set(tags ?? [])
        var locations = Locations()
        var byIngredient: [String: [String]] = [:]
        let exclusions = document.mapping("exclusions") { map -> [String: [String]]? in
            var result: [String: [String]] = [:]
            for name in map.keys {
                let location = map.location(ofKey: name) ?? map.node.location
                locations.exclusion[name] = location
                let entry = map.mapping(name) { entry -> (tags: [String], ids: [String])? in
                    entry.allow("description")
                    let excluded = entry.optional("excludes", as: [String].self)
                    let ids = entry.optional("ingredients", as: [String].self)
                    entry.vocabulary("excludes", SchemaVocabulary.foodTag)
                    entry.vocabulary("ingredients", SchemaVocabulary.ingredient)
                    // Neither key is required: a diet that names nothing excludes nothing, which
                    // `validate` reports as a warning like any diet whose names match no ingredient.
                    // Each tag is checked at its own place in the list, with a suggestion.
                    if !context.isDescribing, let excluded {
                        let items = entry.node["excludes"]?.sequence ?? []
                        for (index, tag) in excluded.enumerated() {
                            context.checkReference(
                                tag, at: items.indices.contains(index) ? items[index].location : location,
                                path: entry.path.appending(key: "excludes").appending(index: index), what: "tag (this file's 'tags')", known: known,
                                diagnostic: SchemaVocabulary.unknownWord)
                        }
                    }
                    if !context.isDescribing, let ids {
                        let items = entry.node["ingredients"]?.sequence ?? []
                        for (index, id) in ids.enumerated() {
                            locations.ingredientIds.append((name, index, id, items.indices.contains(index) ? items[index].location : location))
                        }
                    }
                    return (excluded ?? [], ids ?? [])
                }
                guard let entry else { continue }
                result[name] = entry.tags
                if !entry.ids.isEmpty { byIngredient[name] = entry.ids }
            }
            return result
        }
        guard let tags, let exclusions else { return nil }
        return DietaryExclusionsFile(tags: tags, exclusions: exclusions, excludedIngredients: byIngredient, locations: locations)
    }

    /// Every ingredient id an exclusion names is a catalog ingredient (an error at the id, with a
    /// suggestion), and every exclusion excludes at least one catalog ingredient (a warning: a
    /// diet that removes nothing is almost always a misspelt or forgotten tag).
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        let catalogs = ruleSet.all(IngredientsFile.self)
        guard !catalogs.isEmpty else { return }
        let ingredients = catalogs.flatMap(\.ingredients)
        let ids = Set(ingredients.map(\.id))
        for diets in ruleSet.all(DietaryExclusionsFile.self) {
            for use in diets.locations.ingredientIds {
                context.checkReference(
                    use.id, at: use.location,
                    path: DecodingPath(subject: "exclusion '\(use.exclusion)'").appending(key: "ingredients").appending(index: use.index),
                    what: "ingredient (catalogs/ingredients.yaml)", known: ids, diagnostic: SchemaVocabulary.unknownWord)
            }
            for name in diets.names where !ingredients.contains(where: { !diets.allows($0, under: [name]) }) {
                context.warning(
                    "rules.excludes-nothing",
                    "exclusion '\(name)' excludes no catalog ingredient: no ingredient carries its tags (\(diets.exclusions[name]?.joined(separator: ", ") ?? "")) and it names none",
                    at: diets.locations.exclusion[name])
            }
        }
    }

    package var ruleCount: Int { exclusions.count }
}
