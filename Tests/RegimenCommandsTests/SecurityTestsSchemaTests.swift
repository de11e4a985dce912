import Foundation
import OrderedCollections
@testable import RegimenLanguage
@testable import RegimenRules
@testable import RegimenSecurity
import RegimenTestSupport
import Testing

/// The security test files' schema is described from the test-file loader's own reads: over a
/// grid of variants of the shipped test files (each top key and each case key removed, replaced
/// by values of every type and at the bounds, an unknown key added), the loader rejects a
/// variant for its shape exactly when the described shape rejects it.
@Suite struct SecurityTestsSchemaTests {
    /// What the schema leaves to the loader: duplicate names, tagged values inside documents, and
    /// whether a path names a document or a collection (its number of segments: that depends on
    /// whether the named policy is for Firestore or Storage). scripts/schema-check.py leaves out
    /// the same.
    static let loaderOnly: Set<String> = ["tests.duplicate-name", "tests.value"]

    static func isShapeProblem(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.severity == .error && !loaderOnly.contains(diagnostic.id)
            && !(diagnostic.id == "tests.path" && diagnostic.message.contains("number of segments"))
    }

    static let shippedFiles = [
        "coach-app/firestore.tests.yaml", "planner/firestore.tests.yaml", "trainer-student/firestore.tests.yaml",
        "trainer-student/storage.tests.yaml", "workout-tracker/appendix-a.tests.yaml", "workout-tracker/corrected.tests.yaml",
    ]

    static var shape: MappingShape { RuleFileSchema.shape(of: SecurityTestsFile.self) }

    /// The shape problems the loader reports in `text` (none: it accepts the file's shape).
    static func shapeProblems(_ text: String, file: String) -> [Diagnostic] {
        do {
            _ = try SecurityTestSuite.parse(text, file: file)
            return []
        } catch {
            return error.diagnostics.filter(isShapeProblem)
        }
    }

