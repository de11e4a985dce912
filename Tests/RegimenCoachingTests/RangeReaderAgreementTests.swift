import RegimenLanguage
import RegimenRules
import Testing
@testable import RegimenCoaching

/// The coaching rule files read their ranges with the one range reader: every text gives the
/// same range, or the same message, as ``NumberRange`` itself.
struct CoachingRangeReaderTests {
    static func read(_ yaml: String, with reader: (LocatedNode, DecodingPath, DecodingContext) -> ClosedRange<Double>?) -> (ClosedRange<Double>?, [String]) {
        guard let node = YAMLReader.read("v: \(yaml)\n", file: "r.yaml").document?["v"] else { return (nil, ["unreadable"]) }
        let context = DecodingContext()
        let range = reader(node, DecodingPath(subject: "rule 'r'", keyPath: "v"), context)
        return (range, context.diagnostics.map(\.description))
    }

    /// Good forms, bad forms and the edges: NaN and infinity as YAML writes them, a minus sign on
    /// either bound, an en dash, lists of the wrong length.
    static let texts = [
        "8-12", "8–12", "8 - 12", "10", "2.5", "0.80-0.90", "-5--2", "-5-2", "12-8", "[8, 12]", "[12, 8]", "[1, 2, 3]",
        "{min: 8, max: 12}", ".nan", ".inf", "nan", "1e3", "abc", "8-", "-", "''", "~", "[.nan, 1]", "[1, .inf]",
    ]

    @Test("decodeRange agrees with NumberRange on every text", arguments: texts)
    func agreesWithNumberRange(text: String) {
        let coaching = Self.read(text) { decodeRange($0, at: $1, in: $2) }
        let shared = Self.read(text) { NumberRange.decode(from: $0, at: $1, in: $2)?.closedRange }
        #expect(coaching.0 == shared.0)
        #expect(coaching.1 == shared.1)
        #expect((coaching.0 == nil) == !coaching.1.isEmpty, "a range is either read or reported")
    }

    @Test("the forms coaches write read as the same range")
    func formsAgree() {
        for text in ["8-12", "8–12", "8 - 12", "[8, 12]", "{min: 8, max: 12}"] {
            #expect(Self.read(text) { decodeRange($0, at: $1, in: $2) }.0 == 8...12, "\(text)")
        }
        #expect(Self.read("-5--2") { decodeRange($0, at: $1, in: $2) }.0 == -5 ... -2)
    }
}
