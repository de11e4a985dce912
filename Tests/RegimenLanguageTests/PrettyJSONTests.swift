import Foundation
@testable import RegimenLanguage
import RegimenTestSupport
import Testing
import OrderedCollections

/// Pretty JSON writes empty lists and maps as `[]` and `{}` (Foundation on Linux spreads them over
/// a blank line) and changes nothing else, whatever the value holds.
@Suite struct PrettyJSONTests {
    static func value(_ random: inout SeededGenerator, depth: Int) -> Value {
        let strings = ["", "[", "]\n", "{\n\n}", "a [\n ] b", "é💪", "x\"y", "\\"]
        switch depth >= 3 ? Int.random(in: 0...3, using: &random) : Int.random(in: 0...5, using: &random) {
        case 0: return .string(strings[Int.random(in: 0..<strings.count, using: &random)])
        case 1: return .int(Int64.random(in: -5...5, using: &random))
        case 2: return .null
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .list((0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            var map = Value.Map()
            for index in 0..<Int.random(in: 0...3, using: &random) { map["k\(index)"] = value(&random, depth: depth + 1) }
            return .map(map)
        }
    }

    @Test func emptyContainersAreCollapsedAndNothingElseChanges() throws {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let value = Self.value(&random, depth: 0)
            let pretty = value.jsonString(pretty: true)
            // The same JSON as the compact form, and no blank line anywhere.
            let reread = try JSONSerialization.jsonObject(with: Data(pretty.utf8), options: [.fragmentsAllowed])
            let compact = try JSONSerialization.jsonObject(with: Data(value.jsonString().utf8), options: [.fragmentsAllowed])
            #expect((reread as? NSObject) == (compact as? NSObject), "\(pretty)")
            #expect(!pretty.split(separator: "\n", omittingEmptySubsequences: false).contains { $0.allSatisfy { $0 == " " } }, "\(pretty)")
            // What a regular expression over the encoder's text gives.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            let raw = String(decoding: try encoder.encode(value), as: UTF8.self)
            #expect(pretty == raw.replacing(#/\[\n[ ]*\n[ ]*\]/#, with: "[]").replacing(#/\{\n[ ]*\n[ ]*\}/#, with: "{}"))
        }
    }

    @Test func collapsingTouchesOnlyBracketsAroundABlankLine() {
        #expect(Value.collapsingEmptyContainers("{\n  \"a\" : [\n\n  ],\n  \"b\" : {\n    \n  }\n}") == "{\n  \"a\" : [],\n  \"b\" : {}\n}")
        #expect(Value.collapsingEmptyContainers("[\n  1\n]") == "[\n  1\n]")
        #expect(Value.collapsingEmptyContainers("[\n\n") == "[\n\n")
        #expect(Value.collapsingEmptyContainers("") == "")
    }
}