    @Test func theSchemaDescribesTheTestFilesKeys() {
        let shape = Self.shape
        #expect(Set(shape.properties.keys) == ["kind", "version", "rules", "time", "bucket", "documents", "cases"])
        #expect(Set(shape.required) == ["kind", "version", "rules", "cases"])
        #expect(shape.otherKeys == nil)
        guard case .list(.anyOf(let alternatives))? = shape.properties["cases"] else {
            Issue.record("cases is not a list of alternatives: \(String(describing: shape.properties["cases"]))")
            return
        }
        var keysByOperation: [String: Set<String>] = [:]
        var requiredByOperation: [String: [String]] = [:]
        for case .mapping(let mapping) in alternatives {
            #expect(mapping.otherKeys == nil)
            let operation = mapping.required.first { !["name", "expect"].contains($0) } ?? "?"
            keysByOperation[operation] = Set(mapping.properties.keys)
            #expect(mapping.required.prefix(3) == ["name", "expect", operation])
            requiredByOperation[operation] = Array(mapping.required.dropFirst(3))
        }
        #expect(requiredByOperation == ["create": ["data"], "update": ["data"], "set": ["data"], "upload": ["size"]]
            .merging(["get", "list", "delete", "download"].map { ($0, []) }) { a, _ in a })
        let common: Set = ["name", "auth", "time", "expect", "documents"]
        #expect(keysByOperation["get"] == common.union(["get"]))
        #expect(keysByOperation["list"] == common.union(["list", "query"]))
        #expect(keysByOperation["create"] == common.union(["create", "data"]))
        #expect(keysByOperation["upload"] == common.union(["upload", "size", "contentType", "metadata"]))
        #expect(keysByOperation.count == 8)
    }

    @Test func loaderRejectsExactlyWhatItsDescribedShapeRejects() throws {
        let shape = Self.shape
        var checks = 0
        var disagreements: [String] = []
        var seen = Set<String>()
        for name in Self.shippedFiles {
            let path = "rules/security/\(name)"
            let file = RepositoryRoot.url.appendingPathComponent(path).path
            let text = try String(contentsOfFile: file, encoding: .utf8)
            guard case .map(let base)? = YAMLReader.read(text, file: path).document?.value(),
                  case .list(let cases)? = base["cases"]
            else {
                Issue.record("\(path) is not a mapping with cases")
                continue
            }
            // The top keys; `rules` names another file, so only its absence is tried.
            var variants = ShapeAcceptance.variants(
                of: base, removable: { $0 != "kind" && $0 != "version" },
                replacements: shape.properties.filter { !["kind", "version", "rules"].contains($0.key) }
                    .map { (key: $0.key, values: Self.candidates(for: $0.value)) })
            // One case of each operation (from the first file that has one), alone in the file,
            // with each of its keys (and each key any case may have) removed or changed.
            let caseKeys = Self.caseKeyShapes(shape)
            for case .map(let testCase) in cases {
                guard let verb = testCase.keys.first(where: { SecurityTestsSchemaTests.operations.contains($0) }), seen.insert(verb).inserted else { continue }
                let caseVariants = ShapeAcceptance.variants(
                    of: testCase, unknown: .string("x"),
                    replacements: caseKeys.map { (key: $0.key, values: $0.value.flatMap(Self.candidates(for:))) }
                ).dropFirst()
                for (what, changed) in caseVariants {
                    var document = base
                    document["cases"] = .list([.map(changed)])
                    variants.append(("case '\(verb)' \(what)", document))
                }
            }
            for (what, document) in variants {
                let problems = Self.shapeProblems(Self.yaml(.map(document)), file: file)
                let accepted = problems.isEmpty
                let described = ShapeAcceptance.accepts(.mapping(shape), .map(document))
                if accepted != described {
                    let ids = problems.map(\.id).joined(separator: ", ")
                    disagreements.append("\(name) \(what): loader accepts \(accepted) (\(ids)), schema accepts \(described)")
                }
                checks += 1
            }
        }
        #expect(checks > 2000)
        #expect(disagreements == [], "\(disagreements.count) of \(checks) disagree")
    }

    static let operations: Set = ["get", "list", "create", "update", "set", "delete", "upload", "download"]

    /// Every key any case may have, with its shapes in the alternatives that have it.
    static func caseKeyShapes(_ shape: MappingShape) -> OrderedDictionary<String, [NodeShape]> {
        var keys = OrderedDictionary<String, [NodeShape]>()
        guard case .list(.anyOf(let alternatives))? = shape.properties["cases"] else { return keys }
        for case .mapping(let mapping) in alternatives {
            for (key, keyShape) in mapping.properties where !(keys[key]?.contains(keyShape) ?? false) {
                keys[key, default: []].append(keyShape)
            }
        }
        return keys
    }

    /// The profile's candidates, date-times (written bare, as the reader types them), and the
    /// keys of a mapping with wrong values and one more key.
    static func candidates(for shape: NodeShape) -> [Value] {
        var values = ProfileSchemaTests.candidates(for: shape)
        values += [.string("2026-01-01T08:00:00Z"), .string("2026-01-01"), .string("users/u9"), .string("users"), .string(""), .string("users//u9"), .string("/users/u9")]
        // Documents by path (paths with empty segments too), where clauses of each form, quoted
        // and impossible date-times.
        values += [
            .map(["a/b": .map(["x": .int(1)])]), .map(["a/b": .null]), .map(["a//b": .map([:])]), .map(["/": .map([:])]), .map(["users/u1/": .null]),
            .list([.list([.string("a"), .string("=="), .int(1)])]), .list([.list([.string("a"), .string("in"), .int(1)])]),
            .list([.list([.string("a"), .string("in"), .list([.int(1)])])]), .list([.list([.null, .string("=="), .int(1)])]),
            .list([.list([.string("a"), .string("zz"), .int(1)])]), .list([.list([.string("a"), .string("==")])]), .list([.string("a")]),
            .map(["$timestamp": .string("2026-01-01T08:00:00Z")]), .map(["$timestamp": .string("soon")]), .string("2026-13-01"), .string("2026-01-01T25:00:00Z"),
        ]
        for alternative in ProfileSchemaTests.alternatives(shape) {
            switch alternative {
            case .mapping(let mapping):
                var full = OrderedDictionary<String, Value>()
                for key in mapping.properties.keys { full[key] = .string("a") }
                values += [.map(full), .map(full.merging(["zz_extra_field": .int(1)]) { a, _ in a })]
            case .dictionary, .list:
                values += [.list([.string("a desc")]), .list([.list([.string("a"), .string("==")])])]
            default:
                break
            }
        }
        return values
    }

    /// `value` as flow YAML the loader reads back as the same value: strings quoted, except
    /// date-times, which are written bare so that the reader types them as timestamps.
    static func yaml(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .float(let number): return String(number)
        case .string(let text):
            if text.count >= 10, text.first?.isNumber == true, Timestamp(iso8601: text) != nil { return text }
            return quoted(text)
        case .list(let items): return "[" + items.map(yaml).joined(separator: ", ") + "]"
        case .map(let map): return "{" + map.map { quoted($0.key) + ": " + yaml($0.value) }.joined(separator: ", ") + "}"
        default: return quoted(value.description)
        }
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
