import Foundation
import Testing
@testable import RegimenLanguage
@testable import RegimenRules
@testable import RegimenSecurity

/// A policy or test file given on its own (`regimen test FILE`, `regimen authorize --rules`, a
/// service body) and the same file found in the rule tree (`regimen check`, the service's load)
/// are read by one decoder, so they are accepted or refused alike, with the same errors.
///
/// Property: for every shipped YAML policy and test file and every mutant of its top-level keys
/// (the key dropped, misspelt, or its value replaced by a scalar, a list or a mapping) and of the
/// whole file (emptied, only comments, a list), the file
/// read on its own reports exactly the errors the rule loader reports for it.
@Suite("A security file reads the same on its own and in the rule tree")
struct SecurityReadersAgreementTests {
    /// The shipped YAML security files (absolute paths, so a test file's `rules:` resolves the
    /// same way in both reads).
    static let files: [String] = {
        let base = repositoryRoot + "/rules/security"
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return folders.sorted().flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: base + "/" + folder)) ?? [])
                .filter { $0.hasSuffix(".yaml") }.sorted().map { base + "/" + folder + "/" + $0 }
        }
    }()

    /// The file's top-level entries: each a key's line with the indented lines below it.
    static func blocks(_ text: String) -> [(key: String, lines: [String])] {
        var blocks: [(key: String, lines: [String])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let first = line.first, first != " ", first != "#", first != "-", let colon = line.firstIndex(of: ":") {
                blocks.append((String(line[..<colon]), [line]))
            } else if blocks.isEmpty {
                blocks.append(("", [line]))
            } else {
                blocks[blocks.count - 1].lines.append(line)
            }
        }
        return blocks
    }

    /// Every mutant of `text`'s top-level keys, and of the whole file, named for messages.
    static func mutants(_ text: String) -> [(name: String, text: String)] {
        let blocks = blocks(text)
        var out: [(name: String, text: String)] = []
        for (index, block) in blocks.enumerated() where !block.key.isEmpty {
            func replaced(_ lines: [String]) -> String {
                var copy = blocks.map(\.lines)
                copy[index] = lines
                return copy.flatMap { $0 }.joined(separator: "\n")
            }
            out.append(("'\(block.key)' dropped", replaced([])))
            out.append(("'\(block.key)' misspelt", replaced([block.key + "s" + block.lines[0].dropFirst(block.key.count)] + block.lines.dropFirst())))
            out.append(("'\(block.key)' a number", replaced(["\(block.key): 7"])))
            out.append(("'\(block.key)' a list", replaced(["\(block.key): [1, two]"])))
            out.append(("'\(block.key)' a mapping", replaced(["\(block.key): {a: 1}"])))
        }
        out.append(("an unknown key added", text + "\nextra_key: 1\n"))
        // Whole-file mutants: a file cut to nothing (a partial write), to its comments, or to a list.
        out.append(("the file emptied", ""))
        out.append(("only comments left", "# nothing here yet\n"))
        out.append(("a list, not a mapping", "- kind: x\n"))
        return out
    }

    /// The errors of `text` read on its own, as the security commands read it (a test file by
    /// its name, as `regimen test` is given one; a policy by its extension, as `PolicyLoader`).
    static func alone(_ text: String, file: String) -> [String] {
        do {
            if file.hasSuffix(".tests.yaml") {
                let suite = try SecurityTestSuite.parse(text, file: file)
                _ = try CompiledPolicy(suite.policy)
            } else {
                _ = try CompiledPolicy(try PolicyLoader.parse(text, file: file))
            }
            return []
        } catch {
            return error.diagnostics.filter { $0.severity == .error }.map(Self.described)
        }
    }

    /// The errors of `text` loaded as a file of the rule tree, as `regimen check` loads it.
    static func inTree(_ text: String, file: String) -> [String] {
        RuleSetLoader(kinds: SecurityRuleKinds.kinds).load(files: [(file, text)]).diagnostics
            .filter { $0.severity == .error }.map(Self.described)
    }

    /// An error's place, id and message. Notes are left out: the loader's note lists the kinds it
    /// knows, which on its own is the one kind it reads.
    static func described(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.location.map { "\($0)" } ?? "-"): \(diagnostic.id): \(diagnostic.message)"
    }

    @Test("every mutant of every shipped YAML security file gets the same errors alone and in the tree", arguments: files)
    func readersAgree(file: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(Self.alone(text, file: file) == [], "the shipped file itself reads cleanly")
        var refused = 0
        for mutant in Self.mutants(text) {
            let alone = Self.alone(mutant.text, file: file)
            #expect(alone == Self.inTree(mutant.text, file: file), "\(mutant.name)")
            if !alone.isEmpty { refused += 1 }
        }
        // The grid is not vacuous: most mutants break the file.
        #expect(refused * 2 > Self.mutants(text).count)
    }

    @Test("a test file without 'version' is refused on its own as in the tree")
    func versionIsRequiredAlone() {
        let file = repositoryRoot + "/rules/security/workout-tracker/t.tests.yaml"
        let text = "kind: security_tests\nrules: corrected.rules\ncases:\n  - {name: reads, auth: {uid: a}, get: users/a, expect: deny}\n"
        #expect(Self.alone(text, file: file) == ["\(file):1:1: rules.missing-key: missing required key 'version'"])
    }

    @Test("an unknown key of a case is the rule files' unknown-key error, naming the case")
    func unknownKeyIsTheRuleFilesError() {
        let file = repositoryRoot + "/rules/security/workout-tracker/t.tests.yaml"
        let text = "kind: security_tests\nversion: 1\nrules: corrected.rules\ncases:\n  - {name: reads, auth: {uid: a}, get: users/a, expct: deny}\n"
        do {
            _ = try SecurityTestSuite.parse(text, file: file)
            Issue.record("a misspelt key was accepted")
        } catch {
            let unknown = error.diagnostics.filter { $0.id == "rules.unknown-key" }.map(\.message)
            #expect(unknown == ["case 'reads': unknown key 'expct' (did you mean 'expect'?)"])
        }
    }
}
