package import RegimenRules

/// The rule-file kinds this module owns, for the loaders that compose every module's kinds.
package enum SecurityRuleKinds {
    package static let kinds: [any RuleFileKind.Type] = [SecurityRulesFile.self, SecurityTestsFile.self]
}
