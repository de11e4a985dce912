import RegimenLanguage
import RegimenRules

/// `kind: training_recovery` — `rules/training-recovery.yaml`: the active-recovery day.
struct TrainingRecoveryFile: RuleFileKind {
    package static let kind = "training_recovery"

    var note: String
    var blocks: [TrainingRules.RecoveryBlock]
    var location: SourceLocation

    package var ruleCount: Int { blocks.count }

    package static func decode(_ document: inout MappingDecoder) -> TrainingRecoveryFile? {
        let context = document.context
        let note = document.required("note", as: String.self)
        let fileLocation = document.node.location
        let blocks: [TrainingRules.RecoveryBlock]? = document.list("blocks") { node, path in
            context.mapping(node, at: path) { map -> TrainingRules.RecoveryBlock? in
                context.noteWords(["options"], of: node, entry: fileLocation)
                let options = map.required("options", as: [String].self)
                map.vocabulary("options", SchemaVocabulary.exercise)
                let sets = map.required("sets", as: Int.self, in: 1...10)
                guard let options, let sets else { return nil }
                return TrainingRules.RecoveryBlock(options: options, sets: sets)
            }
        }
        guard let note, let blocks else { return nil }
        return TrainingRecoveryFile(note: note, blocks: blocks, location: document.node.location)
    }
}
