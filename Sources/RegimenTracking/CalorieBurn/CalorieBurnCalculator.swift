public import RegimenLanguage

/// One logged activity: what, how long, how hard and when; any field may be missing in untrusted
/// input.
package struct WorkoutEntry: Sendable, Hashable {
    package var activity: String?
    package var minutes: Int?
    package var intensity: String?
    package var timestamp: Timestamp?

    package init(activity: String?, minutes: Int?, intensity: String?, timestamp: Timestamp? = nil) {
        self.activity = activity
        self.minutes = minutes
        self.intensity = intensity
        self.timestamp = timestamp
    }
}

/// The calorie burn of one entry and how it was reached.
public struct BurnResult: Sendable, Hashable {
    package var activity: Activity
    /// How long the activity lasted, in minutes.
    public var minutes: Int
    /// The intensity level asked for, as the activity catalog names its levels.
    public var intensity: String
    /// The body weight the burn was computed for, in kilograms.
    public var weightKg: Double
    /// The Compendium row the MET comes from.
    package var row: CompendiumRow
    /// The MET used: the row's own, or the fallback's scaled value.
    public var met: Double
    /// Whole kcal, never negative.
    public var kcal: Int64
    /// The name of the rules' burn formula that computed `kcal`.
    public var formula: String
    /// When the activity has no row for the chosen level: how its single row was scaled.
    public var fallback: String?

    /// The result as the `burn` contract's JSON object.
    public var value: Value {
        Value.orderedMap([
            ("activity", .string(activity.id)), ("name", .string(activity.name)),
            ("category", .string(activity.category.rawValue)), ("intensity", .string(intensity)),
            ("compendium", Value.orderedMap([("code", .string(row.code)), ("met", .float(row.met)),
                                             ("description", .string(row.description)), ("level", .string(row.level))])),
            ("met", .float(met)), ("fallback", fallback.map(Value.string) ?? .null),
            ("minutes", .int(Int64(minutes))), ("weightKg", .float(weightKg)), ("formula", .string(formula)),
            ("kcal", .int(kcal)), ("levelsWithRows", .list(activity.intensities.map(Value.string))),
        ])
    }
}

