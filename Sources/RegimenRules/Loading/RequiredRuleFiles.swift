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
    /// Kinds asked for once (``takeOnly(_:)``) that the rule set holds several files of, with
    /// their paths.
    private var duplicatedKinds: [(kind: String, paths: [String])] = []
    /// Where a missing kind's file usually is, by kind, for its message.
    private var hints: [String: String] = [:]
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

    /// The one file of kind `K`, or `nil`: when there is none (`K` noted as missing) or more
    /// than one (`K` noted as duplicated), for a consumer that cannot choose between files.
    package mutating func takeOnly<K: RuleFileKind>(_ kind: K.Type) -> K? {
        taken.append(kind)
        let files = ruleSet.files(of: kind)
        if files.count > 1 {
            duplicatedKinds.append((K.kind, files.map(\.path)))
            return nil
        }
        guard let file = files.first else {
            missingKinds.append(K.kind)
            return nil
        }
        return file.content
    }

    /// Every file of kind `K`, in path order; empty (and `K` noted as missing, with `hint` naming
    /// where such a file usually is) when there is none.
    package mutating func takeAll<K: RuleFileKind>(_ kind: K.Type, hint: String? = nil) -> [K] {
        taken.append(kind)
        let files = ruleSet.all(kind)
        if files.isEmpty {
            missingKinds.append(K.kind)
            if let hint { hints[K.kind] = hint }
        }
        return files
    }

    /// One `rules.missing-kind` error per missing kind and one `rules.duplicate-kind` error per
    /// kind with more than one file, naming who needs them.
    package func error(neededBy consumer: String) -> DiagnosticsError {
        DiagnosticsError(
            missingKinds.map { ruleSet.missingKind($0, neededBy: consumer, hint: hints[$0]) }
                + duplicatedKinds.map { kind, paths in
                    .error("rules.duplicate-kind", "more than one rule file of kind '\(kind)' (needed by \(consumer)): \(paths.joined(separator: ", "))", at: nil)
                })
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
