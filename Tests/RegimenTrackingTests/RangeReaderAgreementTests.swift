import RegimenLanguage
import RegimenRules
import Testing
@testable import RegimenTracking

/// The tracking rule files read their ranges with the one range reader, so `-5--2`, `8–12` and
/// `[8, 12]` mean there what they mean in the coaching files, with the same messages.
struct TrackingRangeReaderTests {
    static func read<T>(_ yaml: String, with reader: (LocatedNode, DecodingPath, DecodingContext) -> T?) -> (T?, [String]) {
        guard let node = YAMLReader.read("v: \(yaml)\n", file: "r.yaml").document?["v"] else { return (nil, ["unreadable"]) }
        let context = DecodingContext()
        let value = reader(node, DecodingPath(subject: "rule 'r'", keyPath: "v"), context)
        return (value, context.diagnostics.map(\.description))
    }

    static let texts = [
        "8-12", "8–12", "8 - 12", "10", "2.5", "0.60-0.70", "-5--2", "12-8", "[8, 12]", "{min: 8, max: 12}", ".nan", ".inf",
        "nan", "abc", "8-", "[1, 2, 3]",
    ]

    @Test("range agrees with NumberRange on every text", arguments: texts)
    func agreesWithNumberRange(text: String) {
        let tracking = Self.read(text) { $2.range($0, at: $1) }
        let shared = Self.read(text) { NumberRange.decode(from: $0, at: $1, in: $2)?.closedRange }
        #expect(tracking.0 == shared.0)
        #expect(tracking.1 == shared.1)
    }

    @Test("whole-number ranges: read when both bounds are whole, reported otherwise")
    func integerRanges() {
        #expect(Self.read("1-4") { $2.intRange($0, at: $1) }.0 == 1...4)
        #expect(Self.read("-5--2") { $2.intRange($0, at: $1) }.0 == -5 ... -2)
        let fraction = Self.read("1.5-4") { $2.intRange($0, at: $1) }
        #expect(fraction.0 == nil)
        #expect(fraction.1 == ["r.yaml:1:4: error: rule 'r': 'v' must be a range of whole numbers"])
    }
}
