import Foundation
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

@Suite struct RuleSetLoaderTests {
    let loader = RuleSetLoader(kinds: [ThresholdRules.self, ColourCatalog.self])

    @Test func loadsTypedContentAndCounts() throws {
        let result = loader.load(files: [
            ("rules/sleep.yaml", """
            kind: threshold_rules
            version: 1
            rules:
              - id: sleep_low
                threshold: 6.5
                level: low
                next: sleep_ok
              - id: sleep_ok
                threshold: 8
            """),
            ("catalogs/colours.yaml", "kind: colours\nversion: 1\ncolours: [red, green]\n"),
        ])
        #expect(result.diagnostics.isEmpty)
        let ruleSet = try result.get()
        let rules = ruleSet.all(ThresholdRules.self).flatMap(\.rules)
        #expect(rules.map(\.id) == ["sleep_low", "sleep_ok"])
        #expect(rules.map(\.level) == [.low, .medium])
        #expect(ruleSet.ruleCount == 2)
        #expect(ruleSet.catalogEntryCount == 2)
        #expect(ruleSet.files.map(\.path) == ["catalogs/colours.yaml", "rules/sleep.yaml"])
    }

    @Test func reportsEveryMistakeOfAFileInOnePass() {
        let result = loader.load(files: [("rules/bad.yaml", """
            kind: threshold_rules
            version: 1
            rules:
              - id: sleep_low
                thresold: 6.5
                level: lowest
              - id: sleep_high
                threshold: 140
                next: sleep_lo
              - id: sleep_low
                threshold: "high"
            """)])
        #expect(result.diagnostics.map(\.description) == [
            "rules/bad.yaml:4:5: error: rule 'sleep_low': missing required key 'threshold'",
            "rules/bad.yaml:5:5: error: rule 'sleep_low': unknown key 'thresold' (did you mean 'threshold'?)",
            "rules/bad.yaml:6:12: error: rule 'sleep_low': 'level' must be one of 'low', 'medium', 'high', not 'lowest'",
            "rules/bad.yaml:8:16: error: rule 'sleep_high': 'threshold' must be between 0.0 and 100.0, got 140",
            "rules/bad.yaml:11:16: error: rule 'sleep_low': 'threshold' must be a number, not a string 'high'",
        ])
    }

    @Test func crossFileValidationFindsDuplicatesAndDanglingReferences() {
        let result = loader.load(files: [
            ("rules/a.yaml", "kind: threshold_rules\nversion: 1\nrules:\n  - id: a\n    threshold: 1\n    next: bb\n"),
            ("rules/b.yaml", "kind: threshold_rules\nversion: 1\nrules:\n  - id: b\n    threshold: 2\n  - id: a\n    threshold: 3\n"),
        ])
        #expect(result.diagnostics.map(\.description) == [
            "rules/a.yaml:6:11: error: rule 'a': 'next' names unknown rule 'bb' (did you mean 'b'?)",
            "rules/b.yaml:6:9: error: duplicate rule id 'a'\n  note: first defined at rules/a.yaml:4:9",
        ])
    }

    @Test func headerProblems() {
        let result = loader.load(files: [
            ("a.yaml", "kind: treshold_rules\nversion: 1\n"),
            ("b.yaml", "version: 1\n"),
            ("c.yaml", "kind: colours\nversion: 3\ncolours: []\n"),
            ("d.yaml", "- just a list\n"),
            ("e.yaml", ""),
            ("f.yaml", "kind: colours\nversion: 1\ncolours: [a\n"),
        ])
        #expect(result.diagnostics.map(\.description) == [
            "a.yaml:1:7: error: unknown kind 'treshold_rules' (did you mean 'threshold_rules'?)\n  note: known kinds: colours, functions, threshold_rules",
            "b.yaml:1:1: error: missing required key 'kind'\n  note: known kinds: colours, functions, threshold_rules",
            "c.yaml:2:10: error: kind 'colours' supports version 1, not 3",
            "d.yaml:1:1: error: a rule file must be a mapping with 'kind:' and 'version:', not a list",
            "e.yaml:1:1: error: file is empty; a rule file starts with 'kind:' and 'version:'",
            "f.yaml:4:1: error: yaml syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 3, column 10)",
        ])
        #expect(result.ruleSet.files.isEmpty)
    }

    @Test func anotherModulesFilesAreSkippedUnparsedWhileAMisspeltKindIsStillAnError() {
        let skipping = RuleSetLoader(kinds: [ThresholdRules.self, ColourCatalog.self], otherModulesKinds: .named(["security_rules", "security_tests"]))
        let result = skipping.load(files: [
            // A security test file with a YAML error: not this loader's business (`regimen check` reports it).
            ("tests.yaml", "kind: security-tests  # another module's kind\nversion: 1\ncases: [\n"),
            ("quoted.yaml", "kind: 'security-rules'\nversion: 1\nrules: {\n"),
            ("typo.yaml", "kind: security-test\nversion: 1\n"),
            ("ok.yaml", "kind: colours\nversion: 1\ncolours: [red]\n"),
        ])
        #expect(result.diagnostics.map(\.id) == ["rules.unknown-kind"])
        #expect(result.diagnostics.first?.location?.file == "typo.yaml")
        #expect(result.ruleSet.files.map(\.path) == ["ok.yaml"])
        // Without skipping, the same broken file is parsed and reported.
        #expect(loader.load(files: [("tests.yaml", "kind: security-tests\nversion: 1\ncases: [\n")]).diagnostics.count == 1)
    }

    @Test func loadsDirectoriesWithRelativeDisplayPaths() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-loader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("rules/sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("catalogs"), withIntermediateDirectories: true)
        try "kind: threshold_rules\nversion: 1\nrules:\n  - id: x\n    threshold: 1\n    extra: 2\n"
            .write(to: root.appendingPathComponent("rules/sub/x.yaml"), atomically: true, encoding: .utf8)
        try "kind: colours\nversion: 1\ncolours: [a, b, c]\n".write(to: root.appendingPathComponent("catalogs/c.yml"), atomically: true, encoding: .utf8)
        try "not yaml at all: [".write(to: root.appendingPathComponent("rules/.hidden.yaml"), atomically: true, encoding: .utf8)
        try "ignored".write(to: root.appendingPathComponent("rules/readme.md"), atomically: true, encoding: .utf8)

        let sources = try RuleSources.locate(rules: root.path, catalogs: nil, currentDirectory: root, executable: nil).get()
        let result = loader.load(from: sources)
        #expect(result.fileCount == 2)
        #expect(result.diagnostics.map(\.description) == ["rules/sub/x.yaml:6:5: error: rule 'x': unknown key 'extra'"])
        #expect(result.ruleSet.catalogEntryCount == 3)
    }

    @Test func locateFindsTheRepositoryFromASubdirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-locate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["rules", "catalogs", "Sources/deep/er"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let sources = try RuleSources.locate(rules: nil, catalogs: nil, currentDirectory: root.appendingPathComponent("Sources/deep/er"), executable: nil).get()
        #expect(sources.rules?.path == root.appendingPathComponent("rules").standardizedFileURL.path)
        #expect(sources.catalogs?.path == root.appendingPathComponent("catalogs").standardizedFileURL.path)

        let fromExecutable = try RuleSources.locate(
            rules: nil, catalogs: nil, currentDirectory: URL(fileURLWithPath: "/"),
            executable: root.appendingPathComponent("Sources/deep/er/regimen")).get()
        #expect(fromExecutable.rules == sources.rules)

        let missing = RuleSources.locate(rules: root.appendingPathComponent("nope").path, catalogs: nil, currentDirectory: root, executable: nil)
        #expect(throws: RuleSources.LocateError.self) { try missing.get() }
    }

    @Test func ruleSetIsReadableFromManyThreadsAtOnce() async throws {
        let ruleSet = try loader.load(files: [
            ("r.yaml", "kind: threshold_rules\nversion: 1\nrules:\n" + (0..<50).map { "  - id: r\($0)\n    threshold: \($0)\n" }.joined()),
        ]).get()
        let totals = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<16 {
                group.addTask { ruleSet.all(ThresholdRules.self).flatMap(\.rules).reduce(0) { $0 + $1.threshold } }
            }
            return await group.reduce(into: [Double]()) { $0.append($1) }
        }
        #expect(totals == Array(repeating: 1225, count: 16))
    }
}

