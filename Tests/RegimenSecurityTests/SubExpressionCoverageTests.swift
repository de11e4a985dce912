import Foundation
import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

/// The coverage report's per-sub-expression figures: exact counts and values on a small policy
/// whose cases are known, the page's title, escaping and determinism, and properties over every
/// shipped policy and its test file.
@Suite("Sub-expression coverage")
struct SubExpressionCoverageTests {
    static let policyText = """
    rules_version = '2';
    // Notes: <b>owners</b> & "public" ones.
    service cloud.firestore {
      match /databases/{database}/documents {
        function isOwner(uid) { return request.auth != null && request.auth.uid == uid; }
        match /notes/{noteId} {
          allow get: if isOwner(resource.data.owner) || resource.data.public == true;
          allow delete: if request.auth.token.admin == true;
        }
      }
    }

    """

    static let testsText = """
    kind: security_tests
    version: 1
    rules: notes.rules
    documents:
      notes/a: {owner: alice, public: false}
      notes/b: {owner: bob, public: true}
    cases:
      - {name: the owner reads, auth: {uid: alice}, get: notes/a, expect: allow}
      - {name: another user is refused, auth: {uid: bob}, get: notes/a, expect: deny}
      - {name: a public note is read signed out, get: notes/b, expect: allow}

    """

    /// Writes the policy and its tests to a fresh directory and runs them with a recorder.
    static func run() throws -> (report: CoverageReport, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-subexpr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try policyText.write(to: directory.appendingPathComponent("notes.rules"), atomically: true, encoding: .utf8)
        try testsText.write(to: directory.appendingPathComponent("notes.tests.yaml"), atomically: true, encoding: .utf8)
        let suite = try SecurityTestSuite.load(file: directory.appendingPathComponent("notes.tests.yaml").path)
        let runner = try SecurityTestRunner(suite: suite)
        let recorder = CoverageRecorder(policy: runner.policy)
        let result = runner.run(coverage: recorder)
        #expect(result.failed == 0)
        return (CoverageReport(recorder), directory)
    }

    static func entry(_ entries: [SubExpressionCoverage], _ text: String, line: Int) throws -> SubExpressionCoverage {
        try #require(entries.first { $0.text == text && $0.start.line == line }, "no sub-expression '\(text)' on line \(line)")
    }

