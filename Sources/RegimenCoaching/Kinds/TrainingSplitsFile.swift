import RegimenLanguage
import RegimenRules

extension TrainingRules.SplitChoice.Rule: NodeEnum {}

/// `kind: training_splits` — `rules/training-splits.yaml`: days per week → plan template.
struct TrainingSplitsFile: RuleFileKind {
    package static let kind = "training_splits"
    /// `split_by_days`: one split row per entry, for coverage and explanations.
    static let splitByDaysSection = RuleSection(Self.self, .table(inputs: [TrainingVariables.days]), key: "split_by_days", category: "split row")
    package static var ruleSections: [RuleSection] { [splitByDaysSection] }
    package static var expressionScopes: [ExpressionScope] { [TrainingVariables.splitScope] }

    var maxTrainingDays: Int
    var maxTrainingDaysLocation: SourceLocation
    var recoveryTemplate: String
    var splitByDays: DecisionTable<TrainingRules.SplitChoice>

    package var ruleCount: Int { splitByDays.rows.count }

    package static func decode(_ document: inout MappingDecoder) -> TrainingSplitsFile? {
        let location = document.location(ofKey: "max_training_days") ?? document.node.location
        let maxDays = document.required("max_training_days", as: Int.self, in: 1...7)
        let recovery = document.required("recovery_template", as: String.self)
        let table = DecisionTable<TrainingRules.SplitChoice>.decode(
            "split_by_days", in: &document, named: Self.splitByDaysSection.name, inputs: Self.splitByDaysSection.inputs
        ) { row in
            let split = row.required("split", as: String.self)
            let options = row.optional("options", as: [String].self) ?? []
            let choose = row.optional("choose", as: TrainingRules.SplitChoice.Rule.self) ?? .first
            return split.map { TrainingRules.SplitChoice(defaultTemplate: $0, options: options, choose: choose) }
        }
        guard let maxDays, let recovery, let table else { return nil }
        return TrainingSplitsFile(maxTrainingDays: maxDays, maxTrainingDaysLocation: location, recoveryTemplate: recovery, splitByDays: table)
    }

    /// Resolves every training rule file together so `regimen check` reports cross-file problems.
    /// Runs only when the set holds training rule files: a check of other domains' files alone
    /// does not ask for them.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        let ruleKinds = Set(TrainingRules.ruleKinds.map { $0.kind })
        guard ruleSet.files.contains(where: { ruleKinds.contains($0.kind) }) else { return }
        _ = TrainingRulesResolver(ruleSet: ruleSet, context: context).resolve()
    }
}
