import Foundation
public import RegimenLanguage
import OrderedCollections

/// The outcome of one test case.
public struct SecurityTestResult: Sendable {
    /// The case's name.
    public var name: String
    /// Where the case is written.
    public var location: SourceLocation
    /// Whether the case expects the request to be allowed.
    public var expectAllow: Bool
    /// The policy's decision.
    public var decision: Decision
    /// Whether the decision is the one the case expects.
    public var passed: Bool { decision.allowed == expectAllow }

    /// `PASS name` or `FAIL name — expected allow, got deny: reason`.
    public var line: String {
        if passed { return "PASS \(name)" }
        let expected = expectAllow ? "allow" : "deny"
        let got = decision.allowed ? "allow" : "deny"
        return "FAIL \(name) — expected \(expected), got \(got): \(decision.summary)"
    }
}

/// The results of one test file.
public struct SecurityTestFileResult: Sendable {
    /// The test file's path.
    public var file: String
    /// One result per case, in file order.
    public var results: [SecurityTestResult]
    /// The suite that was run, for reports that show the requests.
    package var suite: SecurityTestSuite?
    /// The number of cases that passed.
    public var passed: Int { results.filter(\.passed).count }
    /// The number of cases that failed.
    public var failed: Int { results.count - passed }
}

/// Runs the cases of a test suite against its policy.
package struct SecurityTestRunner {
    package let suite: SecurityTestSuite
    package let policy: CompiledPolicy

    package init(suite: SecurityTestSuite) throws(DiagnosticsError) {
        self.suite = suite
        policy = try CompiledPolicy(suite.policy)
    }

    /// Runs `suite` against an already compiled copy of its policy.
    package init(suite: SecurityTestSuite, policy: CompiledPolicy) {
        self.suite = suite
        self.policy = policy
    }

    /// Runs every case in order. A failing case is decided again with explanations so its line
    /// says which sub-expression was false or errored.
    package func run(coverage: CoverageRecorder? = nil) -> SecurityTestFileResult {
        var results: [SecurityTestResult] = []
        results.reserveCapacity(suite.cases.count)
        for testCase in suite.cases {
            var store = suite.documents
            for (path, data) in testCase.documents { store[path] = data }
            var decision = policy.decide(testCase.request, store: store, coverage: coverage)
            if decision.allowed != testCase.expectAllow {
                decision = policy.decide(testCase.request, store: store, options: DecisionOptions(explain: true, evaluateAll: true))
            }
            results.append(SecurityTestResult(name: testCase.name, location: testCase.location, expectAllow: testCase.expectAllow, decision: decision))
        }
        return SecurityTestFileResult(file: suite.file, results: results, suite: suite)
    }
}

/// Test results written for people (text) and for tools (JSON, JUnit XML).
public enum SecurityTestReport {
    /// One `PASS`/`FAIL` line per case, then a summary line.
    public static func text(_ files: [SecurityTestFileResult]) -> String {
        var out = ""
        for file in files {
            for result in file.results { out += result.line + "\n" }
        }
        let passed = files.reduce(0) { $0 + $1.passed }, failed = files.reduce(0) { $0 + $1.failed }
        out += "\(passed) passed, \(failed) failed\n"
        return out
    }

    /// One case's result as the JSON of `regimen test --format json`: file, name, line, expected
    /// and actual decision, and the reason or the granting statement.
    public static func caseJSON(_ result: SecurityTestResult, file: String) -> Value {
        var fields: Value.Map = [
            "file": .string(file), "name": .string(result.name), "line": .int(Int64(result.location.line)),
            "expected": .string(result.expectAllow ? "allow" : "deny"),
            "actual": .string(result.decision.allowed ? "allow" : "deny"),
            "passed": .bool(result.passed),
        ]
        if !result.passed { fields["reason"] = .string(result.decision.summary) }
        if let granted = result.decision.grantedBy { fields["grantedBy"] = .string("\(granted.location)") }
        return .map(fields)
    }

    /// Results as JSON. With `requests`, every case also carries its request and the documents
    /// that existed (typed JSON, see ``TypedJSON``), so another implementation can replay it.
    public static func json(_ files: [SecurityTestFileResult], requests: Bool = false) -> String {
        if requests { return requestsJSON(files) }
        var cases: [Value] = []
        for file in files {
            for result in file.results { cases.append(caseJSON(result, file: file.file)) }
        }
        let passed = files.reduce(0) { $0 + $1.passed }, failed = files.reduce(0) { $0 + $1.failed }
        let summary: Value.Map = ["cases": .list(cases), "passed": .int(Int64(passed)), "failed": .int(Int64(failed))]
        return Value.map(summary).jsonString(pretty: true) + "\n"
    }

    private static func requestsJSON(_ files: [SecurityTestFileResult]) -> String {
        var fileTexts: [String] = []
        for file in files {
            guard let suite = file.suite else { continue }
            var caseTexts: [String] = []
            for (testCase, result) in zip(suite.cases, file.results) {
                var overlay = DocumentStore()
                var removed: [String] = []
                for (path, data) in testCase.documents {
                    if let data { overlay[path] = data } else { removed.append(path.description) }
                }
                caseTexts.append(TypedJSON.object([
                    ("name", TypedJSON.string(testCase.name)),
                    ("expected", TypedJSON.string(testCase.expectAllow ? "allow" : "deny")),
                    ("actual", TypedJSON.string(result.decision.allowed ? "allow" : "deny")),
                    ("method", TypedJSON.string(result.decision.method?.rawValue ?? "")),
                    ("reason", TypedJSON.string(result.decision.summary)),
                    ("request", TypedJSON.request(testCase.request)),
                    ("documents", TypedJSON.documents(overlay)),
                    ("removedDocuments", "[" + removed.map(TypedJSON.string).joined(separator: ", ") + "]"),
                ]))
            }
            fileTexts.append(TypedJSON.object([
                ("file", TypedJSON.string(file.file)),
                ("rules", TypedJSON.string(suite.policy.origin.file)),
                ("service", TypedJSON.string(suite.policy.service.rawValue)),
                ("documents", TypedJSON.documents(suite.documents)),
                ("cases", "[\n" + caseTexts.joined(separator: ",\n") + "\n]"),
            ]))
        }
        return "[\n" + fileTexts.joined(separator: ",\n") + "\n]\n"
    }

    /// A JUnit XML report: one test suite per file, one test case per case.
    public static func junit(_ files: [SecurityTestFileResult]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let total = files.reduce(0) { $0 + $1.results.count }, failed = files.reduce(0) { $0 + $1.failed }
        out += "<testsuites tests=\"\(total)\" failures=\"\(failed)\">\n"
        for file in files { out += junitSuite(file) }
        return out + "</testsuites>\n"
    }

    /// One file's `<testsuite>` element of a JUnit report (shared with `regimen test`'s combined report).
    package static func junitSuite(_ file: SecurityTestFileResult) -> String {
        var out = "  <testsuite name=\"\(xml(file.file))\" tests=\"\(file.results.count)\" failures=\"\(file.failed)\">\n"
        for result in file.results {
            out += "    <testcase classname=\"\(xml(file.file))\" name=\"\(xml(result.name))\""
            if result.passed {
                out += "/>\n"
            } else {
                let expected = result.expectAllow ? "allow" : "deny"
                out += ">\n      <failure message=\"expected \(expected)\">\(xml(result.decision.summary))</failure>\n    </testcase>\n"
            }
        }
        return out + "  </testsuite>\n"
    }

    static func xml(_ text: String) -> String { MarkupText.escaped(text) }
}
