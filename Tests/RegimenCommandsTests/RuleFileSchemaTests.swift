import Foundation
import OrderedCollections
@testable import RegimenKit
@testable import RegimenLanguage
@testable import RegimenRules
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// The JSON Schemas of `schemas/` are described from the kinds' own decode functions: every kind
/// has one, the committed files are what `regimen schema` writes today, every shipped file names
/// its schema, and the schema's required and closed keys are exactly the loader's.
@Suite struct RuleFileSchemaTests {
    static let root = RepositoryRoot.url

    /// A kind added without regenerating `schemas/` fails here, naming the command to run.
    @Test func everyRegisteredKindHasACommittedUpToDateSchema() throws {
        let engine = try #require(try? RegimenEngine.bundled(from: Self.root), "the bundled rules load")
        let schemas = RegimenSchemas.all(engine: engine)
        let names = Set(schemas.map(\.name))
        for kind in RegimenRuleKinds.all.map({ $0.kind }) {
            #expect(names.contains(kind), "kind '\(kind)' has no schema")
        }
        let folder = Self.root.appendingPathComponent("schemas")
        let committed = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        for schema in schemas {
            let text = try? String(contentsOf: folder.appendingPathComponent(schema.fileName), encoding: .utf8)
            #expect(text == schema.text, "schemas/\(schema.fileName) is missing or out of date: run `swift run regimen schema --out schemas`")
        }
        let stray = committed.subtracting(schemas.map(\.fileName)).filter { $0.hasSuffix(".schema.json") }
        #expect(stray.isEmpty, "schemas/ holds files no kind writes: \(stray.sorted())")
    }

