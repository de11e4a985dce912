import RegimenLanguage
import RegimenRules

/// Reads the coach shorthand of the training rule files with RegimenRules' notation grammar:
/// ranges (`8-12`), percentages (`30%`), durations (`90s`, `15min`) and prescriptions
/// (`4x6-10 @RIR 1-3`), converted to what the planner needs.
enum CoachNotation {
    /// `8-12` or `8` as whole numbers.
    static func range(_ text: String) -> ClosedRange<Int>? {
        guard let range = try? NumberRange(parsing: text), range.lower >= 0 else { return nil }
        return range.integerBounds
    }

    /// `30%` as 0.3.
    static func percent(_ text: String) -> Double? {
        guard let quantity = try? Quantity(parsing: text), quantity.unit == .percent,
              quantity.amount.lower == quantity.amount.upper, quantity.baseValue >= 0 else { return nil }
        return quantity.baseValue
    }

    /// `90s` or `2min` as whole seconds.
    static func seconds(_ text: String) -> Int? {
        guard let quantity = try? Quantity(parsing: text), quantity.dimension == .time,
              quantity.amount.lower == quantity.amount.upper, quantity.baseValue >= 0 else { return nil }
        return quantity.baseValue.roundedInt()
    }

    /// A time range such as `30-45s` or `20-30min`, kept as written for display.
    static func hold(_ text: String) -> String? {
        guard let quantity = try? Quantity(parsing: text), quantity.dimension == .time else { return nil }
        return text
    }

    /// `4x6-10 @RIR 1-3`: at most 4 sets of an exercise in a session, 6-10 reps, 1-3 in reserve.
    static func prescription(_ text: String) -> TrainingRules.Prescription? {
        guard let parsed = try? Prescription(parsing: text), parsed.sets.lower == parsed.sets.upper,
              let sets = parsed.sets.integerBounds?.lowerBound, sets >= 1,
              let reps = parsed.reps.integerBounds, reps.lowerBound >= 1,
              let effort = parsed.effort, effort.scale == .rir, let rir = effort.target.integerBounds
        else { return nil }
        return TrainingRules.Prescription(maxSetsPerExercise: sets, reps: reps, rir: rir)
    }
}

extension MappingDecoder {
    /// A scalar under `key` read with a notation parser; a missing key or a bad value is reported.
    mutating func notation<T>(_ key: String, required: Bool = true, expected: String, _ parse: (String) -> T?) -> T? {
        guard let node = required ? requiredNode(key) : self.node(key) else { return nil }
        guard let text = node.scalar?.text, let value = parse(text) else {
            context.error("rules.bad-notation", path.appending(key: key).message("must be \(expected), not \(node)"), at: node.location)
            return nil
        }
        return value
    }
}
