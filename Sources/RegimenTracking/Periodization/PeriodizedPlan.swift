public import RegimenLanguage
package import RegimenRules

/// A plan's phases and each week's target: the training planner asks it for week N.
public struct PeriodizedPlan: Sendable, Hashable {
    /// One phase (a seed-004 "Program") of the plan.
    public struct Phase: Sendable, Hashable {
        /// What the phase trains (`foundation`, `strength`, …).
        public var focus: String
        /// The phase's first week (1-based, inclusive).
        public var firstWeek: Int
        /// The phase's last week (inclusive).
        public var lastWeek: Int
        /// Intensity at the phase's start, as a fraction of 1RM.
        public var startingIntensity: Double
        /// Intensity at the phase's end, as a fraction of 1RM.
        public var endingIntensity: Double
        /// The phase's first deload week, if it has one.
        public var deloadWeek: Int?
        /// Every deload week of the phase (the weeks of the deload clock that fall in it).
        public var deloadWeeks: [Int]
    }

    /// What week N of the plan asks for.
    public struct Week: Sendable, Hashable {
        /// The week's number in the plan (1-based).
        public var week: Int
        /// The phase's focus (`foundation`, …); a deload week still names its phase.
        public var phase: String
        /// The week's number within its phase (1-based).
        public var weekInPhase: Int
        /// Whether this is a deload week.
        public var isDeload: Bool
        /// Fraction of 1RM.
        public var intensity: Double
        /// The target rating of perceived exertion, as a range.
        public var rpe: ClosedRange<Double>
        package var compound: PeriodizationRules.Prescription
        package var isolation: PeriodizationRules.Prescription
    }

    /// The plan's length in weeks.
    public var weeks: Int
    /// The goal the plan was built for.
    public var goal: String
    /// The phases, in order.
    public var phases: [Phase]
    /// Weeks 1…`weeks`, in order.
    public var schedule: [Week]

    /// The targets of week `number` (1-based), `nil` outside the plan.
    public func week(_ number: Int) -> Week? {
        guard number >= 1, number <= schedule.count else { return nil }
        return schedule[number - 1]
    }

    /// One week of the schedule as a map.
    public func weekValue(_ week: Week) -> Value {
        func prescription(_ p: PeriodizationRules.Prescription) -> Value {
            Value.orderedMap([("sets", .int(Int64(p.sets))), ("reps", .int(Int64(p.reps))), ("load", .string(p.load))])
        }
        return Value.orderedMap([("week", .int(Int64(week.week))), ("phase", .string(week.phase)),
                                 ("weekInPhase", .int(Int64(week.weekInPhase))), ("deload", .bool(week.isDeload)),
                                 ("intensity", .float(week.intensity)),
                                 ("rpe", .list([.float(week.rpe.lowerBound), .float(week.rpe.upperBound)])),
                                 ("compound", prescription(week.compound)), ("isolation", prescription(week.isolation))])
    }

    /// The plan as the `periodize` contract's JSON object.
    public var value: Value {
        Value.orderedMap([
            ("weeks", .int(Int64(weeks))), ("goal", .string(goal)),
            ("phases", .list(phases.map {
                Value.orderedMap([("focus", .string($0.focus)), ("firstWeek", .int(Int64($0.firstWeek))),
                                  ("lastWeek", .int(Int64($0.lastWeek))), ("startingIntensity", .float($0.startingIntensity)),
                                  ("endingIntensity", .float($0.endingIntensity)),
                                  ("deloadWeek", $0.deloadWeek.map { .int(Int64($0)) } ?? .null),
                                  ("deloadWeeks", .list($0.deloadWeeks.map { .int(Int64($0)) }))])
            })),
            ("schedule", .list(schedule.map(weekValue))),
        ])
    }
}

/// Why a plan could not be periodized.
package struct PeriodizationError: DiagnosticError, Hashable {
    package var message: String
    /// The parameter at fault, named as the `periodize` command's option and the service's
    /// query parameter are (`weeks`, `goal`, `start-intensity`, `end-intensity`); `nil` for a
    /// problem of the rules.
    package var parameter: String? = nil
    package var description: String { message }
    /// A length, goal or ramp the caller chose.
    package var kind: ErrorKind { .input }
    package var diagnostics: [Diagnostic] { [Diagnostic(.error, id: "periodization.input", message, at: nil, field: parameter)] }
}

