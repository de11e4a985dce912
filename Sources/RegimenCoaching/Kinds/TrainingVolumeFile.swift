import RegimenLanguage
import RegimenRules

/// `kind: training_volume` — `rules/training-volume.yaml`: weekly sets per muscle by experience.
struct TrainingVolumeFile: RuleFileKind {
    package static let kind = "training_volume"
    /// `bands`: one band row per entry, for coverage and explanations.
    static let bandsSection = RuleSection(Self.self, .table(inputs: [TrainingVariables.experience]), key: "bands", category: "band row")
    package static var ruleSections: [RuleSection] { [bandsSection] }
    package static var expressionScopes: [ExpressionScope] { [TrainingVariables.bandsScope] }

    var trackedMuscles: [String]
    var setCredit: TrainingRules.SetCredit
    var creditLocation: SourceLocation
    var defaultExperience: Profile.Experience
    var targetPosition: Double
    var bands: DecisionTable<ClosedRange<Int>>
    /// `muscle_adjustments`, in file order, each with where it is written and where its goal is.
    var muscleAdjustments: [(adjustment: TrainingRules.MuscleAdjustment, location: SourceLocation, goalLocation: SourceLocation?)]

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
            "bands", in: &document, named: Self.bandsSection.name, inputs: Self.bandsSection.inputs
        ) { row in
            row.notation("sets", expected: "a range of sets such as 8-12", pattern: NotationPattern.wholeRange, CoachNotation.range)
        }
        let adjustments = decodeAdjustments(&document, tracked: muscles ?? [])
        guard let muscles, let credit, let experience, let position, let bands, let adjustments else { return nil }
        return TrainingVolumeFile(
            trackedMuscles: muscles, setCredit: credit, creditLocation: creditLocation,
            defaultExperience: experience.value, targetPosition: position, bands: bands,
            muscleAdjustments: adjustments)
    }

    /// `muscle_adjustments:` (optional): one line per muscle whose band differs, such as
    /// `- { muscle: chest, experience: intermediate, add_sets: 2 }`. The muscle must be tracked
    /// (checked here, at the name, with a suggestion); the goal is checked against the goals'
    /// domain when the training files are put together.
    private static func decodeAdjustments(
        _ document: inout MappingDecoder, tracked: [String]
    ) -> [(adjustment: TrainingRules.MuscleAdjustment, location: SourceLocation, goalLocation: SourceLocation?)]? {
        let context = document.context
        let known = Set(tracked)
        var seen: [TrainingRules.MuscleAdjustment: SourceLocation] = [:]
        return document.list("muscle_adjustments", required: false) { node, path in
            context.mapping(node, at: path) { map -> (adjustment: TrainingRules.MuscleAdjustment, location: SourceLocation, goalLocation: SourceLocation?)? in
                let muscle = map.required("muscle", as: String.self)
                map.vocabulary("muscle", SchemaVocabulary.muscle)
                let experience = map.optional("experience", as: ExperienceName.self)
                let goal = map.optional("goal", as: String.self)
                let add = map.required("add_sets", as: Int.self, in: -20...20)
                if let muscle, !known.isEmpty, !context.isDescribing {
                    let at = map.node["muscle"]?.location ?? node.location
                    guard context.checkReference(muscle, at: at, path: map.path.appending(key: "muscle"), what: "muscle (training_volume.tracked_muscles)", known: known,
                                                 diagnostic: SchemaVocabulary.unknownWord) else { return nil }
                }
                if let add, add == 0 {
                    context.warning("rules.no-effect", map.path.appending(key: "add_sets").message("is 0, so the line changes nothing"), at: map.node["add_sets"]?.location ?? node.location)
                }
                guard let muscle, let add else { return nil }
                let adjustment = TrainingRules.MuscleAdjustment(muscle: muscle, experience: experience?.value, goal: goal, addSets: add)
                var key = adjustment
                key.addSets = 0
                if let earlier = seen[key] {
                    context.error("rules.duplicate-id", map.path.message("adjusts the same muscle, experience and goal as an earlier line; merge them into one"), at: node.location, notes: ["first written at \(earlier)"])
                    return nil
                }
                seen[key] = node.location
                return (adjustment, node.location, goal == nil ? nil : (map.node["goal"]?.location ?? node.location))
            }
        } ?? (document.contains("muscle_adjustments") ? nil : [])
    }
}