/// A kind that reads its file's text: `name = value` lines under `lines:`.
struct AssignmentsFile: RuleFileKind {
    static let kind = "assignments"
    let names: [String]
    var ruleCount: Int { names.count }

    static func decode(_ document: inout MappingDecoder) -> AssignmentsFile? { decode(&document, text: "") }

    static func decode(_ document: inout MappingDecoder, text: String) -> AssignmentsFile? {
        document.allow("lines")
        switch parse(text, path: document.node.location.file) {
        case .success(let file): return file
        case .failure(let error):
            document.context.report(contentsOf: error.diagnostics)
            return nil
        }
    }

    static func parse(_ text: String, path: String) -> Result<AssignmentsFile, DiagnosticsError> {
        var names: [String] = []
        var problems: [Diagnostic] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.hasPrefix("  ") {
            let parts = line.dropFirst(2).split(separator: "=")
            if parts.count == 2 {
                names.append(parts[0].trimmingCharacters(in: .whitespaces))
            } else {
                problems.append(.error("assign.syntax", "expected 'name = value'", at: SourceLocation(file: path, line: index + 1, column: 3)))
            }
        }
        return problems.isEmpty ? .success(AssignmentsFile(names: names)) : .failure(DiagnosticsError(problems))
    }
}

@Suite struct TextReadingKindTests {
    let loader = RuleSetLoader(kinds: [AssignmentsFile.self])

