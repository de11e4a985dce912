import RegimenLanguage
package import RegimenRules

/// `catalogs/ingredients.yaml`.
package struct IngredientsFile: RuleFileKind, Sendable {
    package static let kind = "ingredients"

    var ingredients: [Ingredient]
    /// The closed vocabulary of `food_group` (the catalog's `food_groups`), in file order.
    var foodGroups: [String]
    /// Where each `contains` tag is written, for the check against the dietary exclusions' tags.
    var tagLocations: [(ingredient: String, tag: String, location: SourceLocation)] = []

    package func ingredient(_ id: String) -> Ingredient? { ingredients.first { $0.id == id } }

    /// `ingredient`: the catalog's ids, which a diet's `ingredients:` names; `food group`: its
    /// `food_groups`, which each ingredient's `food_group` names.
    package static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>] {
        let catalogs = ruleSet.all(IngredientsFile.self)
        var words: [String: Set<String>] = [:]
        let ids = catalogs.flatMap { $0.ingredients.map(\.id) }
        if !ids.isEmpty { words[SchemaVocabulary.ingredient] = Set(ids) }
        let groups = catalogs.flatMap(\.foodGroups)
        if !groups.isEmpty { words[SchemaVocabulary.foodGroup] = Set(groups) }
        return words
    }

    package static func decode(_ document: inout MappingDecoder) -> IngredientsFile? {
        let context = document.context
        var locations: [(id: String, location: SourceLocation)] = []
        var tagLocations: [(ingredient: String, tag: String, location: SourceLocation)] = []
        let foodGroups = document.required("food_groups", as: [String].self)
        if let foodGroups, !context.isDescribing, let items = document.node["food_groups"]?.sequence {
            context.checkUnique(zip(foodGroups, items).map { ($0, $1.location) }, what: "food group")
        }
        let knownGroups = foodGroups ?? []
        let ingredients = document.list("ingredients") { node, path in
            context.mapping(node, at: path) { map -> Ingredient? in
                // Every key is read even without `id`, so a missing one is a single error.
                let id = map.required("id", as: String.self)
                if let id {
                    locations.append((id, node.location))
                    map.path = map.path.about("ingredient '\(id)'")
                }
                let subject = id.map { "ingredient '\($0)'" } ?? path.keyPath
                let name = map.required("name", as: String.self)
                let categoryText = map.required("category", as: String.self)
                let category = categoryText.flatMap(IngredientCategory.init(rawValue:))
                if let categoryText, category == nil {
                    context.error("rules.value", "\(subject): category '\(categoryText)' must be protein, carb, veg or fat", at: map.location(ofKey: "category"))
                }
                let foodGroup = map.required("food_group", as: String.self)
                map.vocabulary("food_group", SchemaVocabulary.foodGroup)
                if let foodGroup, foodGroups != nil, !knownGroups.contains(foodGroup) {
                    // Reported at the word itself, as every other reference to a vocabulary is.
                    context.error(
                        "rules.unknown-value", "\(subject): food_group '\(foodGroup)' is not in the catalog's food_groups\(Suggestion.clause(for: foodGroup, among: knownGroups))",
                        at: node["food_group"]?.location ?? map.location(ofKey: "food_group"))
                }
                let ndb = map.required("usda_ndb", as: String.self)
                if let ndb, ndb.count != 5 || !ndb.allSatisfy(\.isNumber) {
                    context.error("rules.value", "\(subject): usda_ndb '\(ndb)' must be a 5-digit SR NDB number", at: map.location(ofKey: "usda_ndb"))
                }
                let release = map.required("usda_release", as: String.self)
                if let release, !["SR24", "SR Legacy"].contains(release) {
                    context.error("rules.value", "\(subject): usda_release '\(release)' must be SR24 or SR Legacy", at: map.location(ofKey: "usda_release"))
                }
                let state = map.required("state", as: String.self)
                let macros = map.mapping("macro_per_100g") { values -> (Macros, Double)? in
                    let p = values.required("p", as: Double.self, in: 0...100)
                    let c = values.required("c", as: Double.self, in: 0...100)
                    let f = values.required("f", as: Double.self, in: 0...100)
                    let kcal = values.required("usda_kcal", as: Double.self, in: 0...900)
                    guard let p, let c, let f, let kcal else { return nil }
                    if p + c + f > 100.5 {
                        context.error("rules.value", "\(subject): protein, carbohydrate and fat add up to more than 100 g per 100 g", at: values.node.location)
                    }
                    return (Macros(protein: p, carb: c, fat: f), kcal)
                }
                let typical = map.required("typical_portion_g", as: Double.self, in: 1...2000)
                let portion = decodeRange(&map, "portion_range_g")
                if let portion, let typical, !portion.contains(typical) {
                    context.error("rules.value", "\(subject): typical_portion_g \(formatted(typical)) lies outside portion_range_g", at: map.location(ofKey: "typical_portion_g"))
                }
                let tierText = map.required("budget_tier", as: String.self)
                let tier = tierText.flatMap(Profile.BudgetTier.init(rawValue:))
                if let tierText, tier == nil {
                    context.error("rules.value", "\(subject): budget_tier '\(tierText)' must be low, medium or high", at: map.location(ofKey: "budget_tier"))
                }
                let contains = map.required("contains", as: [String].self)
                map.vocabulary("contains", SchemaVocabulary.foodTag)
                if let id, let contains, !context.isDescribing {
                    let items = map.node["contains"]?.sequence ?? []
                    for (index, tag) in contains.enumerated() {
                        tagLocations.append((id, tag, items.indices.contains(index) ? items[index].location : node.location))
                    }
                }
                let notes = map.optional("notes", as: String.self)
                guard let id, let name, let category, let foodGroup, let ndb, let release, let state, let macros, let typical, let portion, let tier, let contains,
                      portion.lowerBound > 0
                else { return nil }
                return Ingredient(
                    id: id, name: name, category: category, foodGroup: foodGroup, usdaNDB: ndb, usdaRelease: release, state: state, per100g: macros.0, usdaKcal: macros.1,
                    typicalPortionG: typical, portionRangeG: portion, budgetTier: tier, contains: contains, notes: notes)
            }
        }
        context.checkUnique(locations, what: "ingredient")
        guard let ingredients, let foodGroups else { return nil }
        return IngredientsFile(ingredients: ingredients, foodGroups: foodGroups, tagLocations: tagLocations)
    }

    /// Every `contains` tag is one the dietary exclusions know.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        guard let diets = ruleSet.first(DietaryExclusionsFile.self) else { return }
        let known = Set(diets.tags)
        for catalog in ruleSet.all(IngredientsFile.self) {
            for use in catalog.tagLocations where !known.contains(use.tag) {
                context.error(
                    SchemaVocabulary.unknownWord,
                    "ingredient '\(use.ingredient)': tag '\(use.tag)' is not in rules/dietary-exclusions.yaml 'tags'\(Suggestion.clause(for: use.tag, among: known.sorted()))",
                    at: use.location)
            }
        }
    }

    package var catalogEntryCount: Int { ingredients.count }
}
