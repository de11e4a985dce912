/// One entry of `catalogs/exercise-catalog.yaml`: the seed's `/exercises/{id}` fields plus what selection
/// needs (pattern, contraindications, set time, superset safety).
package struct Exercise: Sendable, Hashable, Identifiable {
    /// Whether an exercise works several joints (chosen first) or one.
    package enum Movement: String, Sendable, Hashable, CaseIterable {
        case compound, isolation
    }

    /// What an exercise is for; only strength work counts toward weekly sets.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case strength, conditioning, mobility
    }

    /// The skill an exercise asks for; the selection rules map experience to allowed levels.
    package enum Level: String, Sendable, Hashable, CaseIterable {
        case beginner, intermediate, advanced
    }

    package var id: String
    package var name: String
    /// Primary muscles: each set counts as a full set for each.
    package var muscles: [String]
    /// Secondary muscles: each set counts as the rules' secondary fraction of a set.
    var secondaryMuscles: [String]
    /// Equipment tags, all of which are needed.
    var equipment: [String]
    var movement: Movement
    package var pattern: String
    package var kind: Kind
    package var level: Level
    /// Injury flags for which the exercise is never programmed.
    var contraindicated: Set<Profile.Injury>
    /// Safety flags (`supine`, `max_effort`) that rules/training-selection.yaml's safety screens exclude.
    var flags: Set<String> = []
    /// Typical working time of one set, rest excluded.
    var setSeconds: Int
    var supersetSafe: Bool
    /// A time prescription (`"30-45s"`) that replaces reps, for holds, conditioning and mobility.
    var hold: String?
    var cues: [String]
    var regressions: [String]
    var progressions: [String]
    /// The free-exercise-db entry the facts come from, when there is one.
    package var source: String?

    init(
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
