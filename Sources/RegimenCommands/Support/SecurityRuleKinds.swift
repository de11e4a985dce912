import RegimenLanguage
import RegimenRules
import RegimenSecurity

/// `kind: security_rules` files, read by the security module's own policy reader and compiled,
/// so expression errors in conditions are reported too.
struct SecurityPolicyFile: SelfParsedRuleFileKind {
    static let kind = "security_rules"
    let policy: SecurityPolicy
    let compiled: CompiledPolicy

    /// Each `allow` statement is a rule.
    var ruleCount: Int {
        func count(_ blocks: [MatchBlock]) -> Int { blocks.reduce(0) { $0 + $1.allows.count + count($1.children) } }
        return count(policy.matches)
    }

    static func parse(_ text: String, path: String) -> Result<SecurityPolicyFile, DiagnosticsError> {
        Result { () throws(DiagnosticsError) in
            let policy = try YAMLPolicyReader.parse(text, file: path)
            return SecurityPolicyFile(policy: policy, compiled: try CompiledPolicy(policy))
        }
    }
}

/// `kind: security_tests` files: an auditor's cases against a policy (which is compiled too, so
/// a test file whose policy is broken fails; the policy's own errors are reported once).
/// The policy path inside is resolved from the test file's folder, relative to the process's
/// working directory, as `regimen security test` does.
struct SecurityTestFile: SelfParsedRuleFileKind {
    static let kind = "security_tests"
    let suite: SecurityTestSuite
    let compiled: CompiledPolicy

    static func parse(_ text: String, path: String) -> Result<SecurityTestFile, DiagnosticsError> {
        Result { () throws(DiagnosticsError) in
            let suite = try SecurityTestSuite.parse(text, file: path)
            return SecurityTestFile(suite: suite, compiled: try CompiledPolicy(suite.policy))
        }
    }
}
