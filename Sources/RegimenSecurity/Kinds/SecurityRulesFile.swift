import RegimenLanguage
import RegimenRules

/// `kind: security_rules` files, read by the policy reader and compiled, so expression errors
/// in conditions are reported too.
struct SecurityRulesFile: RuleFileKind {
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

    /// The policy keeps its file's text, which explanations quote.
    package static func decode(_ document: inout MappingDecoder, text: String) -> SecurityRulesFile? {
        guard let policy = YAMLPolicyReader.decodeFile(&document, file: document.node.location.file, text: text) else { return nil }
        do {
            return SecurityRulesFile(policy: policy, compiled: try CompiledPolicy(policy))
        } catch {
            document.context.report(contentsOf: error.diagnostics)
            return nil
        }
    }

    /// Without the text, explanations have no excerpt to quote; the policy is the same.
    package static func decode(_ document: inout MappingDecoder) -> SecurityRulesFile? {
        decode(&document, text: "")
    }
}