    @Test("each sub-expression has its exact evaluation count and outcomes")
    func exactCounts() throws {
        let (report, directory) = try Self.run()
        defer { try? FileManager.default.removeItem(at: directory) }
        let entries = report.subExpressions()
        // The allow: three cases reach it; `||` stops at the owner's true.
        let condition = try Self.entry(entries, "isOwner(resource.data.owner) || resource.data.public == true", line: 7)
        #expect(condition.owner == .allow(0))
        #expect((condition.summary.evaluated, condition.summary.isTrue, condition.summary.isFalse, condition.summary.errored) == (3, 2, 1, 0))
        let call = try Self.entry(entries, "isOwner(resource.data.owner)", line: 7)
        #expect((call.summary.evaluated, call.summary.isTrue, call.summary.isFalse) == (3, 1, 2))
        let owner = try Self.entry(entries, "resource.data.owner", line: 7)
        #expect(owner.summary.evaluated == 3)
        #expect(owner.summary.values.map(\.value) == [.string("alice"), .string("bob")])
        #expect(owner.summary.values.map(\.count) == [2, 1])
        #expect(owner.summary.description == "evaluated 3: 'alice' ×2, 'bob' ×1")
        let isPublic = try Self.entry(entries, "resource.data.public == true", line: 7)
        #expect((isPublic.summary.evaluated, isPublic.summary.isTrue, isPublic.summary.isFalse) == (2, 1, 1))
        // The function: signed out, `&&` stops at `request.auth != null`.
        let signedIn = try Self.entry(entries, "request.auth != null", line: 5)
        #expect(signedIn.owner == .function(0))
        #expect((signedIn.summary.evaluated, signedIn.summary.isTrue, signedIn.summary.isFalse) == (3, 2, 1))
        let same = try Self.entry(entries, "request.auth.uid == uid", line: 5)
        #expect((same.summary.evaluated, same.summary.isTrue, same.summary.isFalse) == (2, 1, 1))
        let uid = try Self.entry(entries, "request.auth.uid", line: 5)
        #expect(uid.summary.description == "evaluated 2: 'alice' ×1, 'bob' ×1")
        // No case deletes: every part of that condition is listed, never evaluated.
        let admin = entries.filter { $0.owner == .allow(1) }
        #expect(!admin.isEmpty)
        #expect(admin.allSatisfy { $0.summary.evaluated == 0 })
        #expect(admin.contains { $0.text == "request.auth.token.admin == true" })
        // Ranges point at the text: line 7 column 21 is where the condition starts.
        #expect((condition.start.line, condition.start.column, condition.end.line) == (7, 21, 7))
        let scalars = Array(Self.policyText.unicodeScalars)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[condition.startOffset..<condition.endOffset])
        #expect(String(view) == condition.text)
    }

    @Test("the page marks every sub-expression with its figures and lists them under each statement")
    func htmlMarksSubExpressions() throws {
        let (report, directory) = try Self.run()
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = report.html(title: "notes.rules")
        #expect(html.contains("<title>Coverage: notes.rules</title>"))
        #expect(html.contains("title=\"resource.data.owner (7:29–7:48): evaluated 3: 'alice' ×2, 'bob' ×1\""))
        #expect(html.contains("<span class=\"x never\""))
        #expect(html.contains("<details><summary>allow delete (line 8): evaluated 0: true 0, false 0, error 0 — 4 of 4 sub-expressions never evaluated</summary>"))
        #expect(html.contains("<li class=\"never\"><a href=\"#"))
        // Policy text is escaped, marks included.
        #expect(html.contains("// Notes: &lt;b&gt;owners&lt;/b&gt; &amp; &quot;public&quot; ones."))
        #expect(!html.contains("<b>owners</b>"))
        #expect(html.contains(".owner</span>)</span> || "))
        // Every mark that opens closes: the page stays well nested.
        #expect(html.components(separatedBy: "<span").count == html.components(separatedBy: "</span>").count)
    }

    @Test("two runs of the same cases write the same page")
    func deterministic() throws {
        let (first, one) = try Self.run()
        let (second, two) = try Self.run()
        defer {
            try? FileManager.default.removeItem(at: one)
            try? FileManager.default.removeItem(at: two)
        }
        #expect(first.html(title: "notes.rules") == second.html(title: "notes.rules"))
    }

    @Test("the title is the path relative to where the tests ran")
    func relativeTitle() {
        #expect(CoverageReport.relativePath("/work/repo/rules/a.rules", to: "/work/repo") == "rules/a.rules")
        #expect(CoverageReport.relativePath("/work/repo/rules/a.rules", to: "/work/repo/docs") == "../rules/a.rules")
        #expect(CoverageReport.relativePath("rules/a.rules", to: "/work/repo") == "rules/a.rules")
        #expect(CoverageReport.relativePath("/etc/a.rules", to: "/home/user/projects/deep/down") == "/etc/a.rules")
    }

    @Test("a value summary keeps a bounded number of values and counts the rest")
    func boundedValues() {
        var summary = ValueSummary()
        for index in 0..<200 { summary.record(.success(.int(Int64(index % 100)))) }
        #expect(summary.values.count == ValueSummary.keptValues)
        #expect(summary.values.map(\.count) == Array(repeating: 2, count: ValueSummary.keptValues))
        #expect(summary.moreValues == ValueSummary.countedOthers)
        #expect(summary.othersOverflowed)
        #expect(summary.description.hasSuffix("and 64+ more"))
    }

    @Test("every counted span lies in the file, and an && never runs its right operand more than its left", arguments: shippedTestFiles)
    func shippedPolicyProperties(file: String) throws {
        let (runner, report) = try coverageOfShippedTests(file)
        let entries = report.subExpressions()
        let recorder = report.recorder
        let length = runner.policy.policy.origin.text.unicodeScalars.count
        for entry in entries {
            #expect(entry.startOffset >= 0 && entry.startOffset < entry.endOffset && entry.endOffset <= length, "\(entry.text)")
            #expect(!entry.text.isEmpty)
        }
        // Every recorded span is shown: none falls outside the text.
        #expect(entries.filter { $0.summary.evaluated > 0 }.count == recorder.spanSummaries.count)
        var conjunctions = 0
        func check(_ expr: Expr, allow: Int, offset: Int) {
            if case .binary(.and, let l, let r, _) = expr {
                let shift = { (span: SourceSpan) in SourceSpan(start: span.start + offset, end: span.end + offset) }
                let left = recorder.spanSummaries[.init(allow: allow, span: shift(l.span))]?.evaluated ?? 0
                let right = recorder.spanSummaries[.init(allow: allow, span: shift(r.span))]?.evaluated ?? 0
                #expect(right <= left, "\(l) && \(r)")
                conjunctions += 1
            }
            for child in expr.children { check(child, allow: allow, offset: offset) }
        }
        for allow in runner.policy.allows {
            if let expression = allow.expression { check(expression, allow: allow.id, offset: 0) }
        }
        for function in runner.policy.functions {
            var offset = 0
            for part in function.partSources {
                if case .success(let expr) = Parser.parse(part.text) { check(expr, allow: -1, offset: offset) }
                offset += part.text.unicodeScalars.count + 1
            }
        }
        #expect(conjunctions > 0)
    }
}