    @Test func theFilesTextIsHandedToTheKind() throws {
        let ruleSet = try loader.load(files: [("a.yaml", "kind: assignments\nversion: 1\nlines: |\n  a = 1\n  b = 2\n")]).get()
        #expect(ruleSet.first(AssignmentsFile.self)?.names == ["a", "b"])
        #expect(ruleSet.ruleCount == 2)
    }

    @Test func itsDiagnosticsAreReportedAndHeaderStillChecked() {
        let result = loader.load(files: [
            ("a.yaml", "kind: assignments\nversion: 1\nlines: |\n  a = 1\n  oops\n"),
            ("b.yaml", "kind: assignments\nversion: 2\n"),
        ])
        #expect(result.diagnostics.map(\.description) == [
            "a.yaml:5:3: error: expected 'name = value'",
            "b.yaml:2:10: error: kind 'assignments' supports version 1, not 2",
        ])
    }
}

@Suite struct RequiredRuleFilesTests {
    @Test func namesEveryMissingKindAtOnce() {
        let loader = RuleSetLoader(kinds: [ThresholdRules.self, ColourCatalog.self])
        let ruleSet = loader.load(files: []).ruleSet
        var required = RequiredRuleFiles(ruleSet)
        #expect(required.take(ThresholdRules.self) == nil)
        #expect(required.take(ColourCatalog.self) == nil)
        #expect(required.missingKinds == [ThresholdRules.kind, ColourCatalog.kind])
        // Reported sorted (stable output), whatever order the kinds were asked in.
        #expect(required.error(neededBy: "the test").diagnostics.map(\.message) == [
            "no rule file of kind 'colours' was loaded (needed by the test)",
            "no rule file of kind 'threshold_rules' was loaded (needed by the test)",
        ])
    }

    @Test func aKindWhoseFileFailedToLoadPointsAtThatFile() {
        let loader = RuleSetLoader(kinds: [ThresholdRules.self, ColourCatalog.self])
        let result = loader.load(files: [("rules/t.yaml", "kind: threshold_rules\nversion: 1\n  broken: [\n")])
        #expect(result.diagnostics.allSatisfy { $0.location?.file == "rules/t.yaml" })
        var required = RequiredRuleFiles(result.ruleSet)
        #expect(required.take(ThresholdRules.self) == nil)
        #expect(required.take(ColourCatalog.self) == nil)
        #expect(required.error(neededBy: "the test").diagnostics.map(\.description) == [
            "error: no rule file of kind 'colours' was loaded (needed by the test)",
            "rules/t.yaml:1:1: error: the 'threshold_rules' rules of this file are unavailable (needed by the test) because the file has errors",
        ])
    }
}
