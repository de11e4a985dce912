import RegimenLanguage

/// `rules/periodization.yaml`: phases by plan length, focus ranges, ramps, protocols, efforts.
public struct PeriodizationRules: Sendable {
    /// Which phases a plan of a given length has, and how its weeks are shared.
    public struct DurationRow: Sendable, Hashable {
        public var weeks: ClosedRange<Int>
        public var phases: [String]
        public var shares: [Int]

        public init(weeks: ClosedRange<Int>, phases: [String], shares: [Int]) {
            self.weeks = weeks
            self.phases = phases
            self.shares = shares
        }
    }

    /// A training focus: the intensity range as a fraction of 1RM and the RPE range a phase
    /// trains at (docs/requirements.md#periodization).
    public struct Focus: Sendable, Hashable {
        public var id: String
        public var intensity: ClosedRange<Double>
        public var rpe: ClosedRange<Double>
        public var purpose: String

        public init(id: String, intensity: ClosedRange<Double>, rpe: ClosedRange<Double>, purpose: String) {
            self.id = id
            self.intensity = intensity
            self.rpe = rpe
            self.purpose = purpose
        }
    }

    /// Sets × reps at a load label, chosen by the week's intensity for a compound or an isolation
    /// lift (docs/requirements.md#periodization).
    public struct Prescription: Sendable, Hashable, CustomStringConvertible {
        public var sets: Int
        public var reps: Int
        public var load: String

        public init(sets: Int, reps: Int, load: String) {
            self.sets = sets
            self.reps = reps
            self.load = load
        }

        public var description: String { "\(sets)x\(reps) \(load)" }
    }

    public struct ProtocolRow: Sendable, Hashable {
        /// The row applies to intensities below this.
        public var below: Double
        public var compound: Prescription
        public var isolation: Prescription

        public init(below: Double, compound: Prescription, isolation: Prescription) {
            self.below = below
            self.compound = compound
            self.isolation = isolation
        }
    }

    /// The effort level of a single workout (recovery, standard, push it): its intensity and RPE
    /// ranges (docs/requirements.md#periodization).
    public struct EffortLevel: Sendable, Hashable {
        public var id: String
        public var intensity: ClosedRange<Double>
        public var rpe: ClosedRange<Double>
        public var use: String

        public init(id: String, intensity: ClosedRange<Double>, rpe: ClosedRange<Double>, use: String) {
            self.id = id
            self.intensity = intensity
            self.rpe = rpe
            self.use = use
        }
    }

    public var durations: [DurationRow]
    public var focus: [String: Focus]
    /// Goal id → phase replacements.
    public var goals: [String: [String: String]]
    public var goalAliases: [String: String]
    /// Variables: `start`, `end`, `week`, `weeks`.
    public var weeklyIntensity: Formula
    public var deloadMinPhaseWeeks: Int
    public var deloadInFinalPhase: Bool
    /// Variables: `low`, `high`.
    public var deloadIntensity: Formula
    /// By `below`, ascending.
    public var protocols: [ProtocolRow]
    public var effortLevels: [EffortLevel]
    /// A single workout's intensity within its effort range. Variables: `low`, `high`.
    public var effortIntensity: Formula
    public var selection: SelectionRanking

    public init(durations: [DurationRow], focus: [String: Focus], goals: [String: [String: String]], goalAliases: [String: String],
                weeklyIntensity: Formula, deloadMinPhaseWeeks: Int, deloadInFinalPhase: Bool, deloadIntensity: Formula,
                protocols: [ProtocolRow], effortLevels: [EffortLevel], effortIntensity: Formula, selection: SelectionRanking) {
        self.durations = durations
        self.focus = focus
        self.goals = goals
        self.goalAliases = goalAliases
        self.weeklyIntensity = weeklyIntensity
        self.deloadMinPhaseWeeks = deloadMinPhaseWeeks
        self.deloadInFinalPhase = deloadInFinalPhase
        self.deloadIntensity = deloadIntensity
        self.protocols = protocols.sorted { $0.below < $1.below }
        self.effortLevels = effortLevels
        self.effortIntensity = effortIntensity
        self.selection = selection
    }

    /// The canonical goal id for `goal` (aliases resolved), `nil` when unknown.
    public func goalId(_ goal: String) -> String? {
        let key = goal.lowercased()
        if goals[key] != nil { return key }
        return goalAliases[key].flatMap { goals[$0] != nil ? $0 : nil }
    }

    /// The protocol for a week's intensity: the first row whose `below` exceeds it.
    public func protocolRow(for intensity: Double) -> ProtocolRow? {
        protocols.first { intensity < $0.below } ?? protocols.last
    }

    /// The targets of a single workout at effort `id`: the range's chosen intensity, its RPE and
    /// the protocol for that intensity; `nil` for an unknown effort
    /// (docs/requirements.md#periodization).
    public func singleWorkout(effort id: String) throws -> (effort: EffortLevel, intensity: Double, row: ProtocolRow)? {
        guard let effort = effortLevels.first(where: { $0.id == id }) else { return nil }
        let intensity = try effortIntensity.number([
            PeriodizationVariables.low.name: .float(effort.intensity.lowerBound), PeriodizationVariables.high.name: .float(effort.intensity.upperBound),
        ])
        guard let row = protocolRow(for: intensity) else { return nil }
        return (effort, intensity, row)
    }

    /// The intensity of week `week` of a ramp of `weeks` weeks from `start` to `end`.
    public func rampIntensity(start: Double, end: Double, week: Int, weeks: Int) throws -> Double {
        try weeklyIntensity.number([
            PeriodizationVariables.start.name: .float(start), PeriodizationVariables.end.name: .float(end),
            PeriodizationVariables.week.name: .int(Int64(week)), PeriodizationVariables.weeks.name: .int(Int64(weeks)),
        ])
    }
}

/// How the training planner ranks candidate exercises: a score multiplying one factor per reason
/// that applies (docs/requirements.md#exercise-ranking).
public struct SelectionRanking: Sendable {
    /// The named factors of the rule file (`library_preference: 1.2`, …).
    public var factors: [String: Double]
    /// Variables: the four reasons as bools and every factor by name.
    public var score: Formula

    public init(factors: [String: Double], score: Formula) {
        self.factors = factors
        self.score = score
    }

    /// Why a candidate gains or loses rank.
    public struct Candidate: Sendable, Hashable {
        public var inLibrary: Bool
        public var emphasized: Bool
        public var underRepresented: Bool
        public var patternRepeated: Bool

        public init(inLibrary: Bool, emphasized: Bool, underRepresented: Bool, patternRepeated: Bool) {
            self.inLibrary = inLibrary
            self.emphasized = emphasized
            self.underRepresented = underRepresented
            self.patternRepeated = patternRepeated
        }
    }

    /// The candidate's multiplier; higher ranks first.
    public func score(_ candidate: Candidate) throws -> Double {
        var variables: [String: Value] = [
            PeriodizationVariables.inLibrary.name: .bool(candidate.inLibrary), PeriodizationVariables.emphasized.name: .bool(candidate.emphasized),
            PeriodizationVariables.underRepresented.name: .bool(candidate.underRepresented),
            PeriodizationVariables.patternRepeated.name: .bool(candidate.patternRepeated),
        ]
        for (name, factor) in factors { variables[name] = .float(factor) }
        return try score.number(variables)
    }
}
