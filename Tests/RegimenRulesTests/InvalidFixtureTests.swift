import Foundation
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

/// Each `Fixtures/invalid/NAME.yaml` is a deliberately broken rule file; `NAME.diagnostics` holds
/// the exact `file:line:column: severity: message` lines loading it must produce.
/// Set `RECORD_DIAGNOSTICS=1` to rewrite the expectations after a deliberate change (then review
/// the diff: the goldens are the specification).
@Suite struct InvalidFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/invalid")

    static var fixtureNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    let loader = RuleSetLoader(kinds: [ThresholdRules.self, ConditionRules.self, TrainingBlocks.self, ColourCatalog.self])

    @Test func everyFixtureHasExpectations() {
        #expect(Self.fixtureNames.count >= 8)
    }

    @Test(arguments: fixtureNames)
    func diagnosticsMatchTheGolden(_ name: String) throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("\(name).yaml"), encoding: .utf8)
        let result = loader.load(files: [("invalid/\(name).yaml", text)])
        let actual = result.diagnostics.map(\.description).joined(separator: "\n") + "\n"
        let goldenURL = Self.directory.appendingPathComponent("\(name).diagnostics")
        if ProcessInfo.processInfo.environment["RECORD_DIAGNOSTICS"] != nil {
            try actual.write(to: goldenURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: goldenURL, encoding: .utf8)
        #expect(actual == expected)
        #expect(result.hasErrors, "a fixture under invalid/ must fail to load")
    }
}
