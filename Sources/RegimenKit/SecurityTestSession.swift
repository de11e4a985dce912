import Foundation
import RegimenLanguage
package import RegimenSecurity

/// Security test files (`kind: security_tests`) run as `regimen test` runs them: each policy
/// compiled once and shared by every test file that names it, and, with coverage, what the cases
/// reached recorded per policy across all of its test files.
package struct SecurityTestSession {
    /// The compiled policies, by the file they were read from.
    private var policies: [String: CompiledPolicy] = [:]
    /// What the cases reached, by policy file; empty without coverage.
    private var recorders: [String: CoverageRecorder] = [:]
    private let recordsCoverage: Bool

    /// A session that records coverage when `coverage` is set.
    package init(coverage: Bool) {
        recordsCoverage = coverage
    }

    /// Runs every case of the test file at `path` against the policy it names.
    /// - Throws: ``RegimenError/Code/policy`` with every problem when the file or its policy
    ///   does not read or compile.
    package mutating func run(file path: String) throws(RegimenError) -> SecurityTestFileResult {
        do {
            let suite = try SecurityTestSuite.load(file: path)
            let key = suite.policy.origin.file
            let policy: CompiledPolicy
            if let cached = policies[key] { policy = cached } else {
                policy = try CompiledPolicy(suite.policy)
                policies[key] = policy
            }
            var recorder: CoverageRecorder?
            if recordsCoverage {
                recorder = recorders[key] ?? CoverageRecorder(policy: policy)
                recorders[key] = recorder
            }
            return SecurityTestRunner(suite: suite, policy: policy).run(coverage: recorder)
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// The coverage of each policy the cases reached, sorted by policy file.
    package var coverage: [PolicyCoverage] {
        recorders.keys.sorted().compactMap { key in recorders[key].map { PolicyCoverage(file: key, report: CoverageReport($0)) } }
    }
}

/// What the security cases reached in one policy: its allow statements and functions, as text,
/// an HTML page and LCOV records.
package struct PolicyCoverage {
    /// The policy file, as its test files named it.
    package let file: String
    /// The report, rendered by its `text()`, `html(title:)` and `lcov()`.
    package let report: CoverageReport

    /// The HTML page's file name: the policy file's name with `.html`.
    package var pageName: String { (file as NSString).lastPathComponent + ".html" }

    /// The policy file as a reader typed it from `directory` (the page's title), not an
    /// absolute path.
    package func title(relativeTo directory: String) -> String {
        CoverageReport.relativePath(file, to: directory)
    }
}
