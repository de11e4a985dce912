package import RegimenLanguage
package import RegimenRules

/// The loaded rule files of adaptation, the auto-adjust matrix and the supplements advisor.
///
/// Build it once from a ``RuleSet`` and share it: it is immutable and `Sendable`. The planner's
/// other parts (``NutritionRuleSet``, the training rules) come from the same rule set.
package struct AdaptationRuleSet: Sendable {
    package var readiness: ReadinessRules
    var progression: ProgressionRules
    package var matrix: AutoAdjustMatrix
    var supplementCatalog: SupplementCatalog
    var supplementRules: SupplementRules

    /// The rule-file kinds this part of the planner registers with the loader: the ones it takes.
    package static let kinds = RequiredRuleFiles.kinds { (required: inout RequiredRuleFiles) throws(DiagnosticsError) in
        _ = try AdaptationRuleSet(&required)
    }

    /// Picks this part's rule files out of a loaded rule set.
    /// - Throws: ``DiagnosticsError`` naming every kind the set lacks.
    package init(_ ruleSet: RuleSet) throws(DiagnosticsError) {
        var required = RequiredRuleFiles(ruleSet)
        try self.init(&required)
    }

    private init(_ required: inout RequiredRuleFiles) throws(DiagnosticsError) {
        let readiness = required.take(ReadinessRulesFile.self)
        let progression = required.take(ProgressionRulesFile.self)
        let matrix = required.take(AutoAdjustMatrixFile.self)
        let rules = required.take(SupplementRulesFile.self)
        let catalog = required.take(SupplementCatalogFile.self)
        guard let readiness, let progression, let matrix, let rules, let catalog else {
            throw required.error(neededBy: "adaptation and supplements")
        }
        self.readiness = readiness.rules
        self.progression = progression.rules
        self.matrix = matrix.matrix
        self.supplementCatalog = catalog.catalog
        self.supplementRules = rules.rules
    }
}

extension AdaptationRuleSet {
    /// `adaptPlan` (docs/requirements.md#adaptplan): `plan` (a `regimen plan` document) adapted
    /// to the check-ins, logged sessions and weight trend in `input`, with the change log.
    /// - Parameters:
    ///   - exercises: facts about the plan's exercises (names, secondary muscles, equipment,
    ///     regressions); without them sets count only for the block's muscle.
    ///   - setCredit: how a set counts for primary and secondary muscles: `set_credit` of
    ///     rules/training-volume.yaml, the only place it is written (no default here).
    ///   - calories: the plans' one calorie precedence (rules/nutrition.yaml): every calorie step
    ///     goes through it; without it calorie steps are not taken.
    ///   - loadLimit: the loads adaptation may write (rules/plausibility.yaml `plan.load_kg`);
    ///     without the rules, what a plan document may hold.
    /// - Throws: ``AdaptationInputError`` listing every problem of the plan or the input.
    package func adaptPlan(
        _ plan: Value, input: AdaptationInput, exercises: [String: ExerciseFacts] = [:],
        setCredit: TrainingRules.SetCredit, calories: CaloriePrecedence? = nil, loadLimit: ClosedRange<Double> = PlanView.plausible.loadKg
    ) throws(AdaptationInputError) -> AdaptationResult {
        try AdaptationEngine(readiness: readiness, progression: progression, exercises: exercises, setCredit: setCredit, calories: calories, loadLimit: loadLimit)
            .adapt(plan: plan, input: input)
    }

    /// The supplements advisor for `profile` (docs/requirements.md#supplements): a shortlist for
    /// `goal` (the profile's goal when `nil`) with doses scaled to the person, the cautions that
    /// apply, and what was left out.
    /// - Parameters:
    ///   - goal: a goal name or alias of `rules/goals.yaml`, or a supplement goal of the catalog
    ///     (`general_health`, `stress_recovery`).
    ///   - nutrition: supplies goal aliases and the dietary exclusions' food tags.
    /// - Throws: ``SupplementGoalError`` for a goal neither file knows.
    package func adviseSupplements(for profile: Profile, goal: String? = nil, nutrition: NutritionRuleSet) throws(SupplementGoalError) -> SupplementAdvice {
        var resolved = profile.goal
        if let goal {
            if let canonical = nutrition.profile.goals.canonical(goal) {
                resolved = canonical
            } else if supplementCatalog.goals.contains(goal) {
                resolved = goal
            } else {
                throw SupplementGoalError(goal: goal, allowed: supplementCatalog.goals + nutrition.profile.goals.goals.flatMap(\.aliases))
            }
        }
        let diets = nutrition.profile.diets
        let tags = Set(profile.exclusions.flatMap { diets.exclusions[$0] ?? [$0] })
        return SupplementAdvisor(catalog: supplementCatalog, rules: supplementRules)
            .advise(profile: profile, goal: resolved, excludedTags: tags.sorted())
    }
}

/// A `--goal` the supplements advisor does not know.
package struct SupplementGoalError: DiagnosticError, Hashable {
    var goal: String
    var allowed: [String]

    /// A goal the caller asked for.
    package var kind: ErrorKind { .input }
    package var diagnostics: [Diagnostic] { [.error("supplements.goal", description, at: nil)] }

    package var description: String { "goal: '\(goal)' is not a known goal; use one of \(allowed.joined(separator: ", "))" }
}
