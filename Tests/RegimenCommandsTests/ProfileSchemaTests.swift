import Foundation
import OrderedCollections
@testable import RegimenCoaching
@testable import RegimenKit
@testable import RegimenLanguage
@testable import RegimenRules
import RegimenTestSupport
import Testing

/// The profile's schema is described from the profile decoder's own reads: over a grid of values
/// for every field of a shipped profile, the decoder accepts the profile exactly when the
/// described shape accepts it.
@Suite struct ProfileSchemaTests {
    static let engine: RegimenEngine? = try? RegimenEngine.bundled(from: RepositoryRoot.url)

    static func decoder() throws -> ProfileDecoder {
        let engine = try #require(Self.engine, "the bundled rules load")
        let schema = try #require(RegimenSchemas.all(engine: engine).first { $0.name == "profile" })
        #expect(schema.fileName == "profile.schema.json")
        return engine.profileDecoder
    }

    /// The values tried in every field: each type, the bounds and just beyond them, words of the
    /// rules in other spellings, duplicates in lists.
    static func candidates(for shape: NodeShape) -> [Value] {
        var values: [Value] = [.null, .bool(true), .int(7), .float(2.5), .int(-1), .int(1_000_000_000), .string("zz_word"), .list([]), .map([:])]
        for alternative in Self.alternatives(shape) {
            switch alternative {
            case .integer(let minimum, let maximum), .number(let minimum, let maximum):
                for bound in [minimum, maximum].compactMap({ $0 }) {
                    values += [.int(Int64(bound)), .int(Int64(bound) - 1), .int(Int64(bound) + 1), .float(bound + 0.5), .float(bound - 0.5)]
                }
            case .oneOf(let words):
                for word in words.prefix(3) {
                    values += [.string(word), .string(word.uppercased()), .string(word.replacingOccurrences(of: "-", with: "–")), .string(" \(word) ")]
                }
            case .distinctList(let element):
                let words: [Value] = Self.alternatives(element).flatMap { shape -> [Value] in
                    if case .oneOf(let words) = shape { return words.prefix(2).map(Value.string) }
                    return []
                }
                for word in words {
                    values += [.list([word]), .list([word, word]), .list([word, .int(3)])]
                }
                values += [.list([.string("a"), .string("b")]), .list([.string("a"), .string("a")]), .list([.int(12)])]
            case .mapping(let mapping):
                for key in mapping.properties.keys {
                    values += [.map([key: .int(100)]), .map([key: .int(-5)]), .map([key: .string("x")]), .map([key: .null])]
                }
                values += [.map(["bmr": .int(1500)])]
            default:
                break
            }
        }
        return values
    }

    static func alternatives(_ shape: NodeShape) -> [NodeShape] {
        if case .anyOf(let shapes) = shape { shapes } else { [shape] }
    }

    @Test func decoderAcceptsExactlyWhatItsDescribedShapeAccepts() throws {
        let decoder = try Self.decoder()
        guard case .mapping(let shape) = decoder.shape else {
            Issue.record("the profile's shape is not a mapping: \(decoder.shape)")
            return
        }
        #expect(shape.required == ["sex"])
        #expect(shape.otherKeys == nil)
        var checks = 0
        var disagreements: [String] = []
        for name in ["complete.yaml", "cutting-office-worker.yaml", "minimal.yaml"] {
            let text = try String(contentsOf: RepositoryRoot.url.appendingPathComponent("examples/\(name)"), encoding: .utf8)
            guard case .map(let base)? = YAMLReader.read(text, file: name).document?.value() else {
                Issue.record("examples/\(name) is not a mapping")
                continue
            }
            let variants = ShapeAcceptance.variants(
                of: base, replacements: shape.properties.map { (key: $0.key, values: Self.candidates(for: $0.value)) })
            for (what, document) in variants {
                // The one rule between fields, which the schema leaves to the decoder.
                if document["sex"] == .string("male"), document["pregnant"] == .bool(true) { continue }
                // The other rule between fields (issue 31): a trimester only with pregnant: true.
                if document["trimester"] != nil, document["trimester"] != .null, document["pregnant"] != .bool(true) { continue }
                let accepted = (try? decoder.decode(text: Value.map(document).yamlString(), file: name)) != nil
                let described = ShapeAcceptance.accepts(.mapping(shape), .map(document))
                if accepted != described {
                    disagreements.append("\(name) \(what): decoder accepts \(accepted), schema accepts \(described)")
                }
                checks += 1
            }
        }
        #expect(checks > 500)
        #expect(disagreements == [], "\(disagreements.count) of \(checks) disagree")
    }

    /// The spellings the decoder accepts beyond the rules' own words are in the schema's
    /// patterns: a goal in any case, an age range with an en dash or spaces.
    @Test func patternsCarryTheDecodersOtherSpellings() throws {
        let decoder = try Self.decoder()
        guard case .mapping(let shape) = decoder.shape else { return }
        let goal = try #require(shape.properties["goal"])
        let ageRange = try #require(shape.properties["age_range"])
        #expect(ShapeAcceptance.accepts(goal, .string("Fat_Loss")))
        #expect(!ShapeAcceptance.accepts(goal, .string("fat loss!")))
        #expect(ShapeAcceptance.accepts(ageRange, .string("18 – 24")))
        #expect(!ShapeAcceptance.accepts(ageRange, .string("18-25")))
    }
}
