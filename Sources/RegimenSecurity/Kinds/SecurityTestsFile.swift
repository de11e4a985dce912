import RegimenLanguage
import RegimenRules

/// `kind: security_tests` files: an auditor's cases against a policy (which is compiled too, so
/// a test file whose policy is broken fails; the policy's own errors are reported once).
/// The policy path inside is resolved from the test file's folder, relative to the process's
/// working directory, as `regimen security test` does.
struct SecurityTestsFile: SelfParsedRuleFileKind {
    package static let kind = "security_tests"
    /// The cases and the documents they run against.
    package let suite: SecurityTestSuite
    /// The policy the cases name, compiled.
    package let compiled: CompiledPolicy

    /// Described from the test-file loader's own reads (see ``SecurityTestSuite/fileShape``).
    static var describedShape: MappingShape? { SecurityTestSuite.fileShape }

    package static func parse(_ text: String, path: String) -> Result<SecurityTestsFile, DiagnosticsError> {
        Result { () throws(DiagnosticsError) in
            let suite = try SecurityTestSuite.parse(text, file: path)
            return SecurityTestsFile(suite: suite, compiled: try CompiledPolicy(suite.policy))
        }
    }
}
