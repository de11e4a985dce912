import Foundation
@testable import RegimenKit
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenCommands

/// `regimen explain-kind` and the copies of its lists in rule-file headers.
@Suite struct ExplainKindCommandTests {
    static let repository = ShippedRulesCheckTests.repository

    /// The shipped YAML files under rules/ whose `kind:` line is `kind`.
    static func files(ofKind kind: String) -> [(path: String, text: String)] {
        let rules = repository.appendingPathComponent("rules")
        guard let walker = FileManager.default.enumerator(atPath: rules.path) else { return [] }
        var found: [(String, String)] = []
        for case let relative as String in walker where relative.hasSuffix(".yaml") {
            guard let text = try? String(contentsOf: rules.appendingPathComponent(relative), encoding: .utf8) else { continue }
            if text.split(separator: "\n").contains(where: { $0 == "kind: \(kind)" }) { found.append(("rules/" + relative, text)) }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    @Test func everyRuleFileHeaderListsExactlyItsKindsDeclaredVariables() {
        var checked = 0
        for kind in RuleKindVariables.kinds {
            guard let variables = RuleKindVariables(kind: kind), !variables.isEmpty else { continue }
            let block = variables.lines(prefix: "#   ").joined(separator: "\n") + "\n"
            for file in Self.files(ofKind: kind) {
                checked += 1
                #expect(file.text.contains(block), "\(file.path) does not repeat `regimen explain-kind \(kind)`; paste:\n\(block)")
            }
        }
        #expect(checked >= 2)
    }

    @Test func textListsEveryScopeAndVariable() {
        let run = runRegimen(["explain-kind", "progression_rules"], in: Self.repository)
        #expect(run.status == 0)
        #expect(run.standardError == "")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "kind: progression_rules")
        #expect(lines.contains { $0.hasPrefix("  for_each: logged_exercise (") })
        #expect(lines.contains { $0.hasPrefix("    load_kg ") && $0.contains(" number or null ") })
    }

    @Test func jsonCarriesNameTypeNullabilityAndDoc() throws {
        let run = runRegimen(["explain-kind", "readiness_rules", "--format", "json"], in: Self.repository)
        #expect(run.status == 0)
        let document = try #require(YAMLReader.read(run.standardOutput, file: "kind.json").document?.value())
        #expect(document["kind"]?.stringValue == "readiness_rules")
        let scopes = document["scopes"]?.listValue ?? []
        #expect(scopes.count == 6)
        let day = scopes.first { $0["keys"]?.stringValue == "low_day, high_day" }
        let readiness = day?["variables"]?.listValue?.first { $0["name"]?.stringValue == "readiness" }
        #expect(readiness?["type"]?.stringValue == "number")
        #expect(readiness?["nullable"]?.boolValue == false)
        #expect(readiness?["doc"]?.stringValue?.isEmpty == false)
    }

    @Test func anUnknownKindIsAUsageErrorWithASuggestion() {
        let run = runRegimen(["explain-kind", "readines_rules"], in: Self.repository)
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("error: unknown kind 'readines_rules' (did you mean 'readiness_rules'?)\n"))
    }
}
