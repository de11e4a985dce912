import RegimenLanguage
import RegimenRules

/// `kind: security_rules` files, read by the security module's own policy reader and compiled,
/// so expression errors in conditions are reported too.
struct SecurityRulesFile: SelfParsedRuleFileKind {
    package static let kind = "security_rules"
    /// The policy as written.
    package let policy: SecurityPolicy
    /// The policy compiled for decisions.
    package let compiled: CompiledPolicy

    /// Each `allow` statement is a rule.
    package var ruleCount: Int {
        func count(_ blocks: [MatchBlock]) -> Int { blocks.reduce(0) { $0 + $1.allows.count + count($1.children) } }
        return count(policy.matches)
    }

    /// Described from the policy reader's own reads (see ``YAMLPolicyReader/fileShape``).
    static var describedShape: MappingShape? { YAMLPolicyReader.fileShape }

    package static func parse(_ text: String, path: String) -> Result<SecurityRulesFile, DiagnosticsError> {
        Result { () throws(DiagnosticsError) in
            let policy = try YAMLPolicyReader.parse(text, file: path)
            return SecurityRulesFile(policy: policy, compiled: try CompiledPolicy(policy))
        }
    }
}
