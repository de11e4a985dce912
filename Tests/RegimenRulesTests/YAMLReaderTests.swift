@testable import RegimenLanguage
import Testing
@testable import RegimenRules
import Foundation

@Suite struct YAMLReaderTests {
    @Test func locatesScalarsCollectionsAndKeys() throws {
        let text = """
        kind: demo
        rules:
          - id: a
            sets: 3
          - &anchor id: "b"
        """
        let result = YAMLReader.read(text, file: "demo.yaml")
        #expect(result.diagnostics.isEmpty)
        let document = try #require(result.document)
        #expect(document.location == SourceLocation(file: "demo.yaml", line: 1, column: 1))
        let rules = try #require(document["rules"]?.sequence)
        #expect(rules.count == 2)
        #expect(rules[0].location == SourceLocation(file: "demo.yaml", line: 3, column: 5))
        #expect(rules[0]["sets"]?.location == SourceLocation(file: "demo.yaml", line: 4, column: 11))
        #expect(rules[0]["sets"]?.scalar?.plainType == .int(3))
        let secondKey = try #require(rules[1].mapping?.first?.key)
        #expect(secondKey.location == SourceLocation(file: "demo.yaml", line: 5, column: 13))
        #expect(rules[1]["id"]?.scalar?.style == .doubleQuoted)
        #expect(rules[1]["id"]?.scalar?.plainType == .string)
    }

    @Test func syntaxErrorsCarryFileLineAndColumn() {
        let result = YAMLReader.read("a: 1\nb: [1, 2\nc: 3\n", file: "bad.yaml")
        #expect(result.document == nil)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.location?.file == "bad.yaml")
        #expect(result.diagnostics.first?.message.hasPrefix("yaml syntax error") == true)
    }

    @Test func duplicateKeysPointAtTheRepeat() {
        let result = YAMLReader.read("rule:\n  sets: 3\n  reps: 8\n  sets: 4\n", file: "dup.yaml")
        #expect(result.diagnostics.map(\.description) == [
            "dup.yaml:4:3: error: duplicate key 'sets'\n  note: first defined at dup.yaml:2:3",
        ])
    }

    @Test func secondDocumentIsAnError() {
        let result = YAMLReader.read("a: 1\n---\nb: 2\n", file: "two.yaml")
        #expect(result.diagnostics.first?.id == "yaml.multiple-documents")
    }

    @Test func emptyFileHasNoDocument() {
        let result = YAMLReader.read("# only a comment\n", file: "empty.yaml")
        #expect(result.document == nil)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func deepNestingIsRefusedNotCrashed() {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let result = YAMLReader.read(deep, file: "deep.yaml")
        #expect(result.diagnostics.first?.id == "yaml.too-deep", "\(result.diagnostics)")
    }

    /// Dashes inside a one-line document (dates, ids, a long rule of dashes) open no sequence:
    /// a compact JSON body with hundreds of them reads, while block sequences nested past the
    /// limit are still refused.
    @Test func dashesInsideALineAreNotNesting() {
        let ids = (0..<300).map { #"{"id": "2026-01-\#($0 % 28 + 1)-a-b-c", "note": "---"}"# }.joined(separator: ", ")
        let compact = YAMLReader.read(#"{"items": [\#(ids)], "rule": "\#(String(repeating: "-", count: 1_000))"}"#, file: "compact.json")
        #expect(compact.diagnostics.isEmpty, "\(compact.diagnostics)")
        #expect(compact.document != nil)
        let sequences = YAMLReader.read(String(repeating: "- ", count: 500) + "x\n", file: "sequences.yaml")
        #expect(sequences.diagnostics.first?.id == "yaml.too-deep", "\(sequences.diagnostics)")
    }

    @Test func aliasBombIsRefused() {
        var text = "a0: [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...7 {
            let previous = "a\(level - 1)"
            text = text.replacingOccurrences(of: "a\(level - 1): [", with: "a\(level - 1): &\(previous) [")
            text += "a\(level): [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        let result = YAMLReader.read(text, file: "bomb.yaml")
        #expect(result.diagnostics.first?.id == "yaml.too-large")
    }

    @Test(arguments: [
        ("~", PlainScalarType.null), ("", .null), ("null", .null), ("true", .bool(true)), ("False", .bool(false)),
        ("yes", .string), ("no", .string), ("on", .string), ("12", .int(12)), ("-3", .int(-3)), ("0x1F", .int(31)),
        ("0o17", .int(15)), ("1.5", .float(1.5)), ("1e3", .float(1000)), (".5", .float(0.5)), ("-.inf", .float(-.infinity)),
        ("99999999999999999999", .float(1e20)), ("8-12", .string), ("2.5kg", .string), ("1_000", .string),
    ])
    func plainScalarsFollowTheCoreSchema(text: String, expected: PlainScalarType) {
        #expect(PlainScalarType(classifying: text) == expected)
    }

    @Test func explicitStringTagKeepsText() throws {
        let document = try #require(YAMLReader.read("a: !!str 12\n", file: "t.yaml").document)
        #expect(document["a"]?.scalar?.plainType == .string)
        #expect(document["a"]?.location == SourceLocation(file: "t.yaml", line: 1, column: 10))
    }
}

@Suite struct YAMLMergeKeyTests {
    @Test func mergeKeysCopyTemplateFieldsAndExplicitKeysWin() throws {
        let text = """
        base: &base
          sets: 3
          reps: 8-12
        squat:
          <<: *base
          reps: 5
        """
        let document = try #require(YAMLReader.read(text, file: "m.yaml").document)
        let squat = try #require(document["squat"])
        #expect(squat.mapping?.map { $0.key.scalar?.text } == ["reps", "sets"])
        #expect(squat["reps"]?.scalar?.text == "5")
        #expect(squat["sets"]?.scalar?.text == "3")
        // A merged value keeps the location where the template wrote it.
        #expect(squat["sets"]?.location == SourceLocation(file: "m.yaml", line: 2, column: 9))
    }
}
