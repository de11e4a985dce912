@testable import RegimenLanguage
import Testing
@testable import RegimenRules

/// Each case writes an expression in a YAML scalar of some style and names where, in the file,
/// the last occurrence of `needle` in the decoded text must be located.
@Suite struct ScalarSourceMapTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let yaml: String
        let needle: String
        let line: Int
        let column: Int
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "plain", yaml: "x: a.b > 3 && c\n", needle: "c", line: 1, column: 15),
        Case(name: "plain folded over lines", yaml: "x: a > 3 &&\n   bad || c\n", needle: "bad", line: 2, column: 4),
        Case(name: "single quoted with doubled quote", yaml: "x: 'a == ''it''''s'' && zz'\n", needle: "zz", line: 1, column: 25),
        Case(name: "double quoted with escapes", yaml: "x: \"a == \\\"q\\\" && \\u00e9 == zz\"\n", needle: "zz", line: 1, column: 29),
        Case(name: "double quoted folded", yaml: "x: \"a > 1\n  && zz\"\n", needle: "zz", line: 2, column: 6),
        Case(name: "literal block", yaml: "x: |\n  a > 1 &&\n    zz < 2\n", needle: "zz", line: 3, column: 5),
        Case(name: "folded block", yaml: "x: >\n  a > 1 &&\n  zz < 2\n", needle: "zz", line: 3, column: 3),
        Case(name: "folded block keeps more-indented lines", yaml: "x: >-\n  a > 1 &&\n\n    qq &&\n  zz\n", needle: "zz", line: 5, column: 3),
        Case(name: "literal block with header comment", yaml: "x: |- # zz here is a comment\n  yy || zz\n", needle: "zz", line: 2, column: 9),
        Case(name: "nested in a list", yaml: "rows:\n  - when: 'days == 3 && zz'\n", needle: "zz", line: 2, column: 25),
    ]

    @Test(arguments: cases)
    func mapsEveryCharacterBackToTheFile(_ testCase: Case) throws {
        let document = try #require(YAMLReader.read(testCase.yaml, file: "f.yaml").document)
        let node = try #require(document["x"] ?? document["rows"]?.sequence?.first?["when"])
        let source = try #require(ExpressionSource(node))
        let scalars = Array(source.text.unicodeScalars)
        let needle = Array(testCase.needle.unicodeScalars)
        let offset = try #require((0...(scalars.count - needle.count)).last { Array(scalars[$0..<($0 + needle.count)]) == needle })
        #expect(source.location(ofScalarOffset: offset) == SourceLocation(file: "f.yaml", line: testCase.line, column: testCase.column))
    }

    @Test func correctsCompilerLocationsWhenDecodingShiftsCharacters() throws {
        let document = try #require(YAMLReader.read("x: \"\\\"a\\\" + zz\"\n", file: "f.yaml").document)
        let node = try #require(document["x"])
        let source = try #require(ExpressionSource(node))
        // A compiler reports via the SourceText: offset 6 ('z') lands at column 5 + 6 = 11 there …
        let estimate = try #require(source.sourceText.location(ofScalarOffset: 6))
        let diagnostic = Diagnostic.error("expr.syntax", "unknown name 'zz'", at: estimate)
        // … but in the file 'zz' starts at column 13, after two escaped quotes.
        #expect(source.correcting(diagnostic).location == SourceLocation(file: "f.yaml", line: 1, column: 13))
    }
}
