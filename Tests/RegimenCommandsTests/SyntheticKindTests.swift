import Foundation
import Testing
@testable import RegimenKit
@testable import RegimenLanguage
@testable import RegimenRules

/// A kind no module defines, registered only by this test. Everything a kind owns (its decoder,
/// variables, coverage sections and schema) comes from its type, so adding it to the list of
/// kinds is the only edit `check`, coverage, schemas and `explain-kind` need.
private struct WarmupDrillsFile: RuleFileKind {
    static let kind = "warmup_drills"
    static let drillsSection = RuleSection(Self.self, .list(idKey: "id"), key: "drills", category: "warm-up drill")
    static var ruleSections: [RuleSection] { [drillsSection] }
    static let minutes = VariableDeclaration("session_minutes", .int, "the planned session length")
    static let drillScope = ExpressionScope("drills[].when", "once per session", [minutes])
    static var expressionScopes: [ExpressionScope] { [drillScope] }

    var drills: [(id: String, when: CompiledExpression)]
    var ruleCount: Int { drills.count }

    static func decode(_ document: inout MappingDecoder) -> WarmupDrillsFile? {
        let context = document.context
        let environment = context.environment(declaring: drillScope.variables)
        let drills = document.list("drills") { node, path in
            context.mapping(node, at: path) { map -> (id: String, when: CompiledExpression)? in
                let id = map.required("id", as: String.self)
                let when = map.requiredExpression("when", in: environment)
                guard let id, let when else { return nil }
                return (id, when)
            }
        }
        guard !context.hasErrors, let drills else { return nil }
        return WarmupDrillsFile(drills: drills)
    }
}

@Suite struct SyntheticKindTests {
    static let registered: [any RuleFileKind.Type] = RegimenRuleKinds.all + [WarmupDrillsFile.self]

    /// A rules folder holding one file of the synthetic kind (and an empty catalogs folder).
    private func folder(_ text: String) throws -> (root: URL, sources: RuleSources) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-synthetic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("rules"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("catalogs"), withIntermediateDirectories: true)
        try text.write(to: root.appendingPathComponent("rules/warmup.yaml"), atomically: true, encoding: .utf8)
        let sources = try RuleSources.locate(rules: "rules", catalogs: "catalogs", currentDirectory: root, executable: nil).get()
        return (root, sources)
    }

    private let file = """
        kind: warmup_drills
        version: 1
        drills:
          - id: neck_circles
            when: session_minutes >= 30
          - id: hip_openers
            when: session_minutes >= 45

        """

    @Test func checkLoadsItsFilesWithItsDecoderAndReportsItsErrors() throws {
        let (root, _) = try folder(file)
        defer { try? FileManager.default.removeItem(at: root) }
        let check = try RuleCheck(rules: "rules", catalogs: "catalogs", currentDirectory: root, executable: nil, kinds: Self.registered)
        #expect(check.diagnostics.map(\.description) == [])
        #expect(check.ruleCount == 2)

        // Unregistered, the same file is an unknown kind.
        let unregistered = try RuleCheck(rules: "rules", catalogs: "catalogs", currentDirectory: root, executable: nil)
        #expect(unregistered.diagnostics.map(\.id) == ["rules.unknown-kind"])

        // Its expressions are compiled against its own variables: an undeclared one is located.
        let (badRoot, _) = try folder(file.replacingOccurrences(of: "session_minutes >= 45", with: "sesion_minutes >= 45"))
        defer { try? FileManager.default.removeItem(at: badRoot) }
        let bad = try RuleCheck(rules: "rules", catalogs: "catalogs", currentDirectory: badRoot, executable: nil, kinds: Self.registered)
        let error = try #require(bad.diagnostics.first { $0.severity == .error })
        #expect(error.location?.line == 7, "\(error)")
        #expect(error.description.contains("sesion_minutes"), "\(error)")
    }

    @Test func coverageListsEveryEntryOfItsSections() throws {
        let (root, sources) = try folder(file)
        defer { try? FileManager.default.removeItem(at: root) }
        let inventory = CoachingRuleInventory(sources: sources, kinds: Self.registered)
        #expect(inventory.rules.map(\.id) == [WarmupDrillsFile.drillsSection.id("neck_circles"), "warmup_drills.drills.hip_openers"])
        #expect(inventory.rules.map(\.category) == ["warm-up drill", "warm-up drill"])
        #expect(inventory.rules.map(\.location.line) == [4, 6])
        #expect(inventory.rules.first?.summary == "neck_circles: when session_minutes >= 30")
        #expect(CoachingRuleInventory(sources: sources).rules.isEmpty, "an unregistered kind has no rules to cover")
    }

    @Test func itsSchemaIsDescribedFromItsDecoder() throws {
        let schema = try #require(RegimenSchemas.all(kinds: Self.registered).first { $0.name == "warmup_drills" })
        #expect(schema.fileName == "warmup_drills.schema.json")
        let drills = try #require(schema.document["properties"]?["drills"])
        #expect(drills["type"] == .string("array"))
        let item = try #require(drills["items"]?["properties"])
        #expect(item["id"] != nil && item["when"] != nil, "\(schema.text)")
        #expect(!RegimenSchemas.all().contains { $0.name == "warmup_drills" })
    }

    @Test func explainKindPrintsItsVariables() throws {
        let variables = try #require(RuleKindVariables(kind: "warmup_drills", among: Self.registered))
        let text = variables.lines(prefix: "").joined(separator: "\n")
        #expect(text.contains("drills[].when"), "\(text)")
        #expect(text.contains("session_minutes"), "\(text)")
        #expect(RuleKindVariables.kinds(among: Self.registered).contains("warmup_drills"))
        #expect(RuleKindVariables(kind: "warmup_drills") == nil)
    }
}
