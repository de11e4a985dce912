import Foundation
import Testing
import RegimenRules
@testable import RegimenCommands

@Suite struct RuleKindRegistryTests {
    /// The manifest that lets one module skip another's files must list exactly what the modules
    /// register; otherwise a module's own load would reject, or silently skip, a real file.
    @Test func manifestMatchesRegisteredKinds() {
        let registered = Set(RuleKindRegistry.all.map { $0.kind }).union(["functions"])
        #expect(registered == ProjectRuleKinds.all)
    }

    @Test func everyBundledFileLoadsWithoutErrors() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let sources = try #require(try? RuleSources.locate(rules: nil, catalogs: nil, currentDirectory: here, executable: nil).get())
        let result = RuleKindRegistry.loader.load(from: sources)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        #expect(result.fileCount > 10)
    }
}
