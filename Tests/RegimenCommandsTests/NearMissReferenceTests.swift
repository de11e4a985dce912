import Foundation
@testable import RegimenCoaching
@testable import RegimenKit
@testable import RegimenLanguage
@testable import RegimenRules
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// No misspelt reference survives `check`, and each is reported where it stands. Property, over
/// every word a shipped rule or catalog file names from a vocabulary the loaded files define
/// (muscles, equipment tags, exercise, ingredient and supplement ids, food tags, goals, diets,
/// medication classes, …): renaming it to a near miss (its last letter doubled, `chest` →
/// `chestt`) makes the load fail with an error at that word's own line and column. Words that
/// define a vocabulary rather than name one (an `id:`, the `tags` list, `tracked_muscles`, a
/// catalog's keys; see ``definitionKeys``) are counted, not asserted: renaming one renames the
/// word. Expressions are ``NearMissPropertyTests``' part.
///
/// `swift test` checks a seeded sample; `scripts/near-miss.sh` sets `REGIMEN_NEAR_MISS=all` to
/// check every word and prints the figures.
@Suite struct NearMissReferenceTests {
    static let sampleSize = 40

    /// Lists and values whose words define their vocabulary (or are names, not references).
    /// Any key on the way to the word counts (`equipment_profiles.full_gym`): a training
    /// modifier's name, a tracker field's allowed values and an equipment profile's tags define
    /// their words too.
    /// The ingredient catalog's `food_groups` list defines the groups its ingredients name.
    static let definitionKeys: Set<String> = ["id", "tags", "tracked_muscles", "aliases", "pattern", "name", "focus", "equipment_profiles", "one_of", "modifier",
                                              "food_groups"]
    /// Mappings whose keys name words of a vocabulary (the other mappings' keys define theirs).
    static let referencingKeyMaps: Set<String> = ["calories", "kcal_ceiling_multiplier", "roles", "prefer_patterns", "interactions", "food_group_penalty"]

    /// One word a file names, where it is written.
    struct Word: CustomStringConvertible {
        let text: String
        /// The keys leading to it (`exercises.muscles`), for the figures.
        let path: String
        let location: SourceLocation
        /// Whether the word defines its vocabulary here (renaming it renames the word).
        let isDefinition: Bool
        var description: String { "\(location) '\(text)' (\(path))\(isDefinition ? " [defines]" : "")" }
    }

    static func words(in files: [(path: String, text: String)]) -> [Word] {
        let ruleSet = NearMissPropertyTests.load(files).ruleSet
        // Every vocabulary the loaded files define, those the kinds declare included.
        let vocabulary = Set(SchemaVocabulary.vocabularies(of: ruleSet).words.values.joined())
        var found: [Word] = []
        for file in files where !file.path.hasPrefix("rules/tests/") {
            guard let document = YAMLReader.read(file.text, file: file.path).document else { continue }
            walk(document, keys: [], vocabulary: vocabulary, file: file.path, into: &found)
        }
        return found
    }

    private static func walk(_ node: LocatedNode, keys: [String], vocabulary: Set<String>, file: String, into found: inout [Word]) {
        switch node.content {
        case .scalar(let scalar):
            guard scalar.style == .plain, vocabulary.contains(scalar.text), !keys.isEmpty else { return }
            // The supplement catalog's top `goals` list defines the goals its items serve.
            let defines = keys.contains(where: definitionKeys.contains) || (keys == ["goals"] && file.hasPrefix("catalogs/"))
            found.append(Word(text: scalar.text, path: keys.joined(separator: "."), location: node.location, isDefinition: defines))
        case .sequence(let items):
            for item in items { walk(item, keys: keys, vocabulary: vocabulary, file: file, into: &found) }
        case .mapping(let pairs):
            for pair in pairs {
                guard let key = pair.key.scalar?.text else { continue }
                if let parent = keys.last, referencingKeyMaps.contains(parent) || (keys == ["goals"] && file.hasPrefix("rules/periodization")),
                   pair.key.scalar?.style == .plain, vocabulary.contains(key) {
                    found.append(Word(text: key, path: keys.joined(separator: ".") + ".{key}", location: pair.key.location, isDefinition: false))
                }
                walk(pair.value, keys: keys + [key], vocabulary: vocabulary, file: file, into: &found)
            }
        }
    }

    /// Renames `word` (its last letter doubled) and loads: whether the first error is at it.
    static func mutate(_ word: Word, files: [(path: String, text: String)]) -> NearMissPropertyTests.Outcome {
        guard let index = files.firstIndex(where: { $0.path == word.location.file }) else { return .unmappable }
        var lines = files[index].text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        let row = word.location.line - 1
        let column = word.location.column - 1
        let token = Array(word.text.unicodeScalars)
        guard lines.indices.contains(row), column >= 0, column + token.count <= lines[row].count,
              Array(lines[row][column..<(column + token.count)]) == token, let last = token.last else { return .unmappable }
        lines[row].insert(last, at: column + token.count)
        var edited = files
        edited[index].text = lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
        let errors = NearMissPropertyTests.load(edited).diagnostics.filter { $0.severity == .error }
        if errors.isEmpty { return .survived }
        return errors.contains { $0.location == word.location } ? .exact : .elsewhere
    }

