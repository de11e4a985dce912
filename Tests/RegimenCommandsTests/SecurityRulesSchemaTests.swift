import Foundation
import OrderedCollections
@testable import RegimenLanguage
@testable import RegimenRules
@testable import RegimenSecurity
import RegimenTestSupport
import Testing

/// The YAML policies' schema is described from the policy reader's own reads: over variants of
/// the shipped policies (the YAML one, and two native ones converted to YAML: one for Storage, one
/// with `let` in its functions), where every value
/// at every depth is replaced by values of each type and by wrong paths, signatures and method
/// lists, every key renamed to those words and removed, and an unknown key added to every
/// mapping, the reader rejects a variant exactly when the described shape rejects it. The
/// reader only reads (it compiles no expression), so every problem it reports is one of shape.
@Suite struct SecurityRulesSchemaTests {
    static var shape: MappingShape { RuleFileSchema.shape(of: SecurityRulesFile.self) }

    /// The shipped policies as YAML values.
    static func shippedPolicies() throws -> [(String, Value)] {
        var texts: [(String, String)] = []
        for name in ["planner/firestore.yaml"] {
            texts.append((name, try String(contentsOf: RepositoryRoot.appending("rules/security/\(name)"), encoding: .utf8)))
        }
        for name in ["trainer-student/storage.rules", "trainer-student/firestore.rules"] {
            let policy = try PolicyLoader.load(file: RepositoryRoot.appending("rules/security/\(name)").path)
            texts.append((name, PolicyPrinter.yaml(policy)))
        }
        return texts.compactMap { name, text in
            guard let value = YAMLReader.read(text, file: name).document?.value() else { return nil }
            return (name, value)
        }
    }

    /// Values of each type, and words that are almost a path, a signature or a method list.
    static let candidates: [Value] = [
        .null, .bool(true), .int(7), .float(2.5), .string("zz_word"), .list([]), .map([:]), .list([.map([:])]),
        .string("/a/{b}"), .string("/a/{b=**}/{c=**}"), .string("/a/{b"), .string("a/b"), .string("/a//b"), .string("/a/x{b}"), .string("/"),
        .string("2"), .int(2), .int(3), .string("cloud.firestore"), .string("firebase.storage"),
    ]
    static let candidateKeys = [
        "f()", "f(a, b)", "f(a,,b)", "f( )", "1f()", "f(a", "read", "read, write", "read,", "READ", " get , list ", "",
        "x", "9x", "path", "allow", "let", "return",
    ]

    /// Every variant of `value` with one change at one place, named for messages.
    static func variants(of value: Value, at path: String = "") -> [(String, Value)] {
        var out = candidates.filter { $0 != value }.map { ("\(path) = \($0)", $0) }
        switch value {
        case .map(let map):
            for (key, item) in map {
                var removed = map
                removed.removeValue(forKey: key)
                out.append(("\(path) without \(key)", .map(removed)))
                for renamed in candidateKeys where map[renamed] == nil {
                    var changed = OrderedDictionary<String, Value>()
                    for (k, v) in map { changed[k == key ? renamed : k] = v }
                    out.append(("\(path) \(key) renamed '\(renamed)'", .map(changed)))
                }
                for (what, variant) in variants(of: item, at: "\(path)/\(key)") {
                    var changed = map
                    changed[key] = variant
                    out.append((what, .map(changed)))
                }
            }
            var extra = map
            extra["zz_extra_key"] = .int(1)
            out.append(("\(path) with an unknown key", .map(extra)))
        case .list(let items):
            for (index, item) in items.enumerated() {
                for (what, variant) in variants(of: item, at: "\(path)/\(index)") {
                    var changed = items
                    changed[index] = variant
                    out.append((what, .list(changed)))
                }
            }
        default:
            break
        }
        return out
    }

    @Test func theSchemaDescribesMatchBlocksAllowsAndFunctions() throws {
        let shape = Self.shape
        #expect(Set(shape.properties.keys) == ["kind", "version", "rules_version", "service", "functions", "match"])
        #expect(Set(shape.required) == ["kind", "version", "service"])
        #expect(shape.otherKeys == nil)
        guard case .list(.mapping(let block))? = shape.properties["match"] else {
            Issue.record("match is not a list of blocks: \(String(describing: shape.properties["match"]))")
            return
        }
        #expect(Set(block.properties.keys) == ["path", "functions", "allow", "match"])
        #expect(block.required == ["path"])
        #expect(block.properties["match"] == .list(.reference("#/properties/match/items")))
        #expect(ShapeAcceptance.resolve("#/properties/match/items", in: .mapping(shape)) == .mapping(block))
        guard case .list(.mapping(let allow))? = block.properties["allow"] else {
            Issue.record("allow is not a list of mappings")
            return
        }
        #expect(allow.maximumKeys == 1 && allow.nonEmpty)
        for method in MethodName.allCases {
            #expect(ShapeAcceptance.matches(try #require(allow.keyPattern), method.rawValue))
        }
    }

    @Test func readerRejectsExactlyWhatItsDescribedShapeRejects() throws {
        let root = NodeShape.mapping(Self.shape)
        var checks = 0
        var disagreements: [String] = []
        for (name, policy) in try Self.shippedPolicies() {
            for (what, variant) in [("unchanged", policy)] + Self.variants(of: policy) {
                guard case .map(let top) = variant, top["kind"] == .string("security_rules"), top["version"] == .int(1) else { continue }
                let accepted: Bool
                do {
                    _ = try YAMLPolicyReader.parse(SecurityTestsSchemaTests.yaml(variant), file: name)
                    accepted = true
                } catch {
                    accepted = false
                }
                let described = ShapeAcceptance.accepts(root, variant)
                if accepted != described { disagreements.append("\(name) \(what): reader accepts \(accepted), schema accepts \(described)") }
                checks += 1
            }
        }
        #expect(checks > 4000)
        #expect(disagreements.prefix(20) == [], "\(disagreements.count) of \(checks) disagree")
    }
}
