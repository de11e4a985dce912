import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import RegimenTestSupport

/// Diets in the coach's words (`rules/dietary-exclusions.yaml`): a diet lists ingredient tags
/// (`excludes:`), ingredient ids (`ingredients:`) or both. Properties:
/// - over a seeded grid of diets (random tags and ids of the shipped catalog), a diet allows
///   exactly the ingredients that carry none of its tags and are not among its ids;
/// - every name a diet or an ingredient writes is checked at its own line and column, with a
///   suggestion; a diet that excludes no catalog ingredient is a warning.
@Suite struct DietExclusionTests {
    private func load(_ edits: [String: (String) -> String]) -> RuleSetLoadResult {
        let files = RuleFileTests.files.map { file in edits[file.path].map { (file.path, $0(file.text)) } ?? file }
        return RuleSetLoader(kinds: NutritionRuleSet.kinds, otherModulesKinds: .anyUnregistered).load(files: files)
    }

    private func diets(adding lines: String) -> [String: (String) -> String] {
        ["rules/dietary-exclusions.yaml": { $0.replacingOccurrences(of: "exclusions:\n", with: "exclusions:\n" + lines) }]
    }

    /// The 1-based line and column of `needle` inside the first line of `path` containing `lineMarker`.
    private func position(of needle: String, onLineWith lineMarker: String, in path: String, edits: [String: (String) -> String]) throws -> (line: Int, column: Int) {
        let original = try #require(RuleFileTests.files.first { $0.path == path }?.text)
        let text = edits[path].map { $0(original) } ?? original
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains(lineMarker) })
        let range = try #require(lines[index].range(of: needle))
        return (index + 1, lines[index].distance(from: lines[index].startIndex, to: range.lowerBound) + 1)
    }

    @Test func aDietAllowsExactlyWhatItsTagsAndIdsLeave() throws {
        let rules = try TestRules.rules()
        let catalog = rules.catalog.ingredients
        let tags = rules.profile.diets.tags
        var generator = SeededGenerator(seed: 20261127)
        var lines = ""
        var expected: [String: (tags: Set<String>, ids: Set<String>)] = [:]
        for number in 0..<40 {
            let chosenTags = Set(tags.filter { _ in generator.next() % 5 == 0 })
            var chosenIds = Set(catalog.map(\.id).filter { _ in generator.next() % 12 == 0 })
            if chosenTags.isEmpty && chosenIds.isEmpty { chosenIds.insert(catalog[Int(generator.next() % UInt64(catalog.count))].id) }
            let name = "grid_diet_\(number)"
            expected[name] = (chosenTags, chosenIds)
            lines += "  \(name): {excludes: [\(chosenTags.sorted().joined(separator: ", "))], ingredients: [\(chosenIds.sorted().joined(separator: ", "))]}\n"
        }
        let result = load(diets(adding: lines))
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        let loaded = try NutritionRuleSet(try result.get())
        for (name, diet) in expected.sorted(by: { $0.key < $1.key }) {
            for ingredient in catalog {
                let shouldAllow = diet.tags.isDisjoint(with: ingredient.contains) && !diet.ids.contains(ingredient.id)
                #expect(loaded.profile.diets.allows(ingredient, under: [name]) == shouldAllow, "\(name) \(ingredient.id)")
            }
        }
        // A profile may name the coach's diet, and its plan then offers none of those foods.
        let profile = try loaded.profileDecoder.decode(text: "sex: female\nschedule_days: 3\nexclusions: [grid_diet_0]\n", file: "profile.yaml")
        #expect(profile.exclusions == ["grid_diet_0"])
    }

    @Test func aDietByIdsAloneNeedsNoTag() throws {
        let edits = diets(adding: "  nightshades: {ingredients: [tomato, potato, potato_baked, red_pepper]}\n")
        let result = load(edits)
        #expect(result.diagnostics.map(\.description) == [])
        let loaded = try NutritionRuleSet(try result.get())
        let left = loaded.catalog.ingredients.filter { loaded.profile.diets.allows($0, under: ["nightshades"]) }.map(\.id)
        #expect(left.count == loaded.catalog.ingredients.count - 4)
        #expect(!left.contains("tomato") && left.contains("sweet_potato"))
    }

    @Test func aMisspeltTagInADietIsReportedAtItsPlaceWithASuggestion() throws {
        let edits = diets(adding: "  coach_diet: {excludes: [meat, shelfish]}\n")
        let errors = load(edits).diagnostics.filter { $0.severity == .error }
        let error = try #require(errors.first { $0.message.contains("'shelfish'") }, "\(errors)")
        #expect(error.message.contains("did you mean 'shellfish'?"), "\(error.message)")
        let at = try position(of: "shelfish", onLineWith: "coach_diet:", in: "rules/dietary-exclusions.yaml", edits: edits)
        #expect(error.location?.file == "rules/dietary-exclusions.yaml")
        #expect(error.location?.line == at.line && error.location?.column == at.column, "\(String(describing: error.location))")
    }

    @Test func aMisspeltIngredientIdInADietIsReportedAtItsPlaceWithASuggestion() throws {
        let edits = diets(adding: "  coach_diet: {ingredients: [tomato, potatoe]}\n")
        let errors = load(edits).diagnostics.filter { $0.severity == .error }
        let error = try #require(errors.first { $0.message.contains("'potatoe'") }, "\(errors)")
        #expect(error.message.contains("did you mean 'potato'?"), "\(error.message)")
        let at = try position(of: "potatoe", onLineWith: "coach_diet:", in: "rules/dietary-exclusions.yaml", edits: edits)
        #expect(error.location?.line == at.line && error.location?.column == at.column, "\(String(describing: error.location))")
    }

    @Test func aTagTypoOnAnIngredientIsReportedAtItsLineNotTheFilesFirst() throws {
        let edits: [String: (String) -> String] = ["catalogs/ingredients.yaml": { $0.replacingOccurrences(of: "contains: [shellfish]", with: "contains: [shelfish]") }]
        let errors = load(edits).diagnostics.filter { $0.severity == .error }
        let error = try #require(errors.first { $0.message.contains("'shelfish'") }, "\(errors)")
        #expect(error.message.contains("did you mean 'shellfish'?"), "\(error.message)")
        let at = try position(of: "shelfish", onLineWith: "contains: [shelfish]", in: "catalogs/ingredients.yaml", edits: edits)
        #expect(error.location?.file == "catalogs/ingredients.yaml")
        #expect(error.location?.line == at.line && error.location?.column == at.column, "\(String(describing: error.location))")
    }

    @Test func aDietThatExcludesNothingIsAWarning() throws {
        let edits = diets(adding: "  mustard: {excludes: [mustard]}\n  nothing_named: {ingredients: []}\n")
        var withTag = edits
        let addTag = edits["rules/dietary-exclusions.yaml"]
        withTag["rules/dietary-exclusions.yaml"] = { addTag?($0).replacingOccurrences(of: "sesame]\n", with: "sesame, mustard]\n") ?? $0 }
        let diagnostics = load(withTag).diagnostics
        #expect(diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        let warnings = diagnostics.filter { $0.id == "rules.excludes-nothing" }
        #expect(Set(warnings.compactMap { $0.message.split(separator: "'").dropFirst().first.map(String.init) }) == ["mustard", "nothing_named"], "\(diagnostics)")
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.location?.file == "rules/dietary-exclusions.yaml" })
    }

    @Test func aDietNamingNothingIsAWarning() {
        let diagnostics = load(diets(adding: "  empty_diet: {description: nothing here}\n")).diagnostics
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        #expect(diagnostics.contains { $0.id == "rules.excludes-nothing" && $0.severity == .warning && $0.message.contains("empty_diet") }, "\(diagnostics)")
    }
}
