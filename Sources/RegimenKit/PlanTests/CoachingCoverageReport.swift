import Foundation
import RegimenLanguage
import RegimenRules
import RegimenSecurity

/// Coverage of the coaching rules by a run of plan tests, as text, HTML (each rule file with its
/// rules marked) and LCOV (a line per rule, on the rule files' lines).
///
/// Every rule of the inventory is listed exactly once, in file order.
package struct CoachingCoverageReport: Sendable {
    package let coverage: CoachingCoverage

    package init(_ coverage: CoachingCoverage) { self.coverage = coverage }

    private var rules: [CoachingRule] { coverage.inventory.rules }

    private func count(_ rule: CoachingRule) -> Int { coverage.hits[rule.id] ?? 0 }

    /// Rules reached by at least one case, out of all.
    var covered: (covered: Int, total: Int) { (coverage.covered.count, rules.count) }

    /// The covered share as a whole percent, rounded down (99.6% is not 100%).
    package var percent: Int {
        let pair = covered
        return pair.total == 0 ? 100 : pair.covered * 100 / pair.total
    }

    private static func cases(_ count: Int) -> String { count == 1 ? "1 case" : "\(count) cases" }

    package func text() -> String {
        let pair = covered
        var out = "coverage of coaching rules\n"
        out += "  rules: \(pair.covered)/\(pair.total) (\(percent)%)\n"
        for rule in rules {
            out += "    \(rule.location.file):\(rule.location.line): \(rule.category) \(rule.id) — \(Self.cases(count(rule)))\n"
        }
        let never = coverage.uncovered
        if never.isEmpty {
            out += "  every coaching rule was covered\n"
        } else {
            out += "  never covered:\n"
            for rule in never { out += "    \(rule.location.file):\(rule.location.line): \(rule.category) \(rule.id) (\(rule.summary))\n" }
        }
        return out
    }

    /// The rule files in the order their rules appear.
    private var files: [String] {
        var seen: [String] = []
        for rule in rules where !seen.contains(rule.location.file) { seen.append(rule.location.file) }
        return seen
    }

    /// One page: a summary table, then each rule file's source with its rules' lines marked
    /// covered (green, with the number of cases) or never covered (red).
    package func html() -> String {
        let pair = covered
        var out = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>Coverage: coaching rules</title>
        <style>
        \(CoverageReport.stylesheet)</style></head><body>
        <h1>Coaching rules</h1>
        <p>Rules \(pair.covered)/\(pair.total) (\(percent)%). A rule is covered when at least one plan-test case
        selected it or made its condition hold; counts are cases. Red lines hold a rule no case reached.</p>

        """
        for file in files {
            let fileRules = rules.filter { $0.location.file == file }
            let hit = fileRules.filter { count($0) > 0 }.count
            out += "<h2>\(MarkupText.escaped(file)) — \(hit)/\(fileRules.count)</h2>\n<table>\n"
            var byLine: [Int: [CoachingRule]] = [:]
            for rule in fileRules { byLine[rule.location.line, default: []].append(rule) }
            let lines = (try? InputFile.read(path: file)).map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
            if let lines {
                for (index, line) in lines.enumerated() {
                    let number = index + 1
                    out += row(number: number, text: line, rules: byLine[number] ?? [])
                }
            } else {
                for rule in fileRules { out += row(number: rule.location.line, text: rule.summary, rules: [rule]) }
            }
            out += "</table>\n"
        }
        return out + "</body></html>\n"
    }

    private func row(number: Int, text: String, rules: [CoachingRule]) -> String {
        let cases = rules.map(count).reduce(0, +)
        let rowClass = rules.isEmpty ? "" : (rules.allSatisfy { count($0) > 0 } ? "hit" : "miss")
        let countText = rules.isEmpty ? "" : String(cases)
        let note = rules.map { "\($0.category) \($0.id): \(Self.cases(count($0)))" }.joined(separator: "; ")
        return "<tr class=\"\(rowClass)\"><td class=\"n\">\(number)</td><td class=\"c\">\(countText)</td><td class=\"s\">\(MarkupText.escaped(text))</td><td class=\"a\">\(MarkupText.escaped(note))</td></tr>\n"
    }

    /// LCOV tracefile: a `DA` line per rule (its line, the cases that reached it), per rule file.
    package func lcov(testName: String = "regimen") -> String {
        var out = ""
        for file in files {
            var lines: [Int: Int] = [:]
            for rule in rules where rule.location.file == file {
                lines[rule.location.line] = (lines[rule.location.line] ?? 0) + count(rule)
            }
            out += "TN:\(testName)\nSF:\(file)\n"
            let sorted = lines.keys.sorted()
            for line in sorted { out += "DA:\(line),\(lines[line] ?? 0)\n" }
            out += "LF:\(sorted.count)\nLH:\(sorted.filter { (lines[$0] ?? 0) > 0 }.count)\nend_of_record\n"
        }
        return out
    }
}
