import RegimenLanguage

/// `rules/periodization.yaml`: phases by plan length, focus ranges, ramps, protocols, efforts.
package struct PeriodizationRules: Sendable {
    /// Which phases a plan of a given length has, and how its weeks are shared.
    package struct DurationRow: Sendable, Hashable {
        var weeks: ClosedRange<Int>
        var phases: [String]
        package var shares: [Int]

    }

    /// A training focus: the intensity range as a fraction of 1RM and the RPE range a phase
    /// trains at (docs/requirements.md#periodization).
    package struct Focus: Sendable, Hashable {
        package var id: String
        package var intensity: ClosedRange<Double>
        package var rpe: ClosedRange<Double>
        var purpose: String

    }

    /// Sets × reps at a load label, chosen by the week's intensity for a compound or an isolation
    /// lift (docs/requirements.md#periodization).
    package struct Prescription: Sendable, Hashable, CustomStringConvertible {
        package var sets: Int
        package var reps: Int
        package var load: String

        package init(sets: Int, reps: Int, load: String) {
            self.sets = sets
            self.reps = reps
            self.load = load
        }

        package var description: String { "\(sets)x\(reps) \(load)" }
    }

    package struct ProtocolRow: Sendable, Hashable {
        /// The row applies to intensities below this.
        var below: Double
        package var compound: Prescription
        package var isolation: Prescription

    }

    /// The effort level of a single workout (recovery, standard, push it): its intensity and RPE
    /// ranges (docs/requirements.md#periodization).
    package struct EffortLevel: Sendable, Hashable {
        package var id: String
        package var intensity: ClosedRange<Double>
        package var rpe: ClosedRange<Double>
        package var use: String

    }

    var durations: [DurationRow]
    var focus: [String: Focus]
    /// Goal id → phase replacements.
    package var goals: [String: [String: String]]
    var goalAliases: [String: String]
    /// Variables: `start`, `end`, `week`, `weeks`.
    var weeklyIntensity: Formula
    /// Variables: `low`, `high`.
    var deloadIntensity: Formula
    /// By `below`, ascending.
    var protocols: [ProtocolRow]
    package var effortLevels: [EffortLevel]
    /// A single workout's intensity within its effort range. Variables: `low`, `high`.
    var effortIntensity: Formula
    package var selection: SelectionRanking

    init(durations: [DurationRow], focus: [String: Focus], goals: [String: [String: String]], goalAliases: [String: String],
                weeklyIntensity: Formula, deloadIntensity: Formula,
                protocols: [ProtocolRow], effortLevels: [EffortLevel], effortIntensity: Formula, selection: SelectionRanking) {
        self.durations = durations
        self.focus = focus
        self.goals = goals
        self.goalAliases = goalAliases
        self.weeklyIntensity = weeklyIntensity
        self.deloadIntensity = deloadIntensity
        self.protocols = protocols.sorted { $0.below < $1.below }
        self.effortLevels = effortLevels
        self.effortIntensity = effortIntensity
        self.selection = selection
    }

    /// The canonical goal id for `goal` (aliases resolved), `nil` when unknown.
    func goalId(_ goal: String) -> String? {
        let key = goal.lowercased()
        if goals[key] != nil { return key }
        return goalAliases[key].flatMap { goals[$0] != nil ? $0 : nil }
    }

    /// The protocol for a week's intensity: the first row whose `below` exceeds it.
    func protocolRow(for intensity: Double) -> ProtocolRow? {
        protocols.first { intensity < $0.below } ?? protocols.last
    }

    /// The targets of a single workout at effort `id`: the range's chosen intensity, its RPE and
    /// the protocol for that intensity; `nil` for an unknown effort
    /// (docs/requirements.md#periodization).
    package func singleWorkout(effort id: String) throws -> (effort: EffortLevel, intensity: Double, row: ProtocolRow)? {
        guard let effort = effortLevels.first(where: { $0.id == id }) else { return nil }
        let intensity = try effortIntensity.number([
            PeriodizationVariables.low.name: .float(effort.intensity.lowerBound), PeriodizationVariables.high.name: .float(effort.intensity.upperBound),
        ])
        guard let row = protocolRow(for: intensity) else { return nil }
        return (effort, intensity, row)
    }

    /// The intensity of week `week` of a ramp of `weeks` weeks from `start` to `end`.
    func rampIntensity(start: Double, end: Double, week: Int, weeks: Int) throws -> Double {
        try weeklyIntensity.number([
            PeriodizationVariables.start.name: .float(start), PeriodizationVariables.end.name: .float(end),
            PeriodizationVariables.week.name: .int(Int64(week)), PeriodizationVariables.weeks.name: .int(Int64(weeks)),
        ])
    }
}

/// How the training planner ranks candidate exercises: a score multiplying one factor per reason
/// that applies (docs/requirements.md#exercise-ranking).
package struct SelectionRanking: Sendable {
    /// The named factors of the rule file (`library_preference: 1.2`, …).
    var factors: [String: Double]
    /// Variables: the four reasons as bools and every factor by name.
    package var score: Formula

    /// Why a candidate gains or loses rank.
    package struct Candidate: Sendable, Hashable {
        package var inLibrary: Bool
        package var emphasized: Bool
        package var underRepresented: Bool
        package var patternRepeated: Bool

        package init(inLibrary: Bool, emphasized: Bool, underRepresented: Bool, patternRepeated: Bool) {
            self.inLibrary = inLibrary
            self.emphasized = emphasized
            self.underRepresented = underRepresented
            self.patternRepeated = patternRepeated
        }
    }

    /// The candidate's multiplier; higher ranks first.
    package func score(_ candidate: Candidate) throws -> Double {
        var variables: [String: Value] = [
            PeriodizationVariables.inLibrary.name: .bool(candidate.inLibrary), PeriodizationVariables.emphasized.name: .bool(candidate.emphasized),
            PeriodizationVariables.underRepresented.name: .bool(candidate.underRepresented),
            PeriodizationVariables.patternRepeated.name: .bool(candidate.patternRepeated),
        ]
        for (name, factor) in factors { variables[name] = .float(factor) }
        return try score.number(variables)
    }
}