/// Computes calorie burn (the activity's MET at the chosen intensity, the person's weight, the
/// rules' formula; a whole, non-negative number) and validates entries (duration 1–1440 minutes,
/// required fields present, no future time). See docs/requirements.md#calorie-burn.
package struct CalorieBurnCalculator: Sendable {
    package let rules: CalorieBurnRules
    package let catalog: ActivityCatalog

    package init(rules: CalorieBurnRules, catalog: ActivityCatalog) {
        self.rules = rules
        self.catalog = catalog
    }

    /// Every problem with `entry`, each with its own message; empty when it can be saved.
    /// - Parameter now: entries after this instant are rejected (requirement 8.6).
    package func problems(with entry: WorkoutEntry, now: Timestamp?) -> [String] {
        var problems: [String] = []
        if let id = entry.activity?.trimmingWhitespace, !id.isEmpty {
            if catalog.activity(id) == nil {
                var message = "unknown activity '\(id)'"
                if let suggestion = catalog.suggestion(for: id) { message += "; did you mean '\(suggestion)'?" }
                problems.append(message)
            }
        } else {
            problems.append("activity is required")
        }
        if let minutes = entry.minutes {
            let range = rules.durationMinutes
            if minutes < range.lowerBound {
                problems.append("minutes must be at least \(range.lowerBound) minute\(range.lowerBound == 1 ? "" : "s"), got \(minutes)")
            } else if minutes > range.upperBound {
                problems.append("minutes must be at most \(range.upperBound) minutes (\(Self.hours(range.upperBound))), got \(minutes)")
            }
        } else {
            problems.append("minutes is required")
        }
        if let intensity = entry.intensity?.trimmingWhitespace.lowercased(), !intensity.isEmpty {
            if rules.level(intensity) == nil {
                problems.append("intensity must be one of \(rules.levels.map(\.id).joined(separator: ", ")), got '\(intensity)'")
            } else if let activity = entry.activity.flatMap({ catalog.activity($0.trimmingWhitespace) }),
                      activity.rows.count > 1, activity.row(intensity) == nil {
                // Several rows: the Compendium measured this activity at its levels, not at this one.
                problems.append("intensity: \(activity.id) has Compendium rows for \(activity.intensities.joined(separator: ", ")) only, not \(intensity)")
            }
        } else {
            problems.append("intensity is required")
        }
        if let timestamp = entry.timestamp, let now, timestamp > now {
            problems.append("timestamp \(timestamp) is in the future (now is \(now))")
        }
        return problems
    }

    /// The problem with a body weight, if any.
    func weightProblem(_ weightKg: Double) -> String? {
        guard !rules.weightKg.contains(weightKg) else { return nil }
        return "weight must be between \(format(rules.weightKg.lowerBound)) and \(format(rules.weightKg.upperBound)) kg, got \(format(weightKg))"
    }

    /// The burn of a valid entry.
    /// - Throws: ``BurnError`` with every problem when the entry or weight is invalid.
    package func burn(_ entry: WorkoutEntry, weightKg: Double? = nil, now: Timestamp? = nil) throws -> BurnResult {
        var problems = problems(with: entry, now: now)
        let weight = weightKg ?? rules.defaultWeightKg
        if let problem = weightProblem(weight) { problems.append(problem) }
        guard problems.isEmpty,
              let activity = entry.activity.flatMap({ catalog.activity($0.trimmingWhitespace) }),
              let minutes = entry.minutes,
              let level = entry.intensity.flatMap({ rules.level($0.trimmingWhitespace.lowercased()) })
        else { throw BurnError(problems: problems) }
        let row: CompendiumRow
        let met: Double
        var fallback: String?
        if let own = activity.row(level.id) {
            row = own
            met = own.met
        } else if activity.rows.count == 1, let only = activity.rows.first, let rowLevel = rules.level(only.level), rowLevel.factor > 0 {
            // The documented fallback: the single row scaled by the ratio of the levels' factors
            // and kept inside the chosen level's band (rules/calorie-burn.yaml, adjusted_met).
            row = only
            let factor = level.factor / rowLevel.factor
            met = try rules.adjustedMET.number([
                CalorieBurnVariables.baseMET.name: .float(only.met), CalorieBurnVariables.factor.name: .float(factor),
                CalorieBurnVariables.minMET.name: .float(level.minMET), CalorieBurnVariables.maxMET.name: .float(level.maxMET),
            ])
            fallback = "no Compendium row for \(activity.id) at \(level.id); MET \(format(only.met)) of row \(only.code) (\(only.level)) scaled by \(format(level.factor)) / \(format(rowLevel.factor)) and kept within \(level.id)'s MET \(format(level.minMET))-\(format(level.maxMET)) gives \(format(met)) (fallback of rules/calorie-burn.yaml)"
        } else {
            throw BurnError(problems: ["intensity: \(activity.id) has Compendium rows for \(activity.intensities.joined(separator: ", ")) only, not \(level.id)"])
        }
        let raw = try rules.formula.kcal.number([
            CalorieBurnVariables.minutes.name: .int(Int64(minutes)), CalorieBurnVariables.met.name: .float(met), CalorieBurnVariables.weightKg.name: .float(weight),
        ])
        let rounded = try rules.rounding.number([CalorieBurnVariables.kcal.name: .float(raw)])
        guard rounded.isFinite, abs(rounded) < 1e15 else {
            throw BurnError(problems: ["the burn of \(activity.id) for \(minutes) minutes is not a finite number"])
        }
        return BurnResult(activity: activity, minutes: minutes, intensity: level.id, weightKg: weight, row: row, met: met,
                          kcal: max(0, rounded).roundedInt64() ?? .max, formula: rules.formula.name, fallback: fallback)
    }

    private static func hours(_ minutes: Int) -> String {
        minutes % 60 == 0 ? "\(minutes / 60) hours" : "\(format(Double(minutes) / 60)) hours"
    }
}

/// Why an entry could not be computed: every problem found.
package struct BurnError: DiagnosticError, Hashable {
    package var problems: [String]
    package var description: String { problems.joined(separator: "\n") }
    /// An activity, duration, intensity or weight the caller gave.
    package var kind: ErrorKind { .input }
    package var diagnostics: [Diagnostic] { problems.map { .error("burn.input", $0, at: nil) } }
}
