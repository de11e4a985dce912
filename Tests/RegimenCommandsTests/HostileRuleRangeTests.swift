import Foundation
import RegimenTestSupport
import Testing

/// A range in a rule file with a bound no integer holds is reported at its line, never trapped
/// on: every whole-number range goes through a checked conversion.
struct HostileRuleRangeTests {
    @Test("a meals-per-day fallback of [1, 1e300] is a located error, exit 1", arguments: ["[1, 1e300]", "[1, .inf]", "[-1e300, 4]"])
    func hugeMealsFallback(range: String) throws {
        let scratch = try shippedRules(editing: ["rules/meals.yaml": ("meals_per_day_fallback: 2-8", "meals_per_day_fallback: \(range)")])
        defer { scratch.cleanUp() }
        let check = runRegimen(["check", "--rules", scratch.path("rules")], in: scratch.url)
        #expect(check.status == 1)
        let shipped = try String(contentsOf: scratch.url.appendingPathComponent("rules/meals.yaml"), encoding: .utf8)
        let line = try #require(shipped.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("meals_per_day_fallback:") }) + 1
        #expect(check.standardError.contains("meals.yaml:\(line):"), "\(check.standardError)")
    }
}
