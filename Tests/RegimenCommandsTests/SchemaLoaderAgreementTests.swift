import Foundation
@testable import RegimenKit
@testable import RegimenLanguage
@testable import RegimenRules
@testable import RegimenSecurity
import RegimenTestSupport
import Testing

/// Each place the mutation check (scripts/schema-check.py) once found the schema and the loader
/// disagreeing on a file's shape, as a mutant of a shipped file: the loader reports a shape
/// problem (the ids the check counts) exactly when the kind's described shape rejects the file,
/// and the loader's rules between values or about what an expression computes carry ids of their
/// own, not shape ids.
@Suite struct SchemaLoaderAgreementTests {
    /// The ids scripts/schema-check.py counts as shape problems.
    static let shapeIds: Set<String> = [
        "rules.missing-key", "rules.unknown-key", "rules.wrong-type", "rules.out-of-range", "rules.unknown-value",
        "rules.unknown-kind", "rules.unsupported-version", "rules.range", "rules.notation-form",
    ]

    struct Mutant: CustomStringConvertible, Sendable {
        let file: String
        let path: [RuleFileSchemaTests.Step]
        /// The new value; `nil` removes the key.
        let value: Value?
        /// Whether both reject the mutant (otherwise both accept it).
        let rejected: Bool
        /// An id the loader must report, when the check is about which id.
        var id: String?
        var description: String { "\(file) \(path.map(\.description).joined(separator: ".")) = \(value.map { "\($0)" } ?? "(removed)")" }
    }

