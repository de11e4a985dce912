import RegimenLanguage
import RegimenRules

/// `kind: exercise_catalog` — `catalogs/exercise-catalog.yaml`.
struct ExerciseCatalogFile: RuleFileKind {
    package static let kind = "exercise_catalog"

    package var exercises: [Exercise]
    /// Where each exercise is written, by id.
    var locations: [String: SourceLocation]

    package var catalogEntryCount: Int { exercises.count }

    /// The keys whose words other files define (muscles, equipment tags) or other entries are
    /// (exercise ids).
    static let wordKeys = ["muscles", "secondary_muscles", "equipment", "regressions", "progressions"]

    package static func decode(_ document: inout MappingDecoder) -> ExerciseCatalogFile? {
        let context = document.context
        var locations: [String: SourceLocation] = [:]
        var ids: [(id: String, location: SourceLocation)] = []
        let exercises: [Exercise]? = document.list("exercises") { node, path in
            context.mapping(node, at: path) { map in
                // Every key is read even without `id`, so a missing one is a single error.
                let id = map.required("id", as: String.self)
                if let id {
                    map.path = map.path.about("exercise '\(id)'")
                    ids.append((id, node.location))
                    locations[id] = node.location
                }
                // The checks across files report a muscle, a tag or an exercise id at the word.
                context.noteWords(Self.wordKeys, of: node, entry: node.location)
                let name = map.required("name", as: String.self)
                let muscles = map.required("muscles", as: [String].self)
                let secondary = map.optional("secondary_muscles", as: [String].self) ?? []
                let equipment = map.required("equipment", as: [String].self)
                let movement = map.required("movement", as: MovementName.self)
                let pattern = map.required("pattern", as: String.self)
                let kind = map.optional("kind", as: KindName.self) ?? .strength
                let level = map.required("level", as: LevelName.self)
                let contraindicated = map.optional("contraindicated", as: [InjuryName].self) ?? []
                let setSeconds = map.required("set_seconds", as: Int.self, in: 1...3600)
                let supersetSafe = map.required("superset_safe", as: Bool.self)
                let hold = map.notation("hold", required: false, expected: "a time range such as 30-45s or 20-30min", CoachNotation.hold)
                let cues = map.required("cues", as: [String].self)
                let regressions = map.optional("regressions", as: [String].self) ?? []
                let progressions = map.optional("progressions", as: [String].self) ?? []
                let source = map.optional("source", as: String.self)
                // The schema lists these words from the loaded files (the resolver checks them).
                map.vocabulary("muscles", SchemaVocabulary.exerciseMuscle)
                map.vocabulary("secondary_muscles", SchemaVocabulary.exerciseMuscle)
                map.vocabulary("equipment", SchemaVocabulary.equipment)
                map.vocabulary("regressions", SchemaVocabulary.exercise)
                map.vocabulary("progressions", SchemaVocabulary.exercise)
                let flags = map.optional("flags", as: [String].self) ?? []
                for flag in flags where !SafetyScreens.knownFlags.contains(flag) {
                    context.error("rules.value", "exercise '\(id ?? "?")': flag '\(flag)' must be one of \(SafetyScreens.knownFlags.sorted().joined(separator: ", "))", at: map.location(ofKey: "flags"))
                }
                if let muscles, muscles.isEmpty {
                    context.error("rules.empty-list", map.path.appending(key: "muscles").message("must name at least one muscle"), at: node.location)
                }
                guard let id, let name, let muscles, let equipment, let movement, let pattern, let level, let setSeconds,
                      let supersetSafe, let cues else { return nil }
                var exercise = Exercise(
                    id: id, name: name, muscles: muscles, secondaryMuscles: secondary, equipment: equipment,
                    movement: movement.value, pattern: pattern, kind: kind.value, level: level.value,
                    contraindicated: Set(contraindicated.map(\.value)), setSeconds: setSeconds, supersetSafe: supersetSafe,
                    hold: hold, cues: cues, regressions: regressions, progressions: progressions, source: source)
                exercise.flags = Set(flags)
                return exercise
            }
        }
        context.checkUnique(ids, what: "exercise")
        guard let exercises else { return nil }
        return ExerciseCatalogFile(exercises: exercises, locations: locations)
    }

