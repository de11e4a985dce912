@testable import RegimenLanguage
import RegimenTestSupport
import Testing
@testable import RegimenRules

/// Issue 33, item 4: "at most a bounded number of diagnostics of one kind, then 'and N more'".
/// One huge file used to produce one diagnostic per mistake (a profile with 100,000 unknown keys:
/// 32 MB); now every collector and every thrown ``DiagnosticsError`` keeps at most
/// ``DiagnosticCap/perKind`` per kind and file.
@Suite struct DiagnosticCapTests {
    let loader = RuleSetLoader(kinds: [ThresholdRules.self, ColourCatalog.self])

    /// A threshold file of `rows` rules, each with an unknown key and an out-of-range threshold.
    static func file(rows: Int) -> String {
        var text = "kind: threshold_rules\nversion: 1\nrules:\n"
        for row in 0..<rows { text += "  - {id: r\(row), threshold: 500, colour: red}\n" }
        return text
    }

    /// Property: for every row count, each kind lists min(count, cap) diagnostics plus one summary
    /// naming exactly how many were left out, so the output grows with the kinds, not the rows.
    @Test(arguments: [1, 49, 50, 51, 52, 400, 5_000])
    func eachKindIsListedUpToTheCapThenSummed(rows: Int) {
        let diagnostics = loader.load(files: [("rules/big.yaml", Self.file(rows: rows))]).diagnostics
        let cap = DiagnosticCap.perKind
        for id in Set(diagnostics.map(\.id)) {
            let ofKind = diagnostics.filter { $0.id == id }
            let summaries = ofKind.filter { $0.message.hasPrefix("and ") && $0.message.contains("not listed one by one") }
            #expect(ofKind.count == min(rows, cap) + (rows > cap ? 1 : 0), "\(id): \(ofKind.count) for \(rows) rows")
            if rows > cap {
                #expect(summaries.count == 1)
                #expect(summaries.first?.message.hasPrefix("and \(rows - cap) more '\(id)'") == true, "\(summaries.first?.message ?? "")")
                // At the first diagnostic not listed: row cap + 1 (line 4 is the first row).
                #expect(summaries.first?.location?.line == 4 + cap)
            } else {
                #expect(summaries.isEmpty)
            }
        }
        #expect(diagnostics.count <= 3 * (cap + 1))
        #expect(!diagnostics.isEmpty)
    }

    /// A thrown error is capped the same way, keeping the first diagnostics by location.
    @Test func thrownErrorsAreCapped() {
        let many = (1...1_000).map { Diagnostic.error("x.same", "problem \($0)", at: SourceLocation(file: "f.yaml", line: $0, column: 1)) }
        let other = Diagnostic.error("x.other", "another", at: SourceLocation(file: "g.yaml", line: 1, column: 1))
        let error = DiagnosticsError(many.reversed() + [other])
        #expect(error.diagnostics.count == DiagnosticCap.perKind + 2)
        #expect(error.diagnostics.first?.message == "problem 1")
        #expect(error.diagnostics.contains { $0.message == "and \(1_000 - DiagnosticCap.perKind) more 'x.same' diagnostics in f.yaml, not listed one by one (the first \(DiagnosticCap.perKind) are)" })
    }
}
