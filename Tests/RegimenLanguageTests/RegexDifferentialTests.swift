import Foundation
import Testing
@testable import RegimenLanguage

/// Regimen's regular expressions against RE2 itself: the answers of PyPI's `google-re2` on
/// generated pattern/text pairs (`scripts/regex/differential_re2.py`).
@Suite struct RegexDifferentialTests {
    /// What the differential script compares: whether the pattern compiles, whether it matches
    /// the whole text, and the spans (code points) of the first match and its groups.
    static func answer(pattern: String, text: String) -> [String: Any] {
        guard let regex = try? RegularExpression(pattern) else { return ["ok": false] }
        var steps = 0
        let full = regex.wholeMatch(text, steps: &steps) ?? false
        let first = regex.matches(in: text.unicodeScalars.map(\.value), steps: &steps)?.first
        var spans: Any = NSNull()
        if let slots = first {
            spans = stride(from: 0, to: slots.count, by: 2).map { index -> [Int] in
                slots[index] < 0 || slots[index + 1] < 0 ? [-1, -1] : [slots[index], slots[index + 1]]
            }
        }
        return ["ok": true, "full": full, "spans": spans]
    }

    static func readLines(_ url: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// Every pair of the committed sample (generated cases without the known RE2/J differences)
    /// gets RE2's syntax verdict, whole-match result and first-match spans.
    @Test func agreesWithRE2OnTheSample() throws {
        let url = try #require(Bundle.module.url(forResource: "Conformance/re2_differential_sample", withExtension: "jsonl"))
        let cases = try Self.readLines(url)
        #expect(cases.count >= 1000)
        var disagreements = 0
        for row in cases {
            guard let pattern = row["p"] as? String, let text = row["s"] as? String, let ok = row["ok"] as? Bool else {
                Issue.record("malformed sample row \(row)")
                continue
            }
            let ours = Self.answer(pattern: pattern, text: text)
            var same = (ours["ok"] as? Bool) == ok
            if same, ok {
                same = (ours["full"] as? Bool) == (row["full"] as? Bool)
                    && ((ours["spans"] as? [[Int]]) ?? []) == ((row["spans"] as? [[Int]]) ?? [])
            }
            if !same {
                disagreements += 1
                if disagreements <= 20 { Issue.record("RE2 \(row) | Regimen \(ours)") }
            }
        }
        #expect(disagreements == 0)
    }

    /// Answers the cases of a full differential run (the script sets both variables).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["REGIMEN_RE2_CASES"] != nil))
    func answersCasesFromEnvironment() throws {
        let environment = ProcessInfo.processInfo.environment
        let input = URL(fileURLWithPath: try #require(environment["REGIMEN_RE2_CASES"]))
        let output = URL(fileURLWithPath: try #require(environment["REGIMEN_RE2_ANSWERS"]))
        var lines: [String] = []
        for row in try Self.readLines(input) {
            let answer = Self.answer(pattern: row["p"] as? String ?? "", text: row["s"] as? String ?? "")
            let data = try JSONSerialization.data(withJSONObject: answer)
            lines.append(String(decoding: data, as: UTF8.self))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: output, atomically: true, encoding: .utf8)
    }
}