    static let mutants: [Mutant] = [
        // An activity's only row removed: `rows` must hold one (the schema's minProperties).
        Mutant(file: "catalogs/activity-catalog.yaml", path: [.key("activities"), .key("pilates"), .key("rows")], value: .map([:]), rejected: true),
        // A row's wrong MET is that row's error, not also "no rows".
        Mutant(file: "catalogs/activity-catalog.yaml", path: [.key("activities"), .key("pilates"), .key("rows"), .key("moderate"), .key("met")],
               value: .string("zz"), rejected: true),
        // `usual` among the rows is a rule between values: the loader's alone, with its own id.
        Mutant(file: "catalogs/activity-catalog.yaml", path: [.key("activities"), .key("pilates"), .key("usual")], value: .string("zz_level"),
               rejected: false, id: "rules.unknown-reference"),
        // One multiplier per number of training days, 1 to 6, and no other key.
        Mutant(file: "rules/activity-multipliers.yaml", path: [.key("by_training_days"), .key("zz_mutant_key")], value: .string("x"), rejected: true),
        Mutant(file: "rules/activity-multipliers.yaml", path: [.key("by_training_days"), .key("7")], value: .float(1.5), rejected: true),
        Mutant(file: "rules/activity-multipliers.yaml", path: [.key("by_training_days"), .key("5")], value: nil, rejected: true),
        // The deload focus is required; a wrong value in it is not also a missing focus.
        Mutant(file: "rules/periodization.yaml", path: [.key("focus"), .key("deload")], value: nil, rejected: true),
        Mutant(file: "rules/periodization.yaml", path: [.key("focus"), .key("deload"), .key("purpose")], value: .list([]), rejected: true),
        // Load steps are read key by key.
        Mutant(file: "rules/progression-rules.yaml", path: [.key("increments")], value: .list([]), rejected: true),
        Mutant(file: "rules/progression-rules.yaml", path: [.key("increments"), .key("dumbbell")], value: .null, rejected: true),
        Mutant(file: "rules/progression-rules.yaml", path: [.key("increments"), .key("kettlebell")], value: .map([:]), rejected: true),
        // A misspelled name in the only action is an expression error, not "then changes nothing".
        Mutant(file: "rules/progression-rules.yaml", path: [.key("rules"), .index(0), .key("then"), .key("sets")], value: .string("zz_mutant_word"),
               rejected: false),
        // A `then` naming no action is a shape problem; one whose actions are all false changes
        // nothing, a rule between values with its own id.
        Mutant(file: "rules/readiness-rules.yaml", path: [.key("rules"), .index(0), .key("then")], value: .map([:]), rejected: true),
        Mutant(file: "rules/readiness-rules.yaml", path: [.key("rules"), .index(0), .key("then")], value: .map(["deload": .bool(false)]),
               rejected: false, id: "rules.no-effect"),
        // What the score computes is the expression's: its own id, and any scalar in the schema.
        Mutant(file: "rules/readiness-rules.yaml", path: [.key("checkin_readiness"), .key("score")], value: .bool(true),
               rejected: false, id: "rules.expression-type"),
        Mutant(file: "rules/readiness-rules.yaml", path: [.key("checkin_readiness"), .key("let")], value: .list([]), rejected: true),
        // A set range in words is not in the range's written form (the schema's pattern); one that
        // runs backwards is, and only the loader compares its two numbers.
        Mutant(file: "rules/training-volume.yaml", path: [.key("bands"), .key("rows"), .index(1), .key("sets")], value: .string("14 to 18"),
               rejected: true, id: "rules.notation-form"),
        Mutant(file: "rules/training-volume.yaml", path: [.key("bands"), .key("rows"), .index(1), .key("sets")], value: .string("18-14"),
               rejected: false, id: "rules.bad-notation"),
        Mutant(file: "rules/training-volume.yaml", path: [.key("bands"), .key("rows"), .index(1), .key("sets")], value: .int(12),
               rejected: false),
        Mutant(file: "rules/training-goals.yaml", path: [.key("modifiers"), .key("rows"), .index(0), .key("compound")], value: .string("4 sets of 6-10"),
               rejected: true, id: "rules.notation-form"),
        // The goal table names the goals it covers.
        Mutant(file: "rules/training-goals.yaml", path: [.key("modifiers"), .key("domain")], value: nil, rejected: true),
        // A plan's macros and meal categories are fixed names with expected numbers.
        Mutant(file: "rules/tests/plan-tests-nutrition.yaml", path: [.key("cases"), .index(4), .key("expect"), .key("meal_options"), .key("fat")],
               value: .string("zz_mutant_word"), rejected: true),
        Mutant(file: "rules/tests/plan-tests-nutrition.yaml", path: [.key("cases"), .index(4), .key("expect"), .key("meal_options"), .key("zz_meat")],
               value: .int(3), rejected: true),
        Mutant(file: "rules/tests/plan-tests-training.yaml", path: [.key("cases"), .index(0), .key("assert")], value: .list([.int(7)]),
               rejected: false, id: "rules.expression-type"),
    ]

