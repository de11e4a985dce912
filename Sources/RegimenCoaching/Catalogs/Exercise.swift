/// One entry of `catalogs/exercise-catalog.yaml`: the seed's `/exercises/{id}` fields plus what selection
/// needs (pattern, contraindications, set time, superset safety).
public struct Exercise: Sendable, Hashable, Identifiable {
    /// Whether an exercise works several joints (chosen first) or one.
    public enum Movement: String, Sendable, Hashable, CaseIterable {
        case compound, isolation
    }

    /// What an exercise is for; only strength work counts toward weekly sets.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case strength, conditioning, mobility
    }

    /// The skill an exercise asks for; the selection rules map experience to allowed levels.
    public enum Level: String, Sendable, Hashable, CaseIterable {
        case beginner, intermediate, advanced
    }

    public var id: String
    public var name: String
    /// Primary muscles: each set counts as a full set for each.
    public var muscles: [String]
    /// Secondary muscles: each set counts as the rules' secondary fraction of a set.
    public var secondaryMuscles: [String]
    /// Equipment tags, all of which are needed.
    public var equipment: [String]
    public var movement: Movement
    public var pattern: String
    public var kind: Kind
    public var level: Level
    /// Injury flags for which the exercise is never programmed.
    public var contraindicated: Set<Profile.Injury>
    /// Typical working time of one set, rest excluded.
    public var setSeconds: Int
    public var supersetSafe: Bool
    /// A time prescription (`"30-45s"`) that replaces reps, for holds, conditioning and mobility.
    public var hold: String?
    public var cues: [String]
    public var regressions: [String]
    public var progressions: [String]
    /// The free-exercise-db entry the facts come from, when there is one.
    public var source: String?

    public init(
        id: String, name: String, muscles: [String], secondaryMuscles: [String] = [], equipment: [String],
        movement: Movement, pattern: String, kind: Kind = .strength, level: Level = .beginner,
        contraindicated: Set<Profile.Injury> = [], setSeconds: Int, supersetSafe: Bool, hold: String? = nil,
        cues: [String] = [], regressions: [String] = [], progressions: [String] = [], source: String? = nil
    ) {
        self.id = id
        self.name = name
        self.muscles = muscles
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.movement = movement
        self.pattern = pattern
        self.kind = kind
        self.level = level
        self.contraindicated = contraindicated
        self.setSeconds = setSeconds
        self.supersetSafe = supersetSafe
        self.hold = hold
        self.cues = cues
        self.regressions = regressions
        self.progressions = progressions
        self.source = source
    }
}
