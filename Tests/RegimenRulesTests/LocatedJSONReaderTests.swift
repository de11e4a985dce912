import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
import RegimenTestSupport
import Testing

/// The JSON reader builds, for every JSON document it accepts, the very tree libyaml builds
/// (nodes, texts, styles, tags and locations), and leaves every other text to libyaml, so that
/// reading JSON without libyaml changes no answer and no diagnostic.
@Suite struct LocatedJSONReaderTests {
    /// A random JSON value written in one of several layouts, with strings that exercise escapes,
    /// non-ASCII characters (locations count Unicode scalars) and brackets inside strings.
    struct Writer {
        var random: SeededGenerator
        /// 0 compact (`{"a":1}`), 1 spaced (`{"a": 1}`), 2 pretty (one member per line), 3 ragged.
        var layout: Int

        mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }

        mutating func string() -> String {
            let pieces = ["a", "sets", "Ünïcødé", "日本", "💪", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\t", "{", "]", ":", ",", "-", "#", "'", "&x", "!!str", "2025-01-01", "<<"]
            var text = ""
            for _ in 0..<Int.random(in: 0...4, using: &random) { text += pick(pieces) }
            return "\"" + text + "\""
        }

        mutating func scalar() -> String {
            pick([string(), "0", "-0", "12", "-7", "3.25", "1e3", "-2.5E-4", "1E+2", "true", "false", "null", "9223372036854775808", string()])
        }

        mutating func value(depth: Int, indent: Int) -> String {
            switch depth >= 4 ? 2 : Int.random(in: 0...2, using: &random) {
            case 0:
                let count = Int.random(in: 0...4, using: &random)
                var keys: Set<String> = []
                var members: [String] = []
                for _ in 0..<count {
                    let key = string()
                    guard keys.insert(key).inserted else { continue }
                    members.append(key + colon() + value(depth: depth + 1, indent: indent + 2))
                }
                return wrap("{", members, "}", indent: indent)
            case 1:
                let items = (0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth: depth + 1, indent: indent + 2) }
                return wrap("[", items, "]", indent: indent)
            default:
                return scalar()
            }
        }

        mutating func colon() -> String {
            switch layout {
            case 0: ":"
            case 3: pick([":", " : ", ":  ", " :"])
            default: ": "
            }
        }

        mutating func wrap(_ open: String, _ members: [String], _ close: String, indent: Int) -> String {
            guard !members.isEmpty else { return open + close }
            switch layout {
            case 0: return open + members.joined(separator: ",") + close
            case 1: return open + members.joined(separator: ", ") + close
            case 2:
                let inner = String(repeating: " ", count: indent + 2)
                return open + "\n" + members.map { inner + $0 }.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + close
            default:
                return open + pick([" ", "\n", ""]) + members.joined(separator: pick([",", " ,\n ", ",\n"])) + pick(["", "\n", "  "]) + close
            }
        }
    }

    @Test func everyGeneratedDocumentReadsAsLibYAMLReadsIt() throws {
        var accepted = 0
        for seed in 0..<600 {
            var writer = Writer(random: SeededGenerator(seed: UInt64(seed)), layout: seed % 4)
            let open = seed % 2 == 0 ? "{" : "["
            var text = writer.value(depth: 0, indent: 0)
            if !text.hasPrefix(open) { text = open == "{" ? "{\"v\": \(text)}" : "[\(text)]" }
            if seed % 5 == 0 { text = "\n  " + text + "\n" }
            let throughLibYAML = YAMLReader.readThroughLibYAML(text, file: "body.json")
            #expect(throughLibYAML.diagnostics.isEmpty, "seed \(seed): \(text)\n\(throughLibYAML.diagnostics)")
            guard let json = LocatedJSONReader.read(text, file: "body.json") else {
                Issue.record("seed \(seed): the JSON reader declined valid JSON: \(text)")
                continue
            }
            accepted += 1
            #expect(json == throughLibYAML.document, "seed \(seed): \(text)")
            #expect(YAMLReader.read(text, file: "body.json").document == throughLibYAML.document)
        }
        #expect(accepted == 600)
    }

    /// Text libyaml reads differently from JSON, refuses, or reports with a location: the JSON
    /// reader declines it, so the YAML reader's own answer and diagnostics stand.
    @Test(arguments: [
        #"{"a": 1, "a": 2}"#,                 // duplicate key: libyaml's located error
        "{\"a\":\t1}",                         // tab outside a string
        "\t{\"a\": 1}",                        // tab where a line starts: libyaml refuses it
        "{\"a\": 1}\r\n",                      // carriage return
        #"{"a": "\ud83d\udcaa"}"#,             // surrogate pair: rewritten for libyaml
        #"{"a": "\ud83d"}"#,                   // lone surrogate: refused
        #"{"a": "\u0000"}"#,                   // U+0000
        "{\"a\": \"x\u{85}y\"}",               // NEL inside a string
        "{\"a\": \"x\u{7F}y\"}",               // DEL: not printable for libyaml
        "{\"a\": \"x\u{FFFE}y\"}",             // not a character
        "{\"a\"\n: 1}",                        // key and colon on two lines: not a simple key
        #"{"a": 1,}"#, #"{"a": 01}"#, #"{"a": .5}"#, #"{"a": tru}"#, #"{"a" 1}"#, #"[1 2]"#,
        #"{"a": 1} x"#, #"{"a": 1"#, #""text""#, "42", "a: 1", "{a: 1}", "# comment\n{}", "",
        "{\"k\": \"" + String(repeating: "x", count: 1_200) + "\"}",
        "{\"" + String(repeating: "k", count: 1_100) + "\": 1}",   // a key past libyaml's 1,024
        String(repeating: "[", count: 250) + String(repeating: "]", count: 250),
    ])
    func declinedTextKeepsTheYAMLReadersAnswer(text: String) {
        let isLongString = text.hasPrefix("{\"k\": \"x")
        let json = LocatedJSONReader.read(text, file: "body.json")
        if isLongString {
            // A long value is fine; only keys have a length limit.
            #expect(json != nil)
        } else {
            #expect(json == nil, "\(text)")
        }
        let read = YAMLReader.read(text, file: "body.json")
        let throughLibYAML = YAMLReader.readThroughLibYAML(text, file: "body.json")
        #expect(read.document == throughLibYAML.document)
        #expect(read.diagnostics == throughLibYAML.diagnostics)
    }

    @Test func locationsCountUnicodeScalarsAndLines() throws {
        let text = "{\"é💪\": [1,\n  \"日本\", {\"x\": null}]}"
        let node = try #require(LocatedJSONReader.read(text, file: "b"))
        let list = try #require(node.mapping?.first?.value.sequence)
        #expect(node.mapping?.first?.key.location == SourceLocation(file: "b", line: 1, column: 2))
        #expect(node.mapping?.first?.value.location == SourceLocation(file: "b", line: 1, column: 8))
        #expect(list[1].location == SourceLocation(file: "b", line: 2, column: 3))
        #expect(list[2].mapping?.first?.value.location == SourceLocation(file: "b", line: 2, column: 15))
        #expect(node == YAMLReader.readThroughLibYAML(text, file: "b").document)
    }
}