extension PeriodizationRules {
    /// Periodizes a plan of `weeks` weeks for `goal`.
    /// - Parameter ramp: the intensity of the plan's first and last training week; when given, the
    ///   training (non-deload) weeks of the whole plan ramp from one to the other by the rules'
    ///   `weekly_intensity` instead of each phase ramping across its focus range (a program ramps
    ///   from its starting to its ending intensity, 0.60 → 0.68 → 0.77 → 0.85; see
    ///   docs/requirements.md#periodization).
    /// - Parameter clock: the one deload clock (`block_weeks` of rules/readiness-rules.yaml): its
    ///   scheduled weeks are the plan's deload weeks, as they are adapt's.
    /// - Throws: ``PeriodizationError`` for a length no row covers, an unknown goal or a bad ramp.
    package func plan(weeks: Int, goal: String, ramp: (start: Double, end: Double)? = nil, clock: DeloadClock) throws -> PeriodizedPlan {
        if let ramp {
            for (name, value) in [("start", ramp.start), ("end", ramp.end)] where !(value > 0 && value <= 1) {
                throw PeriodizationError(message: "the ramp's \(name) intensity must be a fraction of 1RM above 0 and at most 1, not \(format(value))",
                                         parameter: "\(name)-intensity")
            }
        }
        guard let goalId = goalId(goal) else {
            throw PeriodizationError(message: "unknown goal '\(goal)'; expected one of \(goals.keys.sorted().joined(separator: ", "))", parameter: "goal")
        }
        guard let row = durations.first(where: { $0.weeks.contains(weeks) }) else {
            let covered = durations.map { "\($0.weeks.lowerBound)-\($0.weeks.upperBound)" }.joined(separator: ", ")
            throw PeriodizationError(message: "no periodization for \(weeks) weeks; the rules cover \(covered)", parameter: "weeks")
        }
        // Apply the goal's replacements, then merge neighbours that became the same phase.
        let replacements = goals[goalId] ?? [:]
        var sequence: [(focus: String, share: Int)] = []
        for (phase, share) in zip(row.phases, row.shares) {
            let focus = replacements[phase] ?? phase
            if let last = sequence.last, last.focus == focus {
                sequence[sequence.count - 1].share += share
            } else {
                sequence.append((focus, share))
            }
        }
        let lengths = Self.split(weeks, by: sequence.map(\.share))
        var phases: [PeriodizedPlan.Phase] = []
        var schedule: [PeriodizedPlan.Week] = []
        // Which weeks deload is the one deload clock's, the same weeks adapt deloads by schedule;
        // a plan-wide ramp counts the other (training) weeks.
        let deloads = Set(clock.scheduledDeloads(through: weeks))
        let trainingWeeks = weeks - deloads.count
        var trainingIndex = 0
        func planRamp(_ week: Int) throws -> Double? {
            guard let ramp else { return nil }
            return try rampIntensity(start: ramp.start, end: ramp.end, week: week, weeks: trainingWeeks)
        }
        var first = 1
        for (entry, length) in zip(sequence, lengths) where length > 0 {
            guard let focus = focus[entry.focus] else {
                throw PeriodizationError(message: "phase '\(entry.focus)' has no focus entry")
            }
            let last = first + length - 1
            let phaseDeloads = (first...last).filter(deloads.contains)
            // The phase's ramp runs over its training weeks.
            let rampWeeks = length - phaseDeloads.count
            let phaseStart = rampWeeks > 0 ? try planRamp(trainingIndex + 1) ?? focus.intensity.lowerBound : focus.intensity.lowerBound
            let phaseEnd = rampWeeks > 0 ? try planRamp(trainingIndex + rampWeeks) ?? focus.intensity.upperBound : focus.intensity.upperBound
            phases.append(PeriodizedPlan.Phase(focus: entry.focus, firstWeek: first, lastWeek: last,
                                               startingIntensity: phaseStart, endingIntensity: phaseEnd,
                                               deloadWeek: phaseDeloads.first, deloadWeeks: phaseDeloads))
            var trainingInPhase = 0
            for offset in 0..<length {
                let deload = deloads.contains(first + offset)
                let intensity: Double
                let rpe: ClosedRange<Double>
                if deload {
                    guard let recovery = self.focus["deload"] else {
                        throw PeriodizationError(message: "the rules have no 'deload' focus for deload weeks")
                    }
                    intensity = try deloadIntensity.number([PeriodizationVariables.low.name: .float(recovery.intensity.lowerBound),
                                                            PeriodizationVariables.high.name: .float(recovery.intensity.upperBound)])
                    rpe = recovery.rpe
                } else {
                    trainingIndex += 1
                    trainingInPhase += 1
                    intensity = try planRamp(trainingIndex)
                        ?? rampIntensity(start: focus.intensity.lowerBound, end: focus.intensity.upperBound, week: trainingInPhase, weeks: rampWeeks)
                    rpe = focus.rpe
                }
                guard let protocolRow = protocolRow(for: intensity) else {
                    throw PeriodizationError(message: "the rules have no protocol rows")
                }
                schedule.append(PeriodizedPlan.Week(week: first + offset, phase: entry.focus, weekInPhase: offset + 1,
                                                    isDeload: deload, intensity: intensity, rpe: rpe,
                                                    compound: protocolRow.compound, isolation: protocolRow.isolation))
            }
            first = last + 1
        }
        return PeriodizedPlan(weeks: weeks, goal: goalId, phases: phases, schedule: schedule)
    }

    /// `total` split by `shares`, the remainder going one week each to the earliest phases.
    static func split(_ total: Int, by shares: [Int]) -> [Int] {
        let sum = shares.reduce(0, +)
        guard sum > 0 else { return shares.map { _ in 0 } }
        var lengths = shares.map { total * $0 / sum }
        var remainder = total - lengths.reduce(0, +)
        var index = 0
        while remainder > 0, !lengths.isEmpty {
            lengths[index % lengths.count] += 1
            remainder -= 1
            index += 1
        }
        return lengths
    }
}