    @Test func aNearMissOfAnyWordAFileNamesFailsCheckAtItsLineAndColumn() throws {
        let files = try NearMissPropertyTests.files()
        let all = Self.words(in: files)
        #expect(all.filter { !$0.isDefinition }.count > 500, "the walk found \(all.count) words")
        let everything = ProcessInfo.processInfo.environment["REGIMEN_NEAR_MISS"] == "all"
        var generator = SeededGenerator(seed: 20261128)
        let chosen = everything ? all : Array(all.filter { !$0.isDefinition }.shuffled(using: &generator).prefix(Self.sampleSize))
        var outcomes: [Bool: [NearMissPropertyTests.Outcome: Int]] = [:]
        var misses: [String] = []
        for word in chosen {
            let outcome = Self.mutate(word, files: files)
            outcomes[word.isDefinition, default: [:]][outcome, default: 0] += 1
            if outcome != .exact && !word.isDefinition { misses.append("\(outcome.rawValue): \(word)") }
            if !word.isDefinition {
                #expect(outcome == .exact, "\(word): \(outcome.rawValue)")
            }
        }
        if everything {
            print("near-miss: words: \(chosen.count) in \(Set(all.map(\.location.file)).count) files")
            for (defines, label) in [(false, "references"), (true, "definitions")] {
                let counts = outcomes[defines] ?? [:]
                print("near-miss: words (\(label)): \(counts.values.reduce(0, +)) renamed, \(counts[.exact] ?? 0) fail at their line:col, \(counts[.elsewhere] ?? 0) fail elsewhere, \(counts[.survived] ?? 0) load, \(counts[.unmappable] ?? 0) not renameable in place")
            }
            for line in misses { print("near-miss: \(line)") }
        }
    }

    /// The issue's case and the references this hunt found reported at their entry or not at all
    /// on main: each is now an error at the word, with a suggestion.
    @Test(arguments: [
        ("catalogs/exercise-catalog.yaml", "    muscles: [chest]\n    secondary_muscles: [triceps, shoulders]\n    equipment: [barbell, bench, rack]",
         "    muscles: [chest]\n    secondary_muscles: [triceps, shoulders]\n    equipment: [barbel, bench, rack]", "barbel", "barbell"),
        ("catalogs/exercise-catalog.yaml", "    muscles: [chest]\n    secondary_muscles: [triceps, shoulders]\n",
         "    muscles: [chests]\n    secondary_muscles: [triceps, shoulders]\n", "chests", "chest"),
        ("catalogs/exercise-catalog.yaml", "    regressions: [dumbbell_bench_press, machine_chest_press]",
         "    regressions: [dumbbell_bench_press, machine_chest_pres]", "machine_chest_pres", "machine_chest_press"),
        ("rules/readiness-rules.yaml", "  arms: [biceps, triceps]", "  arms: [biceps, tricep]", "tricep", "triceps"),
        ("rules/periodization.yaml", "  strength:  {}", "  strenght:  {}", "strenght", "strength"),
        ("rules/nutrition.yaml", "  recomp:\n", "  recomps:\n", "recomps", "recomp"),
        // A strength pattern's muscle loaded silently (its weekly minimum then never applied).
        ("rules/training-selection.yaml", "      horizontal_push: chest\n", "      horizontal_push: chestt\n", "chestt", "chest"),
        ("rules/training-selection.yaml", "      hinge: hamstrings\n", "      hingee: hamstrings\n", "hingee", "hinge"),
        ("catalogs/ingredients.yaml", "    food_group: fish\n", "    food_group: fishh\n", "fishh", "fish"),
        ("rules/meals.yaml", "  food_group_penalty: {protein_powders: 0.5}", "  food_group_penalty: {protein_powderss: 0.5}", "protein_powderss", "protein_powders"),
    ])
    func theHuntsReferencesFailAtTheWord(file: String, old: String, new: String, needle: String, suggestion: String) throws {
        var files = try NearMissPropertyTests.files()
        let index = try #require(files.firstIndex { $0.path == file })
        #expect(files[index].text.contains(old), "the edit must apply: \(new)")
        if let range = files[index].text.range(of: old) { files[index].text.replaceSubrange(range, with: new) }
        let lines = files[index].text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let row = try #require(lines.firstIndex { $0.range(of: "\\b\(needle)\\b", options: .regularExpression) != nil })
        let prefix = try #require(lines[row].range(of: "\\b\(needle)\\b", options: .regularExpression)).lowerBound
        let column = lines[row][..<prefix].unicodeScalars.count + 1
        let errors = NearMissPropertyTests.load(files).diagnostics.filter { $0.severity == .error }
        let atWord = errors.first { $0.location == SourceLocation(file: file, line: row + 1, column: column) }
        #expect(atWord != nil, "\(errors)")
        #expect(atWord?.message.contains("did you mean '\(suggestion)'") == true, "\(String(describing: atWord?.message))")
    }
}
