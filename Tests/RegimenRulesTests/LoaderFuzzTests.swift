import RegimenTestSupport
import Foundation
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

/// Thousands of generated and mutated rule files from a fixed seed: loading must never trap,
/// every diagnostic must carry a real location in the file, and loading is deterministic.
@Suite struct LoaderFuzzTests {

    static let seeds: [String] = {
        let directory = InvalidFixtureTests.directory
        let fixtures = InvalidFixtureTests.fixtureNames.compactMap {
            try? String(contentsOf: directory.appendingPathComponent("\($0).yaml"), encoding: .utf8)
        }
        return fixtures + [
            "kind: functions\nversion: 1\nfunctions:\n  - name: clamp\n    params: [x, lo, hi]\n    let:\n      y: x\n    return: \"y < lo ? lo : (y > hi ? hi : y)\"\n",
            "kind: colours\nversion: 1\ncolours: [red, 'green', \"blue\"]\n",
            "kind: training_blocks\nversion: 1\nblocks:\n  - id: a\n    prescription: 3x8-12 @RIR 1-3 rest 90s\nsplit:\n  hit_policy: first\n  inputs: {days: 1-7, goal: [a, b]}\n  rows:\n    - when: {days: '>= 3', goal: a}\n      then: x\n    - then: y\n",
        ]
    }()

    /// Characters that matter to YAML, expressions and notation, plus some that do not.
    static let alphabet: [Character] = Array(":-[]{}'\"|>&*!#%@?,\\\n \t0123456789.xX+–abcyz_=<()") + ["é", "\u{2028}", "\r"]

    func mutate(_ text: String, using random: inout SeededGenerator) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !characters.isEmpty: characters.remove(at: position)
            case 1: characters.insert(Self.alphabet.randomElement(using: &random) ?? " ", at: position)
            case 2 where !characters.isEmpty: characters[position] = Self.alphabet.randomElement(using: &random) ?? " "
            case 3: characters = Array(characters.prefix(position))
            case 4:
                var lines = String(characters).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if lines.count > 1 {
                    let a = Int.random(in: 0..<lines.count, using: &random)
                    let b = Int.random(in: 0..<lines.count, using: &random)
                    lines.swapAt(a, b)
                }
                characters = Array(lines.joined(separator: "\n"))
            case 5:
                let lines = String(characters).split(separator: "\n", omittingEmptySubsequences: false)
                if let line = lines.randomElement(using: &random) { characters.insert(contentsOf: "\n" + line, at: position) }
            default:
                let indent = String(repeating: " ", count: Int.random(in: 0...4, using: &random))
                characters.insert(contentsOf: indent, at: position)
            }
        }
        return String(characters)
    }

    /// A document built from scratch out of random keys, scalars and nesting.
    func generate(using random: inout SeededGenerator, depth: Int = 0) -> String {
        let keys = ["kind", "version", "rules", "id", "threshold", "level", "when", "then", "rows", "inputs", "hit_policy", "blocks", "prescription", "split", "functions", "name", "params", "return"]
        let scalars = ["1", "-2.5", "threshold_rules", "training_blocks", "unique", "first", "3x8-12 @RIR 1-3", "'a == ''b'''", "\"x\\ty\"", "~", "true", "days >= 3", "1-7", "[]", "{}", "|\n  a &&\n  b", ">-\n  x", "*ref", "&ref v", "!!str 5"]
        var lines: [String] = []
        let indent = String(repeating: "  ", count: depth)
        for _ in 0..<Int.random(in: 1...5, using: &random) {
            let key = keys.randomElement(using: &random) ?? "id"
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where depth < 4:
                lines.append("\(indent)\(key):")
                lines.append(generate(using: &random, depth: depth + 1))
            case 1 where depth < 4:
                lines.append("\(indent)\(key):")
                lines.append("\(indent)  - " + generate(using: &random, depth: depth + 2).trimmingCharacters(in: .whitespaces))
            default:
                lines.append("\(indent)\(key): \(scalars.randomElement(using: &random) ?? "x")")
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func mutatedAndGeneratedFilesNeverTrapAndStayLocated() {
        var random = SeededGenerator(seed: 20_240_501)
        let loader = RuleSetLoader(kinds: [ThresholdRules.self, ConditionRules.self, TrainingBlocks.self, ColourCatalog.self])
        var documents = 0
        var withErrors = 0
        for round in 0..<4_000 {
            let text: String
            if round % 4 == 3 {
                text = generate(using: &random)
            } else {
                let seed = Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &random)]
                text = mutate(seed, using: &random)
            }
            let path = "fuzz/\(round).yaml"
            let result = loader.load(files: [(path, text)])
            documents += 1
            if result.hasErrors { withErrors += 1 }
            let lineCount = YAMLSourceLines(file: path, text: text).lines.count
            for diagnostic in result.diagnostics {
                guard let location = diagnostic.location else {
                    Issue.record("diagnostic without a location for round \(round): \(diagnostic)")
                    continue
                }
                #expect(location.file == path)
                #expect(location.line >= 1 && location.line <= lineCount + 1, "round \(round): \(diagnostic)")
                #expect(location.column >= 1, "round \(round): \(diagnostic)")
                #expect(!diagnostic.message.isEmpty && !diagnostic.message.hasSuffix("."), "round \(round): \(diagnostic)")
            }
            if round % 50 == 0 {
                let again = loader.load(files: [(path, text)])
                #expect(again.diagnostics == result.diagnostics, "loading is deterministic (round \(round))")
            }
        }
        #expect(documents == 4_000)
        // The mutations must actually exercise error paths, and some files must survive them.
        #expect(withErrors > 1_000)
        #expect(withErrors < documents)
    }
}
