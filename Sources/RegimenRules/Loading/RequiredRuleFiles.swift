package import RegimenLanguage

/// Takes the one file of each kind a module needs from a loaded ``RuleSet``, remembering every
/// kind that is missing so the module reports them all at once instead of stopping at the first.
///
/// ```swift
/// var required = RequiredRuleFiles(ruleSet)
/// let goals = required.take(GoalsFile.self)
/// let meals = required.take(MealsFile.self)
/// guard let goals, let meals else { throw required.error(neededBy: "the planner") }
/// ```
///
/// What a consumer takes is also the list of kinds it registers (``kinds(takenBy:)``), so the
/// two cannot drift apart.
package struct RequiredRuleFiles {
    private let ruleSet: RuleSet
    /// Kinds asked for that the rule set does not hold, in the order asked.
    private(set) var missingKinds: [String] = []
    /// Every kind asked for, in the order asked.
    private var taken: [any RuleFileKind.Type] = []

    package init(_ ruleSet: RuleSet) {
        self.ruleSet = ruleSet
    }

    /// The first file of kind `K`, or `nil` (and `K` noted as missing).
    package mutating func take<K: RuleFileKind>(_ kind: K.Type) -> K? {
        taken.append(kind)
        if let file = ruleSet.first(kind) { return file }
        missingKinds.append(K.kind)
        return nil
    }

    /// One `rules.missing-kind` error per missing kind, naming who needs it.
    package func error(neededBy consumer: String) -> DiagnosticsError {
        DiagnosticsError(missingKinds.map { ruleSet.missingKind($0, neededBy: consumer) })
    }

    /// The kinds `consumer` takes, in the order it takes them: it is run against an empty rule set,
    /// so it must take every kind it needs before it stops at the first missing one (as reporting
    /// them all at once requires anyway).
    package static func kinds(takenBy consumer: (inout RequiredRuleFiles) throws(DiagnosticsError) -> Void) -> [any RuleFileKind.Type] {
        var required = RequiredRuleFiles(RuleSet(files: []))
        try? consumer(&required)
        return required.taken
    }
}
