import RegimenLanguage
import RegimenRules

/// `kind: training_compact` — `rules/training-compact.yaml`: the busy-day variant.
struct TrainingCompactFile: RuleFileKind {
    package static let kind = "training_compact"

    var rules: TrainingRules.CompactRules
    var location: SourceLocation

    package var ruleCount: Int { 1 }

    package static func decode(_ document: inout MappingDecoder) -> TrainingCompactFile? {
        let minutes = document.required("max_minutes", as: Int.self, in: 5...60)
        let warmup = document.required("warmup_minutes", as: Int.self, in: 0...30)
        let rounds = document.required("rounds", as: Int.self, in: 1...10)
        let group = document.required("group_size", as: Int.self, in: 1...6)
        let rest = document.notation("rest_between_rounds", expected: "a duration such as 60s", CoachNotation.seconds)
        let transition = document.notation("transition", expected: "a duration such as 15s", CoachNotation.seconds)
        guard let minutes, let warmup, let rounds, let group, let rest, let transition else { return nil }
        return TrainingCompactFile(
            rules: TrainingRules.CompactRules(
                maxMinutes: minutes, warmupSeconds: warmup * 60, rounds: rounds, groupSize: group,
                restBetweenRoundsSeconds: rest, transitionSeconds: transition),
            location: document.node.location)
    }
}
