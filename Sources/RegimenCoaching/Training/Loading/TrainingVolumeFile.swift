import RegimenLanguage
import RegimenRules

/// `kind: training_volume` — `rules/training-volume.yaml`: weekly sets per muscle by experience.
package struct TrainingVolumeFile: RuleFileKind {
    package static let kind = "training_volume"
    package static var expressionScopes: [ExpressionScope] { [TrainingVariables.bandsScope] }

    var trackedMuscles: [String]
    var setCredit: TrainingRules.SetCredit
    var creditLocation: SourceLocation
    var defaultExperience: Profile.Experience
    var targetPosition: Double
    var bands: DecisionTable<ClosedRange<Int>>

    package var ruleCount: Int { bands.rows.count }

    package static func decode(_ document: inout MappingDecoder) -> TrainingVolumeFile? {
        let creditLocation = document.location(ofKey: "set_credit") ?? document.node.location
        let muscles = document.required("tracked_muscles", as: [String].self)
        let context = document.context
        let credit = document.mapping("set_credit") { map -> TrainingRules.SetCredit? in
            let direct = map.required("direct", as: Double.self, in: 0.1...1)
            let indirect = map.required("indirect", as: Double.self, in: 0...1)
            guard let direct, let indirect else { return nil }
            if indirect > direct {
                context.error("rules.out-of-range", map.path.appending(key: "indirect").message("must not exceed 'direct' (\(RangeText.number(direct)))"), at: map.location(ofKey: "indirect"))
                return nil
            }
            return TrainingRules.SetCredit(direct: direct, indirect: indirect)
        }
        let experience = document.required("default_experience", as: ExperienceName.self)
        let position = document.required("target_position", as: Double.self, in: 0...1)
        let bands = DecisionTable<ClosedRange<Int>>.decode(
            "bands", in: &document, named: "training_volume.bands", inputs: [TrainingVariables.experience]
        ) { row in
            row.notation("sets", expected: "a range of sets such as 8-12", pattern: NotationPattern.wholeRange, CoachNotation.range)
        }
        guard let muscles, let credit, let experience, let position, let bands else { return nil }
        return TrainingVolumeFile(
            trackedMuscles: muscles, setCredit: credit, creditLocation: creditLocation,
            defaultExperience: experience.value, targetPosition: position, bands: bands)
    }
}
