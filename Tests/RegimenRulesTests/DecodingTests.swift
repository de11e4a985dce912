import OrderedCollections
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

@Suite struct DecodingTests {
    /// Decodes `value` (the YAML after `v: `) as `T` and returns the result with the messages.
    func decode<T: NodeDecodable>(_ value: String, as type: T.Type) -> (T?, [String]) {
        guard let node = YAMLReader.read("v: \(value)\n", file: "d.yaml").document?["v"] else { return (nil, ["unreadable"]) }
        let context = DecodingContext()
        let result = context.decode(node, as: T.self, at: DecodingPath(subject: "rule 'r'", keyPath: "v"))
        return (result, context.diagnostics.map(\.description))
    }

    @Test(arguments: [
        ("3", Int?.some(3), [String]()),
        ("-7", -7, []),
        ("3.0", nil, ["d.yaml:1:4: error: rule 'r': 'v' must be an integer (write it without a decimal point), not a number '3.0'"]),
        ("three", nil, ["d.yaml:1:4: error: rule 'r': 'v' must be an integer, not a string 'three'"]),
        ("'3'", nil, ["d.yaml:1:4: error: rule 'r': 'v' must be an integer, not a string '3'"]),
        ("[3]", nil, ["d.yaml:1:4: error: rule 'r': 'v' must be an integer, not a list"]),
        ("~", nil, ["d.yaml:1:4: error: rule 'r': 'v' must be an integer, not null"]),
    ])
    func integers(yaml: String, expected: Int?, messages: [String]) {
        let (value, diagnostics) = decode(yaml, as: Int.self)
        #expect(value == expected)
        #expect(diagnostics == messages)
    }

    @Test(arguments: [
        ("2.5", Double?.some(2.5), [String]()),
        ("4", 4, []),
        ("1e3", 1000, []),
        (".nan", nil, ["d.yaml:1:4: error: rule 'r': 'v' must be a number, not a number '.nan'"]),
        ("true", nil, ["d.yaml:1:4: error: rule 'r': 'v' must be a number, not a boolean 'true'"]),
    ])
    func numbers(yaml: String, expected: Double?, messages: [String]) {
        let (value, diagnostics) = decode(yaml, as: Double.self)
        #expect(value == expected)
        #expect(diagnostics == messages)
    }

    @Test func stringsBooleansListsAndMaps() {
        #expect(decode("hello", as: String.self).0 == "hello")
        #expect(decode("12", as: String.self).0 == "12", "an id written as a number reads as its text")
        #expect(decode("~", as: String.self).1 == ["d.yaml:1:4: error: rule 'r': 'v' must be a string, not null"])
        #expect(decode("yes", as: Bool.self).1 == ["d.yaml:1:4: error: rule 'r': 'v' must be true or false, not a string 'yes'"])
        #expect(decode("[1, 2, x]", as: [Int].self).1 == ["d.yaml:1:11: error: rule 'r': 'v[2]' must be an integer, not a string 'x'"])
        let map = decode("{b: 1, a: 2}", as: OrderedDictionary<String, Int>.self).0
        #expect(map.map { Array($0.keys) } == ["b", "a"], "mappings keep file order")
    }

    @Test func enumsListTheAllowedValuesAndSuggest() {
        #expect(decode("fat_loss", as: Goal.self).0 == .fatLoss)
        #expect(decode("hypertrophi", as: Goal.self).1 == [
            "d.yaml:1:4: error: rule 'r': 'v' must be one of 'fat_loss', 'hypertrophy', 'strength', not 'hypertrophi' (did you mean 'hypertrophy'?)",
        ])
    }

    enum Goal: String, NodeEnum {
        case fatLoss = "fat_loss"
        case hypertrophy
        case strength
    }

    @Test func valuesKeepIntegersFloatsAndOrder() throws {
        let text = "a: 1\nb: 1.0\nc: '1'\nd: [true, ~]\ne: 2024-05-01\nf: \"2024-05-01T07:30:00Z\"\n"
        let document = try #require(YAMLReader.read(text, file: "v.yaml").document)
        #expect(document.value() == .map([
            "a": .int(1), "b": .float(1), "c": .string("1"), "d": .list([.bool(true), .null]),
            "e": .string("2024-05-01"), "f": .string("2024-05-01T07:30:00Z"),
        ]))
        let withTimes = document.value(options: ValueConversionOptions(timestamps: true))
        #expect(withTimes["e"] == .timestamp(Timestamp(seconds: 1_714_521_600)))
        #expect(withTimes["f"] == .timestamp(Timestamp(seconds: 1_714_548_600)))
        #expect(withTimes["c"] == .string("1"))
    }

    @Test(arguments: [
        ("thresold", ["threshold", "level"], String?.some("threshold")),
        ("levle", ["threshold", "level"], "level"),
        ("colour", ["threshold", "level"], nil),
        ("x", ["y"], "y"),
        ("Sets", ["sets", "reps"], "sets"),
    ])
    func suggestions(word: String, candidates: [String], expected: String?) {
        #expect(Suggestion.closest(to: word, among: candidates) == expected)
    }

    @Test func decodingCollectsEveryProblemOfAMappingAtOnce() throws {
        let yaml = "rule:\n  id: r\n  sets: many\n  reps: 8\n  rest: 90\n  tempo: fast\n"
        let node = try #require(YAMLReader.read(yaml, file: "m.yaml").document?["rule"])
        let context = DecodingContext()
        _ = context.mapping(node, at: DecodingPath(subject: "rule 'r'")) { map in
            map.allow("id")
            _ = map.required("sets", as: Int.self, in: 1...10)
            _ = map.required("reps", as: Int.self, in: 10...20)
            _ = map.required("rir", as: Int.self)
            _ = map.optional("rest", as: Int.self)
            return 0
        }
        #expect(context.diagnostics.sorted(by: Diagnostic.sortKey).map(\.description) == [
            "m.yaml:2:3: error: rule 'r': missing required key 'rir'",
            "m.yaml:3:9: error: rule 'r': 'sets' must be an integer, not a string 'many'",
            "m.yaml:4:9: error: rule 'r': 'reps' must be between 10 and 20, got 8",
            "m.yaml:6:3: error: rule 'r': unknown key 'tempo'",
        ])
    }
}