    /// Every rule and catalog file starts with the editor's schema line, naming its own kind's schema.
    @Test func everyShippedRuleFileNamesItsKindsSchema() throws {
        let files = Self.shippedRuleFiles()
        #expect(files.count >= 40)
        for relative in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
            let kind = try #require(Self.kind(of: text), "\(relative) has no kind")
            let depth = relative.split(separator: "/").count - 1
            let expected = "# yaml-language-server: $schema=\(String(repeating: "../", count: depth))schemas/\(RuleFileSchema.fileName(for: kind))"
            #expect(text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) == expected, "\(relative)")
        }
    }

    /// Property over every mapping of every shipped rule and catalog file (the first two at each
    /// place in the schema): deleting a key makes the loader report it missing exactly when the
    /// schema lists it as required, and never makes another key unknown; an extra key is reported
    /// unknown exactly when the schema closes that mapping (`additionalProperties: false`).
    @Test func requiredAndClosedKeysAreTheLoadersOwn() throws {
        let loader = RuleSetLoader(kinds: RegimenRuleKinds.all)
        var checks = 0
        var disagreements: [String] = []
        var siblingsUnknown: Set<String> = []
        for relative in Self.shippedRuleFiles() where !relative.hasPrefix("rules/security/") {
            let text = try String(contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
            let document = try #require(YAMLReader.read(text, file: relative).document).value()
            let kind = try #require(Self.kind(of: text))
            let type = try #require(RegimenSchemas.kinds.first { $0.kind == kind })
            let schema = RuleFileSchema.document(for: type)
            var seen: [String: Int] = [:]
            for (path, mapping) in Self.mappings(in: document) {
                let place = path.map { if case .index = $0 { "[]" } else { $0.description } }.joined(separator: "/")
                seen[place, default: 0] += 1
                guard seen[place, default: 0] <= 2, let subschema = Self.subschema(schema, at: path) else { continue }
                let required = Set(subschema.strings("required"))
                for key in mapping.keys where !(path.isEmpty && (key == "kind" || key == "version")) {
                    var removed = mapping
                    removed.removeValue(forKey: key)
                    let found = Self.diagnostics(loader, relative, document, path, removed)
                    let reported = found.contains { $0.id == "rules.missing-key" && $0.message.contains("\(key)'") }
                    if reported != required.contains(key), !Self.requiredByAnotherKey.contains("\(relative) \(place).\(key)") {
                        disagreements.append("\(relative) \(place).\(key): schema required \(required.contains(key)), loader reports missing \(reported)")
                    }
                    // A missing key never makes the keys beside it unknown (a decoder that stops
                    // early reports every key after it): a ratchet over the places that still do.
                    if found.contains(where: { $0.id == "rules.unknown-key" }) {
                        siblingsUnknown.insert("\(relative) \(place) without \(key)")
                    }
                    checks += 1
                }
                var extended = mapping
                extended["zz_extra_key"] = .int(1)
                let unknown = Self.diagnostics(loader, relative, document, path, extended).contains { $0.id == "rules.unknown-key" && $0.message.contains("zz_extra_key") }
                let closed = subschema.member("additionalProperties") == .bool(false)
                if unknown != closed {
                    disagreements.append("\(relative) \(place): schema closed \(closed), loader reports unknown key \(unknown)")
                }
                checks += 1
            }
        }
        #expect(checks > 500)
        #expect(disagreements == [], "\(disagreements.count) of \(checks) checks disagree")
        #expect(siblingsUnknown.subtracting(Self.stopsEarly) == [], "a missing key now makes its siblings unknown here")
        #expect(Self.stopsEarly.subtracting(siblingsUnknown) == [], "fixed: remove these from stopsEarly")
    }

    /// Keys whose removal the loader reports though the schema does not list them as required,
    /// because the schema says it otherwise: `sets` is required only beside `suggest_regression`
    /// (`dependentRequired`), and an activity's only row leaves `rows` empty (`minProperties`).
    static let requiredByAnotherKey: Set<String> = [
        "rules/readiness-rules.yaml rules/[]/then.sets",
        "catalogs/activity-catalog.yaml activities/calisthenics_vigorous/rows.vigorous",
    ]

    /// Entries whose decoder still stops at a missing key before reading the others, so the
    /// others are reported unknown as well (the schema is right; the loader's extra messages are
    /// noise). Each fix removes its line and adds it to ``collectEveryError``.
    static let stopsEarly: Set<String> = []

    /// Entries whose decoder once stopped at a missing key and now reads every key first.
    static let collectEveryError: [String] = [
        "rules/accuracy-ladder.yaml levels/[] without level",
        "rules/age-ranges.yaml ranges/[] without id",
        "rules/age-ranges.yaml ranges/[] without mapped_age",
        "rules/calorie-burn.yaml weight_kg without min",
        "rules/calorie-burn.yaml duration_minutes without min",
        "rules/calorie-burn.yaml intensity_levels/light without min_met",
        "rules/calorie-burn.yaml intensity_levels/light without max_met",
        "rules/calorie-burn.yaml intensity_levels/moderate without min_met",
        "rules/calorie-burn.yaml intensity_levels/moderate without max_met",
        "rules/calorie-burn.yaml intensity_levels/vigorous without min_met",
        "rules/calorie-burn.yaml intensity_levels/vigorous without max_met",
        "rules/goals.yaml goals/[] without id",
        "rules/tracker/tracker-queries.yaml queries/[] without name",
        "rules/training-goals.yaml modifiers/rows/[] without when",
        "rules/training-selection.yaml levels/rows/[] without when",
        "rules/training-session-limits.yaml limits/rows/[] without when",
        "rules/training-session-limits.yaml rest/rows/[] without when",
        "rules/training-splits.yaml split_by_days/rows/[] without when",
        "rules/training-volume.yaml bands/rows/[] without when",
        "catalogs/exercise-catalog.yaml exercises/[] without id",
        "catalogs/ingredients.yaml ingredients/[] without id",
        "catalogs/plan-templates.yaml templates/[] without id",
    ]

    /// Property of every converted entry: with its key removed and a sibling key given a value
    /// no decoder accepts (a list holding a mapping), one run reports both the missing key and
    /// the sibling's own error, and no key as unknown.
    @Test(arguments: collectEveryError)
    func aMissingKeyAndABadSiblingAreReportedInOneRun(_ entry: String) throws {
        let words = entry.split(separator: " ").map(String.init)
        let relative = words[0], place = words[1], key = words[3]
        let text = try String(contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
        let document = try #require(YAMLReader.read(text, file: relative).document).value()
        let found = try #require(Self.mappings(in: document).first { path, _ in
            path.map { if case .index = $0 { "[]" } else { $0.description } }.joined(separator: "/") == place
        }, "\(entry): no mapping at \(place)")
        var mapping = found.mapping
        mapping.removeValue(forKey: key)
        let sibling = try #require(mapping.keys.first, "\(entry): no other key")
        mapping[sibling] = .list([.map([:])])
        let loader = RuleSetLoader(kinds: RegimenRuleKinds.all)
        let errors = Self.diagnostics(loader, relative, document, found.path, mapping).filter { $0.severity == .error }
        #expect(errors.contains { $0.id == "rules.missing-key" && $0.message.contains("\(key)'") }, "\(entry): \(errors)")
        #expect(errors.contains { $0.id != "rules.missing-key" && $0.message.contains(sibling) }, "\(entry) (\(sibling)): \(errors)")
        #expect(!errors.contains { $0.id == "rules.unknown-key" }, "\(entry): \(errors)")
    }

    /// Constraints the loaders check that their described shapes now carry (each was a place the
    /// mutation check found the loader rejecting what the schema accepted): day types read
    /// through the decoder (closed, with their required keys), formulas and messages as scalars,
    /// a caution's action among its words, an action that needs another, and a `then` that must
    /// change something.
    @Test func describedShapesCarryTheLoadersOwnConstraints() throws {
        func schema(_ kind: String) throws -> Value {
            let type = try #require(RegimenSchemas.kinds.first { $0.kind == kind })
            return RuleFileSchema.document(for: type)
        }
        let dayType = try #require(Self.subschema(try schema("plan_templates"), at: [.key("day_types"), .key("push")]))
        #expect(dayType.member("additionalProperties") == .bool(false))
        #expect(Set(dayType.strings("required")) == ["focus", "muscles"])
        let scalar: Value = .list([.string("string"), .string("number"), .string("boolean")])
        for (kind, path) in [("periodization", ["weekly_intensity"]), ("calorie_burn", ["formulas", "seed", "kcal"]), ("tracker_analytics", ["estimated_1rm"])] {
            var place = try schema(kind)
            for key in path { place = try #require(place.member("properties")?.member(key) ?? place.member("additionalProperties"), "\(kind) \(key)") }
            #expect(place.member("type") == scalar, "\(kind) \(path): \(place)")
        }
        let caution = try #require(Self.subschema(try schema("supplement_rules"), at: [.key("cautions"), .index(0)]))
        #expect(caution.member("properties")?.member("action")?.member("enum") == .list([.string("exclude"), .string("caution"), .string("limit")]))
        #expect(caution.member("properties")?.member("message")?.member("type") == scalar)
        for kind in ["progression_rules", "readiness_rules"] {
            let then = try #require(Self.subschema(try schema(kind), at: [.key("rules"), .index(0), .key("then")]))
            #expect(then.member("minProperties") == .int(1), "\(kind)")
            #expect(then.member("dependentRequired")?.member("otherwise_load_pct") == .list([.string("lagging_set")]), "\(kind)")
        }
    }

    /// Property over a grid of expected-number spellings in a shipped plan test: the loader
    /// accepts a value exactly when the plan_tests schema's pattern (or its number) does; an
    /// inline profile is a mapping or a path, never a list.
    @Test func planTestExpectationsAreDescribedAsTheLoaderReadsThem() throws {
        let relative = "rules/tests/plan-tests-training.yaml"
        let text = try String(contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
        let type = try #require(RegimenSchemas.kinds.first { $0.kind == "plan_tests" })
        let schema = RuleFileSchema.document(for: type)
        let testCase = try #require(Self.subschema(schema, at: [.key("cases"), .index(0)]))
        let band = try #require(testCase.member("properties")?.member("expect")?.member("properties")?.member("weekly_sets")?.member("additionalProperties"))
        let pattern = try #require(band.member("anyOf")?.listItems?.compactMap { item -> String? in
            if case .string(let text)? = item.member("pattern") { text } else { nil }
        }.first)
        let regex = try NSRegularExpression(pattern: pattern)
        let profile = try #require(testCase.member("properties")?.member("profile")?.member("anyOf")?.listItems)
        #expect(Set(profile.compactMap { $0.member("type") }) == [.string("object"), .string("string")])
        let loader = RuleSetLoader(kinds: RegimenRuleKinds.all)
        var checks = 0
        for candidate in ["8-12", "8 - 12", ">= 8", "<=20", "8.5-12", "+8-12", "1e1-2e1", "12", "8-", "-8-12", "eight", "8-12-16", ">8", "8..12", "12-16 sets", "", "=> 8"] {
            let changed = text.replacingOccurrences(of: "weekly_sets: {chest: 8-12,", with: "weekly_sets: {chest: \"\(candidate)\",")
            #expect(changed != text)
            let errors = loader.load(files: [(relative, changed)]).diagnostics.filter { $0.severity == .error && $0.id == "rules.wrong-type" }
            let matches = regex.firstMatch(in: candidate, range: NSRange(candidate.startIndex..., in: candidate)) != nil
            #expect(errors.isEmpty == matches, "'\(candidate)': loader \(errors), pattern \(matches)")
            checks += 1
        }
        #expect(checks == 17)
    }

    /// A tracking formula written as null is an error, as every other expression is (it was read
    /// as an empty formula).
    @Test func aNullFormulaIsRejected() throws {
        let relative = "rules/tracker/tracker-duplication.yaml"
        let text = try String(contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
        let changed = text.replacingOccurrences(of: "order: \"max_sibling_value + 1\"", with: "order: ~")
        #expect(changed != text)
        let errors = RuleSetLoader(kinds: RegimenRuleKinds.all).load(files: [(relative, changed)]).diagnostics.filter { $0.severity == .error }
        #expect(errors.contains { $0.id == "rules.wrong-type" && $0.message.contains("order") }, "\(errors)")
    }

    /// Describing mode records what the decode calls ask for: ranges, words, lists, other keys.
    @Test func describingRecordsTheDecodeCalls() throws {
        enum Level: String, NodeEnum { case low, high }
        let context = DecodingContext.describing()
        let shape = context.shape { node in
            _ = context.mapping(node, at: DecodingPath()) { map -> Bool? in
                _ = map.required("sets", as: Int.self, in: 0...20)
                _ = map.optional("load", as: Double.self, in: 0.5...2.5)
                _ = map.optional("level", as: Level.self)
                _ = map.list("tags", required: false) { node, path in context.decode(node, as: String.self, at: path) }
                _ = map.mapping("by_day") { days -> Bool? in
                    for day in days.keys { _ = days.required(day, as: Bool.self) }
                    return nil
                }
                map.allow("description")
                return nil
            }
        }
        guard case .mapping(let mapping) = shape else {
            Issue.record("not a mapping: \(shape)")
            return
        }
        #expect(mapping.required == ["sets", "by_day"])
        #expect(mapping.otherKeys == nil)
        #expect(mapping.properties["sets"] == .integer(minimum: 0, maximum: 20))
        #expect(mapping.properties["load"] == .number(minimum: 0.5, maximum: 2.5))
        #expect(mapping.properties["level"] == .oneOf(["low", "high"]))
        #expect(mapping.properties["tags"] == .list(.text))
        #expect(mapping.properties["by_day"] == .mapping(MappingShape(otherKeys: .boolean)))
        #expect(mapping.properties["description"] == .anything(note: nil))
        #expect(context.diagnostics.isEmpty, "describing reports nothing: \(context.diagnostics)")
    }

    // MARK: - Helpers

    static func shippedRuleFiles() -> [String] {
        CommandGoldenCases.files(in: "rules", extensions: ["yaml"], recursive: true) + CommandGoldenCases.files(in: "catalogs", extensions: ["yaml"], recursive: true)
    }

    static func kind(of text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("kind:") }.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) }
    }

    enum Step: CustomStringConvertible {
        case key(String), index(Int)
        var description: String { if case .key(let key) = self { key } else { "[]" } }
    }

    /// Every mapping in `value` with its path, depth first.
    static func mappings(in value: Value, at path: [Step] = []) -> [(path: [Step], mapping: OrderedDictionary<String, Value>)] {
        switch value {
        case .map(let map):
            return [(path, map)] + map.flatMap { mappings(in: $0.value, at: path + [.key($0.key)]) }
        case .list(let items):
            return items.enumerated().flatMap { mappings(in: $0.element, at: path + [.index($0.offset)]) }
        default:
            return []
        }
    }

    /// The schema that applies at `path`, following properties, additionalProperties, items and
    /// the mapping alternative of an anyOf.
    static func subschema(_ schema: Value, at path: [Step]) -> Value? {
        var current = schema
        for step in path {
            if let alternatives = current.member("anyOf")?.listItems {
                let wanted = step.isIndex ? "array" : "object"
                guard let match = alternatives.first(where: { $0.member("type") == .string(wanted) }) else { return nil }
                current = match
            }
            switch step {
            case .key(let key):
                if let property = current.member("properties")?.member(key) {
                    current = property
                } else if let other = current.member("additionalProperties"), other != .bool(false) {
                    current = other
                } else {
                    return nil
                }
            case .index:
                guard let items = current.member("items") else { return nil }
                current = items
            }
        }
        if let alternatives = current.member("anyOf")?.listItems {
            return alternatives.first { $0.member("type") == .string("object") }
        }
        return current.member("type") == .string("object") ? current : nil
    }

    /// The loader's diagnostics for the file with the mapping at `path` replaced.
    static func diagnostics(_ loader: RuleSetLoader, _ path: String, _ document: Value, _ at: [Step], _ mapping: OrderedDictionary<String, Value>) -> [Diagnostic] {
        let changed = replacing(document, at: at[...], with: .map(mapping))
        return loader.load(files: [(path, changed.yamlString())]).diagnostics
    }

    static func replacing(_ value: Value, at path: ArraySlice<Step>, with replacement: Value) -> Value {
        guard let step = path.first else { return replacement }
        switch (value, step) {
        case (.map(var map), .key(let key)):
            if let inner = map[key] { map[key] = replacing(inner, at: path.dropFirst(), with: replacement) }
            return .map(map)
        case (.list(var items), .index(let index)) where items.indices.contains(index):
            items[index] = replacing(items[index], at: path.dropFirst(), with: replacement)
            return .list(items)
        default:
            return value
        }
    }
}

extension RuleFileSchemaTests.Step {
    var isIndex: Bool { if case .index = self { true } else { false } }
}

private extension Value {
    func member(_ key: String) -> Value? { if case .map(let map) = self { map[key] } else { nil } }
    var listItems: [Value]? { if case .list(let items) = self { items } else { nil } }
    func strings(_ key: String) -> [String] {
        member(key)?.listItems?.compactMap { if case .string(let text) = $0 { text } else { nil } } ?? []
    }
}
