@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenTracking

/// The tracking rule files' range reader: `-5--2`, `8–12` and `[8, 12]` mean what a coach
/// means by them, and every bad form is one error at the value.
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

    @Test("the forms coaches write read as the ranges they say", arguments: [
        ("8-12", 8.0...12.0), ("8–12", 8.0...12.0), ("8 - 12", 8.0...12.0), ("10", 10.0...10.0), ("2.5", 2.5...2.5),
        ("0.60-0.70", 0.6...0.7), ("-5--2", -5.0 ... -2.0), ("[8, 12]", 8.0...12.0), ("{min: 8, max: 12}", 8.0...12.0),
    ])
    func goodForms(text: String, expected: ClosedRange<Double>) {
        let (range, messages) = Self.read(text) { $2.range($0, at: $1) }
        #expect(range == expected, "\(text)")
        #expect(messages.isEmpty, "\(messages)")
    }

    @Test("reversed, non-finite, textual and ill-sized ranges are one located error each", arguments: [
        "12-8", ".nan", ".inf", "nan", "abc", "8-", "[1, 2, 3]",
    ])
    func badForms(text: String) {
        let (range, messages) = Self.read(text) { $2.range($0, at: $1) }
        #expect(range == nil, "\(text) was read as \(String(describing: range))")
        #expect(messages.count == 1 && messages.allSatisfy { $0.hasPrefix("r.yaml:1:") && $0.contains(": error: rule 'r': 'v'") }, "\(messages)")
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