    @Test(arguments: mutants)
    func schemaAndLoaderAgreeOnTheShape(_ mutant: Mutant) throws {
        let text = try String(contentsOf: RepositoryRoot.appending(mutant.file), encoding: .utf8)
        let document = try #require(YAMLReader.read(text, file: mutant.file).document).value()
        let changed = try #require(Self.changing(document, at: mutant.path[...], to: mutant.value), "\(mutant): no such place")
        guard case .map(let top) = changed, let kind = top["kind"]?.stringValue else {
            Issue.record("\(mutant): no kind")
            return
        }
        let type = try #require(RegimenSchemas.kinds.first { $0.kind == kind })
        let errors = RuleSetLoader(kinds: RegimenRuleKinds.all).load(files: [(mutant.file, changed.jsonString())]).diagnostics
            .filter { $0.severity == .error }
        let loaderRejects = errors.contains { Self.shapeIds.contains($0.id) }
        let schemaRejects = !ShapeAcceptance.accepts(.mapping(RuleFileSchema.shape(of: type)), changed)
        #expect(loaderRejects == mutant.rejected, "\(mutant): loader \(errors.map { "\($0.id): \($0.message)" })")
        #expect(schemaRejects == mutant.rejected, "\(mutant): schema")
        if let id = mutant.id { #expect(errors.contains { $0.id == id }, "\(mutant): \(errors.map(\.id))") }
    }

    /// Property over every kind: its hyphenated spelling (`security-tests`) is read with a
    /// deprecation warning, and its schema accepts it as deprecated; a spelling with a doubled
    /// hyphen is an unknown kind to both.
    @Test func hyphenatedKindsAreDeprecatedInTheSchemaToo() throws {
        let loader = RuleSetLoader(kinds: RegimenRuleKinds.all)
        var checked = 0
        for type in RegimenSchemas.kinds where type.kind.contains("_") {
            let kindShape = try #require(RuleFileSchema.shape(of: type).properties["kind"])
            let hyphenated = type.kind.replacingOccurrences(of: "_", with: "-")
            let doubled = type.kind.replacingOccurrences(of: "_", with: "--")
            let read = loader.load(files: [("x.yaml", "kind: \(hyphenated)\nversion: 1\n")]).diagnostics
            #expect(read.contains { $0.id == "rules.deprecated-kind" && $0.severity == .warning }, "\(hyphenated): \(read)")
            #expect(!read.contains { $0.id == "rules.unknown-kind" }, "\(hyphenated)")
            #expect(ShapeAcceptance.accepts(kindShape, .string(hyphenated)), "\(hyphenated)")
            #expect(ShapeAcceptance.accepts(kindShape, .string(type.kind)))
            #expect(kindShape.description.contains("\"deprecated\":true"), "\(kindShape)")
            let unknown = loader.load(files: [("x.yaml", "kind: \(doubled)\nversion: 1\n")]).diagnostics
            #expect(unknown.contains { $0.id == "rules.unknown-kind" }, "\(doubled)")
            #expect(!ShapeAcceptance.accepts(kindShape, .string(doubled)), "\(doubled)")
            checked += 1
        }
        #expect(checked >= 30)
    }

    /// A test file's `time:` is read quoted (as JSON writes it) as well as bare, as its schema
    /// says; a day that does not exist is the loader's alone (the schema's pattern checks digits).
    @Test func aQuotedTimeIsADateTime() throws {
        let policy = RepositoryRoot.appending("rules/security/planner/firestore.yaml").path
        func problems(_ time: String) -> [String] {
            let text = "kind: security_tests\nversion: 1\nrules: \(policy)\ntime: \(time)\ncases: []\n"
            do {
                _ = try SecurityTestSuite.parse(text, file: "t.yaml")
                return []
            } catch {
                return error.diagnostics.map(\.id)
            }
        }
        let shape = try #require(RuleFileSchema.shape(of: SecurityTestsFile.self).properties["time"])
        for (time, accepted) in [("2026-01-01T08:00:00Z", true), ("\"2026-01-01T08:00:00Z\"", true), ("'2026-01-01'", true), ("\"soon\"", false), ("\"2026-01-01T08:00\"", false)] {
            #expect(problems(time).isEmpty == accepted, "\(time): \(problems(time))")
            let value = time.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            #expect(ShapeAcceptance.accepts(shape, .string(value)) == accepted, "\(time)")
        }
        #expect(problems("\"2026-02-30\"") == ["tests.time"])
        #expect(ShapeAcceptance.accepts(shape, .string("2026-02-30")))
    }

    /// `value` with the value at `path` replaced (or removed, for `nil`); `nil` when a step of the
    /// path is not there (a new key at the end is added).
    static func changing(_ value: Value, at path: ArraySlice<RuleFileSchemaTests.Step>, to replacement: Value?) -> Value? {
        guard let step = path.first else { return replacement }
        switch (value, step) {
        case (.map(var map), .key(let key)):
            if path.count == 1 {
                map[key] = replacement
                return .map(map)
            }
            guard let inner = map[key], let changed = changing(inner, at: path.dropFirst(), to: replacement) else { return nil }
            map[key] = changed
            return .map(map)
        case (.list(var items), .index(let index)) where items.indices.contains(index):
            guard let changed = changing(items[index], at: path.dropFirst(), to: replacement) else { return nil }
            items[index] = changed
            return .list(items)
        default:
            return nil
        }
    }
}
