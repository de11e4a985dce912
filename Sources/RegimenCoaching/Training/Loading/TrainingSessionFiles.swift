import RegimenLanguage
import RegimenRules

/// `kind: training_session_limits` — `rules/training-session-limits.yaml`.
public struct TrainingSessionLimitsFile: RuleFileKind {
    public static let kind = "training_session_limits"
    public static var expressionScopes: [ExpressionScope] { [TrainingVariables.limitsScope, TrainingVariables.restScope] }

    var limits: DecisionTable<TrainingRules.SessionLimits>
    var warmupSeconds: Int
    var transitionSeconds: Int
    var rest: DecisionTable<Int>

    public var ruleCount: Int { limits.rows.count + rest.rows.count }

    public static func decode(_ document: inout MappingDecoder) -> TrainingSessionLimitsFile? {
        let limits = DecisionTable<TrainingRules.SessionLimits>.decode(
            "limits", in: &document, named: "training_session_limits.limits", inputs: [TrainingVariables.experience]
        ) { row in
            let sets = row.required("max_sets_per_session", as: Int.self, in: 1...200)
            let perMuscle = row.required("max_sets_per_muscle_per_session", as: Int.self, in: 1...50)
            let minutes = row.required("max_minutes", as: Int.self, in: 10...300)
            guard let sets, let perMuscle, let minutes else { return nil }
            return TrainingRules.SessionLimits(maxSetsPerSession: sets, maxSetsPerMusclePerSession: perMuscle, maxMinutes: minutes)
        }
        let warmup = document.required("warmup_minutes", as: Int.self, in: 0...60)
        let transition = document.notation("transition", expected: "a duration such as 60s", CoachNotation.seconds)
        let rest = DecisionTable<Int>.decode(
            "rest", in: &document, named: "training_session_limits.rest", inputs: [TrainingVariables.modifier, TrainingVariables.movement], defaultPolicy: .first
        ) { row in
            row.notation("rest", expected: "a duration such as 90s", CoachNotation.seconds)
        }
        guard let limits, let warmup, let transition, let rest else { return nil }
        return TrainingSessionLimitsFile(limits: limits, warmupSeconds: warmup * 60, transitionSeconds: transition, rest: rest)
    }
}

/// `kind: training_selection` — `rules/training-selection.yaml`.
public struct TrainingSelectionFile: RuleFileKind {
    public static let kind = "training_selection"
    public static var expressionScopes: [ExpressionScope] { [TrainingVariables.levelsScope] }

    var equipmentProfiles: [Profile.Equipment: Set<String>]
    var defaultEquipment: Profile.Equipment
    var levels: DecisionTable<Set<Exercise.Level>>
    var maxExercisesPerMusclePerSession: Int
    var minSetsPerExercise: Int
    var injuryCuts: [Profile.Injury: (TrainingRules.InjuryCut, SourceLocation)]
    var location: SourceLocation

    public var ruleCount: Int { levels.rows.count + injuryCuts.count }

    public static func decode(_ document: inout MappingDecoder) -> TrainingSelectionFile? {
        let context = document.context
        var profiles: [Profile.Equipment: Set<String>] = [:]
        if let node = document.requiredNode("equipment_profiles") {
            _ = context.mapping(node, at: document.path.appending(key: "equipment_profiles")) { map -> Bool? in
                for equipment in Profile.Equipment.allCases {
                    if let tags = map.required(equipment.rawValue, as: [String].self) { profiles[equipment] = Set(tags) }
                }
                return true
            }
        }
        let defaultEquipment = document.required("default_equipment", as: EquipmentName.self)
        let levels = DecisionTable<Set<Exercise.Level>>.decode(
            "levels", in: &document, named: "training_selection.levels", inputs: [TrainingVariables.experience]
        ) { row in
            row.required("allow", as: [LevelName].self).map { Set($0.map(\.value)) }
        }
        let maxExercises = document.required("max_exercises_per_muscle_per_session", as: Int.self, in: 1...6)
        let minSets = document.required("min_sets_per_exercise", as: Int.self, in: 1...10)
        var cuts: [Profile.Injury: (TrainingRules.InjuryCut, SourceLocation)] = [:]
        if let node = document.requiredNode("injury_set_cuts") {
            _ = context.mapping(node, at: document.path.appending(key: "injury_set_cuts")) { map -> Bool? in
                // Every injury flag a profile may carry needs an entry: a gap is a load error.
                for injury in Profile.Injury.allCases {
                    guard let entry = map.requiredNode(injury.rawValue) else { continue }
                    let cut = context.mapping(entry, at: DecodingPath(subject: "injury_set_cuts.\(injury.rawValue)")) { item -> TrainingRules.InjuryCut? in
                        let muscles = item.required("muscles", as: [String].self)
                        let cut = item.notation("cut", expected: "a percentage such as 30%") { CoachNotation.percent($0).flatMap { $0 <= 1 ? $0 : nil } }
                        guard let muscles, let cut else { return nil }
                        return TrainingRules.InjuryCut(muscles: muscles, cut: cut)
                    }
                    if let cut { cuts[injury] = (cut, entry.location) }
                }
                return true
            }
        }
        guard let defaultEquipment, let levels, let maxExercises, let minSets,
              profiles.count == Profile.Equipment.allCases.count, cuts.count == Profile.Injury.allCases.count else { return nil }
        return TrainingSelectionFile(
            equipmentProfiles: profiles, defaultEquipment: defaultEquipment.value, levels: levels,
            maxExercisesPerMusclePerSession: maxExercises, minSetsPerExercise: minSets, injuryCuts: cuts,
            location: document.node.location)
    }
}

/// `kind: training_compact` — `rules/training-compact.yaml`: the busy-day variant.
public struct TrainingCompactFile: RuleFileKind {
    public static let kind = "training_compact"

    var rules: TrainingRules.CompactRules
    var location: SourceLocation

    public var ruleCount: Int { 1 }

    public static func decode(_ document: inout MappingDecoder) -> TrainingCompactFile? {
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

/// `kind: training_recovery` — `rules/training-recovery.yaml`: the active-recovery day.
public struct TrainingRecoveryFile: RuleFileKind {
    public static let kind = "training_recovery"

    var note: String
    var blocks: [TrainingRules.RecoveryBlock]
    var location: SourceLocation

    public var ruleCount: Int { blocks.count }

    public static func decode(_ document: inout MappingDecoder) -> TrainingRecoveryFile? {
        let context = document.context
        let note = document.required("note", as: String.self)
        let blocks: [TrainingRules.RecoveryBlock]? = document.list("blocks") { node, path in
            context.mapping(node, at: path) { map -> TrainingRules.RecoveryBlock? in
                let options = map.required("options", as: [String].self)
                let sets = map.required("sets", as: Int.self, in: 1...10)
                guard let options, let sets else { return nil }
                return TrainingRules.RecoveryBlock(options: options, sets: sets)
            }
        }
        guard let note, let blocks else { return nil }
        return TrainingRecoveryFile(note: note, blocks: blocks, location: document.node.location)
    }
}
