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

/// The written forms of the notations a JSON Schema can state (ECMA-262 patterns, also read by
/// the loader, so the two agree by construction). What a pattern cannot say (a range that runs
/// backwards, `18-14`) the loader alone reports, as `rules.bad-notation`.
enum NotationPattern {
    private static let count = "[0-9]+"
    private static let range = "\(count) *(?:[-\u{2013}\u{2014}] *\(count) *)?"
    /// `8-12`, `8–12`, `10`: whole numbers.
    static let wholeRange = "^ *\(range)$"
    /// `4x6-10 @RIR 1-3`: one whole number of sets, a range of reps, a range of reps in reserve.
    static let prescription = "^ *\(count) *[xX\u{00D7}] *\(range)@ *RIR *\(range)$"

    /// The shape of a field written in `pattern` (a whole number alone is read as its text).
    static func shape(_ pattern: String) -> NodeShape {
        pattern == wholeRange ? .anyOf([.integer(minimum: 0, maximum: nil), .pattern(pattern)]) : .pattern(pattern)
    }

    /// Whether `text` is written in `pattern`.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return true }
        return (try? regex.wholeMatch(in: text)) != nil
    }
}

extension MappingDecoder {
    /// A scalar under `key` read with a notation parser; a missing key or a bad value is reported.
    /// With `pattern`, the schema states the written form: text not in that form is a shape
    /// error (`rules.notation-form`, which the schema catches too); text in the form that still
    /// does not parse (a backwards range) is `rules.bad-notation`, the loader's alone.
    mutating func notation<T>(_ key: String, required: Bool = true, expected: String, pattern: String? = nil, _ parse: (String) -> T?) -> T? {
        guard let node = required ? requiredNode(key) : self.node(key) else { return nil }
        if let pattern, context.describe(NotationPattern.shape(pattern), for: node) { return nil }
        guard let text = node.scalar?.text, let value = parse(text) else {
            let inForm = pattern.map { pattern in node.scalar.map { NotationPattern.matches($0.text, pattern) } ?? false } ?? true
            let id = inForm ? "rules.bad-notation" : "rules.notation-form"
            context.error(id, path.appending(key: key).message("must be \(expected), not \(node)"), at: node.location)
            return nil
        }
        return value
    }
}
