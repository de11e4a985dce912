import Foundation
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// The schemas are as strict as `check` where JSON Schema can say it: muscles, equipment tags and
/// exercise ids are `enum`s of the words the loaded rules and catalogs define, set ranges and
/// prescriptions carry the pattern the loader reads them by. For each typo the issue names, the
/// schema `regimen schema` writes and `regimen check` both reject it; a backwards range is
/// check's alone.
@Suite(.serialized) struct SchemaVocabularyTests {
    /// The schema of `kind` as `regimen schema` prints it for the rules under `folder`.
    static func schema(_ kind: String, in folder: URL) throws -> [String: Any] {
        let run = runRegimen(["schema", kind, "--rules", "rules", "--catalogs", "catalogs"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    }

    /// The schema fragment at `path` (object keys and `items`).
    static func fragment(_ schema: [String: Any], _ path: [String]) -> [String: Any]? {
        var node: Any? = schema
        for key in path { node = (node as? [String: Any])?[key] }
        return node as? [String: Any]
    }

    static func words(_ schema: [String: Any], _ path: [String]) -> Set<String> {
        Set((fragment(schema, path)?["enum"] as? [String]) ?? [])
    }

    static func matches(_ schema: [String: Any]?, _ text: String) -> Bool {
        let patterns = ((schema?["anyOf"] as? [[String: Any]]) ?? [schema ?? [:]]).compactMap { $0["pattern"] as? String }
        return patterns.contains { pattern in (try? Regex(pattern)).flatMap { try? $0.wholeMatch(in: text) } != nil }
    }

    @Test func theIssuesTyposAreRejectedByTheSchemaAndByCheck() throws {
        let copy = try ExpressionTypeCheckTests.rulesCopy(editing: "training_volume") { $0 }
        defer { copy.scratch.cleanUp() }
        let catalog = try Self.schema("exercise_catalog", in: copy.scratch.url)
        let exercise = ["properties", "exercises", "items", "properties"]
        let muscles = Self.words(catalog, exercise + ["muscles", "items"])
        #expect(muscles.contains("chest") && !muscles.contains("chests"), "\(muscles.sorted())")
        #expect(Self.words(catalog, exercise + ["secondary_muscles", "items"]) == muscles)
        let equipment = Self.words(catalog, exercise + ["equipment", "items"])
        #expect(equipment.contains("barbell") && !equipment.contains("barbel"), "\(equipment.sorted())")
        let regressions = Self.words(catalog, exercise + ["regressions", "items"])
        #expect(regressions.contains("dumbbell_bench_press") && !regressions.contains("dumbbell_bench_pres"))
        #expect(Self.words(catalog, exercise + ["progressions", "items"]) == regressions)

        let volume = try Self.schema("training_volume", in: copy.scratch.url)
        let sets = Self.fragment(volume, ["properties", "bands", "properties", "rows", "items", "properties", "sets"])
        #expect(Self.matches(sets, "12-16") && Self.matches(sets, "12–16") && Self.matches(sets, "10"))
        #expect(!Self.matches(sets, "14 to 18"), "\(String(describing: sets))")
        // A backwards range has the written form; only check compares the two numbers.
        #expect(Self.matches(sets, "18-14"))
        #expect(Self.words(volume, ["properties", "default_experience"]).contains("intermediate"))
        #expect(!Self.words(volume, ["properties", "default_experience"]).contains("experiance"))
        let goals = try Self.schema("training_goals", in: copy.scratch.url)
        let compound = Self.fragment(goals, ["properties", "modifiers", "properties", "rows", "items", "properties", "compound"])
        #expect(Self.matches(compound, "4x6-10 @RIR 1-3") && !Self.matches(compound, "4 sets of 6-10"))

        // check rejects each at its own line, with a shape id (the schema's words) or, for the
        // backwards range, its own id.
        let edits: [(kind: String, old: String, new: String, id: String)] = [
            ("exercise_catalog", "    muscles: [chest]\n    secondary_muscles: [triceps, shoulders]\n    equipment: [barbell, bench, rack]",
             "    muscles: [chests]\n    secondary_muscles: [triceps, shoulders]\n    equipment: [barbel, bench, rack]", "rules.unknown-value"),
            ("exercise_catalog", "    regressions: [dumbbell_bench_press, machine_chest_press]", "    regressions: [dumbbell_bench_pres, machine_chest_press]", "rules.unknown-value"),
            ("training_volume", "      sets: 12-16", "      sets: 14 to 18", "rules.notation-form"),
            ("training_volume", "      sets: 12-16", "      sets: 18-14", "rules.bad-notation"),
            ("training_volume", "default_experience: novice", "default_experience: experiance", "rules.unknown-value"),
        ]
        for edit in edits {
            let edited = try Self.catalogOrRulesCopy(edit.kind) { text in
                #expect(text.contains(edit.old), "the edit \(edit.new) must apply")
                return text.replacingOccurrences(of: edit.old, with: edit.new)
            }
            defer { edited.cleanUp() }
            let run = runRegimen(["check", "--rules", "rules", "--catalogs", "catalogs", "--format", "json"], in: edited.url)
            #expect(run.status == 1, "\(edit.new): \(run.standardOutput)")
            #expect(run.standardOutput.contains("\"\(edit.id)\""), "\(edit.new): \(run.standardOutput)")
        }
    }

    /// A coach's own catalogs give the coach's own enums: an equipment tag added to a profile of
    /// the coach's training-selection file is in the exercise catalog's schema.
    @Test func aCoachsOwnRulesGiveTheirOwnWords() throws {
        let copy = try ExpressionTypeCheckTests.rulesCopy(editing: "training_selection") { text in
            text.replacingOccurrences(of: "full_gym: [", with: "full_gym: [prowler_sled, ")
        }
        defer { copy.scratch.cleanUp() }
        #expect(copy.text.contains("full_gym: [prowler_sled, "), "the edit must apply")
        let exercise = ["properties", "exercises", "items", "properties", "equipment", "items"]
        let own = try Self.schema("exercise_catalog", in: copy.scratch.url)
        #expect(Self.words(own, exercise).contains("prowler_sled"))
        let bundled = try Self.schema("exercise_catalog", in: RepositoryRoot.url)
        #expect(!Self.words(bundled, exercise).contains("prowler_sled") && !Self.words(bundled, exercise).isEmpty)
    }

    /// The food and supplement vocabularies are `enum`s too: ingredient ids and food tags wherever
    /// a diet, an ingredient or a supplement names them, a supplement's goals and the items it is
    /// redundant with. Each typo is rejected by the schema and by `check` at its own line with a
    /// shape id and a suggestion; a supplement's misspelt tag loaded on main (it would show a
    /// vegan the whey), and the others were reported under a loader-only id the schema left alone.
    @Test func foodAndSupplementWordsAreEnumsAndCheckRejectsEachTypoAtItsLine() throws {
        let root = RepositoryRoot.url
        let diets = try Self.schema("dietary_exclusions", in: root)
        let exclusion = ["properties", "exclusions", "additionalProperties", "properties"]
        let tags = Self.words(diets, exclusion + ["excludes", "items"])
        #expect(tags.contains("meat") && tags.contains("tree_nut") && !tags.contains("meats"), "\(tags.sorted())")
        #expect(Self.words(diets, ["properties", "tags", "items"]) == tags)
        let ingredientIds = Self.words(diets, exclusion + ["ingredients", "items"])
        #expect(ingredientIds.contains("chicken_breast") && !ingredientIds.contains("chicken_brest") && ingredientIds.count > 20)
        let ingredients = try Self.schema("ingredients", in: root)
        #expect(Self.words(ingredients, ["properties", "ingredients", "items", "properties", "contains", "items"]) == tags)
        let catalog = try Self.schema("supplement_catalog", in: root)
        let item = ["properties", "supplements", "items", "properties"]
        #expect(Self.words(catalog, item + ["contains", "items"]) == tags)
        #expect(Self.words(catalog, item + ["usual_source_contains", "items"]) == tags)
        let goals = Self.words(catalog, item + ["goals", "items"])
        #expect(goals.contains("general_health") && goals.contains("fat_loss") && !goals.contains("fat_los"))
        #expect(Self.words(catalog, item + ["redundant_with", "items"]).contains("whey_protein"))
        let rules = try Self.schema("supplement_rules", in: root)
        #expect(Self.words(rules, ["properties", "advisor", "properties", "always_include_goals", "items"]) == goals)

        let edits: [(kind: String, old: String, new: String, needle: String, suggestion: String)] = [
            ("dietary_exclusions", "vegan: {excludes: [meat,", "vegan: {excludes: [meats,", "meats", "meat"),
            ("dietary_exclusions", "pescatarian: {excludes: [meat]}", "pescatarian: {excludes: [meat], ingredients: [chicken_brest]}", "chicken_brest", "chicken_breast"),
            ("ingredients", "    contains: [meat]\n", "    contains: [meats]\n", "meats", "meat"),
            ("supplement_catalog", "    contains: [dairy]\n", "    contains: [diary]\n", "diary", "dairy"),
            ("supplement_catalog", "    redundant_with: [whey_protein]\n", "    redundant_with: [whey_protien]\n", "whey_protien", "whey_protein"),
        ]
        for edit in edits {
            var editedText = ""
            let edited = try Self.catalogOrRulesCopy(edit.kind) { text in
                #expect(text.contains(edit.old), "the edit \(edit.new) must apply")
                if let range = text.range(of: edit.old) { editedText = text.replacingCharacters(in: range, with: edit.new) }
                return editedText
            }
            defer { edited.cleanUp() }
            let lines = editedText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let row = try #require(lines.firstIndex { $0.contains(edit.needle) })
            let column = (lines[row].components(separatedBy: edit.needle).first ?? "").unicodeScalars.count + 1
            let run = runRegimen(["check", "--rules", "rules", "--catalogs", "catalogs", "--format", "json"], in: edited.url)
            #expect(run.status == 1, "\(edit.new): \(run.standardOutput)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            let errors = ((report["diagnostics"] as? [[String: Any]]) ?? []).filter { $0["severity"] as? String == "error" }
            let atWord = errors.first { ($0["line"] as? Int) == row + 1 && ($0["column"] as? Int) == column }
            #expect(atWord?["id"] as? String == "rules.unknown-value", "\(edit.new): \(errors)")
            #expect((atWord?["message"] as? String)?.contains("did you mean '\(edit.suggestion)'") == true, "\(edit.new): \(errors)")
        }
    }

    /// A coach's own ingredient catalog gives the coach's own ingredient ids.
    @Test func aCoachsOwnIngredientsGiveTheirOwnIds() throws {
        let edited = try Self.catalogOrRulesCopy("ingredients") { $0.replacingOccurrences(of: "  - id: chicken_breast\n", with: "  - id: gym_chicken_breast\n") }
        defer { edited.cleanUp() }
        let ids = Self.words(try Self.schema("dietary_exclusions", in: edited.url),
                             ["properties", "exclusions", "additionalProperties", "properties", "ingredients", "items"])
        #expect(ids.contains("gym_chicken_breast") && !ids.contains("chicken_breast"), "\(ids.sorted())")
    }

    /// A copy of rules/ and catalogs/ with `edit` applied to the file of `kind` in either folder.
    static func catalogOrRulesCopy(_ kind: String, _ edit: (String) -> String) throws -> ScratchDirectory {
        let scratch = try ScratchDirectory([:])
        let manager = FileManager.default
        for folder in ["rules", "catalogs"] {
            try manager.copyItem(at: RepositoryRoot.url.appendingPathComponent(folder), to: scratch.url.appendingPathComponent(folder))
        }
        for folder in ["rules", "catalogs"] {
            let directory = scratch.url.appendingPathComponent(folder)
            for name in try manager.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".yaml") {
                let url = directory.appendingPathComponent(name)
                let text = try String(contentsOf: url, encoding: .utf8)
                guard text.split(separator: "\n").contains(where: { $0 == "kind: \(kind)" }) else { continue }
                try edit(text).write(to: url, atomically: true, encoding: .utf8)
                return scratch
            }
        }
        scratch.cleanUp()
        throw CocoaError(.fileNoSuchFile)
    }
}