    /// Regressions and progressions must name catalog exercises.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        let files = ruleSet.all(ExerciseCatalogFile.self)
        let known = Set(files.flatMap { $0.exercises.map(\.id) })
        for file in files {
            for exercise in file.exercises {
                let location = file.locations[exercise.id] ?? SourceLocation(file: "catalogs/exercise-catalog.yaml", line: 1, column: 1)
                let path = DecodingPath(subject: "exercise '\(exercise.id)'")
                for id in exercise.regressions {
                    context.checkReference(id, at: context.location(of: id, under: "regressions", in: location) ?? location, path: path.appending(key: "regressions"),
                                           what: "exercise", known: known, diagnostic: SchemaVocabulary.unknownWord)
                }
                for id in exercise.progressions {
                    context.checkReference(id, at: context.location(of: id, under: "progressions", in: location) ?? location, path: path.appending(key: "progressions"),
                                           what: "exercise", known: known, diagnostic: SchemaVocabulary.unknownWord)
                }
            }
        }
    }
}

// Rule-file spellings of the model's enumerations.
struct MovementName: NodeEnum {
    var value: Exercise.Movement
    init?(rawValue: String) { guard let value = Exercise.Movement(rawValue: rawValue) else { return nil }; self.value = value }
    var rawValue: String { value.rawValue }
    static var allCases: [MovementName] { Exercise.Movement.allCases.map { MovementName(value: $0) } }
    init(value: Exercise.Movement) { self.value = value }
}

struct KindName: NodeEnum {
    var value: Exercise.Kind
    init?(rawValue: String) { guard let value = Exercise.Kind(rawValue: rawValue) else { return nil }; self.value = value }
    var rawValue: String { value.rawValue }
    static var allCases: [KindName] { Exercise.Kind.allCases.map { KindName(value: $0) } }
    init(value: Exercise.Kind) { self.value = value }
    static let strength = KindName(value: .strength)
}

struct LevelName: NodeEnum {
    var value: Exercise.Level
    init?(rawValue: String) { guard let value = Exercise.Level(rawValue: rawValue) else { return nil }; self.value = value }
    var rawValue: String { value.rawValue }
    static var allCases: [LevelName] { Exercise.Level.allCases.map { LevelName(value: $0) } }
    init(value: Exercise.Level) { self.value = value }
}

struct InjuryName: NodeEnum {
    var value: Profile.Injury
    init?(rawValue: String) { guard let value = Profile.Injury(rawValue: rawValue) else { return nil }; self.value = value }
    var rawValue: String { value.rawValue }
    static var allCases: [InjuryName] { Profile.Injury.allCases.map { InjuryName(value: $0) } }
    init(value: Profile.Injury) { self.value = value }
}

struct ExperienceName: NodeEnum {
    var value: Profile.Experience
    init?(rawValue: String) { guard let value = Profile.Experience(rawValue: rawValue) else { return nil }; self.value = value }
    var rawValue: String { value.rawValue }
    static var allCases: [ExperienceName] { Profile.Experience.allCases.map { ExperienceName(value: $0) } }
    init(value: Profile.Experience) { self.value = value }
}

struct EquipmentName: NodeEnum {
    var value: Profile.Equipment
    init?(rawValue: String) { guard let value = Profile.Equipment(rawValue: rawValue) else { return nil }; self.value = value }
    var rawValue: String { value.rawValue }
    static var allCases: [EquipmentName] { Profile.Equipment.allCases.map { EquipmentName(value: $0) } }
    init(value: Profile.Equipment) { self.value = value }
}
