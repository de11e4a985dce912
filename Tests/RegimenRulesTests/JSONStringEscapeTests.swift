import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
import RegimenTestSupport
import Testing

/// JSON read through the YAML reader means what RFC 8259 says: surrogate-pair escapes spell the
/// character they encode, raw U+0085/U+2028/U+2029 inside a string are that character, and every
/// location still points into the text as written.
@Suite struct JSONStringEscapeTests {
    @Test func surrogatePairEscapeIsTheCharacter() throws {
        let text = #"{"title": "push \ud83d\udcaa day", "sets": 1e400}"#
        let read = YAMLReader.read(text, file: "body.json")
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        let pairs = try #require(read.document?.mapping)
        #expect(pairs.first?.value.scalar?.text == "push 💪 day")
        // The second key's location is where its quote is in the text as written.
        let quote = try #require(text.range(of: #""sets""#)?.lowerBound)
        let column = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: quote) + 1
        #expect(pairs.last?.key.location == SourceLocation(file: "body.json", line: 1, column: column))
    }

    @Test func rawLineSeparatorsInsideStringsAreContent() throws {
        for separator in ["\u{85}", "\u{2028}", "\u{2029}"] {
            let read = YAMLReader.read("{\"note\": \"a\(separator)b\", \"n\": 1}", file: "body.json")
            #expect(read.diagnostics.isEmpty)
            #expect(read.document?.mapping?.first?.value.scalar?.text == "a\(separator)b")
            #expect(read.document?.mapping?.last?.key.location.column == 17)
        }
    }

    @Test func aLoneSurrogateIsRefusedWithALocation() {
        let read = YAMLReader.read(#"{"a": "\ud83d"}"#, file: "body.json")
        #expect(read.document == nil)
        #expect(read.diagnostics.first?.location?.line == 1)
    }

    @Test func yamlIsNotRewritten() {
        // A plain scalar holds its backslashes verbatim; only a JSON document's strings are rewritten.
        let read = YAMLReader.read(#"title: push \ud83d\udcaa"#, file: "rules.yaml")
        #expect(read.document?.mapping?.first?.value.scalar?.text == #"push \ud83d\udcaa"#)
    }

    /// Over generated documents (strings mixing ASCII, BMP, astral characters and the three
    /// separators, written raw or escaped, on one line or several): the reader decodes every value
    /// as Foundation's JSON parser does, and every key is located at its opening quote.
    @Test func generatedDocumentsDecodeAsJSONWithExactLocations() throws {
        var generator = SeededGenerator(seed: 0x1505E5)
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "é", "ß", "中", "\u{85}", "\u{2028}", "\u{2029}", "💪", "𝄞", "🇳", "\"", "\\", "\t"]
        var checked = 0
        for _ in 0..<400 {
            var text = "{"
            var expected: [(key: String, value: String, line: Int, column: Int)] = []
            var line = 1
            var column = 2
            let count = Int.random(in: 1...5, using: &generator)
            for index in 0..<count {
                if index > 0 {
                    text += ","
                    column += 1
                    if Bool.random(using: &generator) {
                        text += "\n  "
                        line += 1
                        column = 3
                    }
                }
                let key = "k\(index)"
                expected.append((key, "", line, column))
                let keyText = "\"\(key)\": "
                text += keyText
                column += keyText.unicodeScalars.count
                var value = ""
                var written = "\""
                for _ in 0..<Int.random(in: 0...8, using: &generator) {
                    let scalar = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                    value.unicodeScalars.append(scalar)
                    written += encode(scalar, escaped: Bool.random(using: &generator))
                }
                written += "\""
                expected[expected.count - 1].value = value
                text += written
                column += written.unicodeScalars.count
            }
            text += "}"
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String], "\(text)")
            let read = YAMLReader.read(text, file: "g.json")
            #expect(read.diagnostics.isEmpty, "\(text): \(read.diagnostics)")
            let pairs = try #require(read.document?.mapping, "\(text)")
            for (pair, want) in zip(pairs, expected) {
                #expect(pair.key.scalar?.text == want.key)
                #expect(pair.value.scalar?.text == json[want.key], "\(text)")
                #expect(pair.value.scalar?.text == want.value, "\(text)")
                #expect(pair.key.location == SourceLocation(file: "g.json", line: want.line, column: want.column), "\(text)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }

    /// `scalar` as a JSON string writes it: raw, or escaped (`\uXXXX`, a surrogate pair beyond
    /// the BMP); a quote, backslash or tab is always escaped.
    private func encode(_ scalar: Unicode.Scalar, escaped: Bool) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\t": return "\\t"
        default: break
        }
        guard escaped else { return String(scalar) }
        return String(scalar).utf16.map { "\\u" + String(repeating: "0", count: 4 - String($0, radix: 16).count) + String($0, radix: 16) }.joined()
    }
}
