@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenCoaching

/// The coaching rule files' range reader on the texts coaches write, good and bad: each good
/// form is the range it says, each bad one a located error.
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

    @Test("every text is either read as a range or reported, never both or neither", arguments: texts)
    func readOrReported(text: String) {
        let (range, messages) = Self.read(text) { decodeRange($0, at: $1, in: $2) }
        #expect((range == nil) == !messages.isEmpty, "a range is either read or reported")
        if let range {
            #expect(range.lowerBound.isFinite && range.upperBound.isFinite, "\(text) → \(range)")
        }
    }

    /// What a coach must not get away with: reversed bounds, NaN and infinity, lists of the wrong
    /// length, text, a bound missing. Each is one error at the value's line.
    @Test("bad ranges are one located error each", arguments: [
        "12-8", "[12, 8]", "[1, 2, 3]", ".nan", ".inf", "nan", "abc", "8-", "''", "~", "[.nan, 1]", "[1, .inf]",
    ])
    func badRangesAreReported(text: String) {
        let (range, messages) = Self.read(text) { decodeRange($0, at: $1, in: $2) }
        #expect(range == nil, "\(text) was read as \(String(describing: range))")
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.allSatisfy { $0.hasPrefix("r.yaml:1:") && $0.contains("error:") }, "\(messages)")
    }

    @Test("single numbers and decimals read as the ranges they write", arguments: [
        ("10", 10.0...10.0), ("2.5", 2.5...2.5), ("0.80-0.90", 0.8...0.9), ("-5-2", -5.0...2.0), ("8 - 12", 8.0...12.0),
    ])
    func numbersRead(text: String, expected: ClosedRange<Double>) {
        #expect(Self.read(text) { decodeRange($0, at: $1, in: $2) }.0 == expected, "\(text)")
    }

    @Test("the forms coaches write read as the same range")
    func formsAgree() {
        for text in ["8-12", "8–12", "8 - 12", "[8, 12]", "{min: 8, max: 12}"] {
            #expect(Self.read(text) { decodeRange($0, at: $1, in: $2) }.0 == 8...12, "\(text)")
        }
        #expect(Self.read("-5--2") { decodeRange($0, at: $1, in: $2) }.0 == -5 ... -2)
    }
}
