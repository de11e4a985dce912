import RegimenLanguage
import RegimenRules

/// `kind: security_tests` files: an auditor's cases against a policy (which is compiled too, so
/// a test file whose policy is broken fails; the policy's own errors are reported once).
/// The policy path inside is resolved from the test file's folder, relative to the process's
/// working directory, as `regimen security test` does.
struct SecurityTestsFile: RuleFileKind {
    package static let kind = "security_tests"
    /// The cases and the documents they run against.
    package let suite: SecurityTestSuite
    /// The policy the cases name, compiled.
    package let compiled: CompiledPolicy

    package static func decode(_ document: inout MappingDecoder) -> SecurityTestsFile? {
        guard let suite = SecurityTestSuite.decodeFile(&document, file: document.node.location.file, policy: nil) else { return nil }
        do {
            return SecurityTestsFile(suite: suite, compiled: try CompiledPolicy(suite.policy))
        } catch {
            document.context.report(contentsOf: error.diagnostics)
            return nil
        }
    }
}
