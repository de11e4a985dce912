import OrderedCollections
public import RegimenLanguage

/// An input the calculation filled from `rules/profile-defaults.yaml` because the profile left it out.
package struct AssumedInput: Sendable, Hashable {
    package var field: String
    package var value: Double
}

/// The `recalculateIndexes` response (docs/requirements.md#recalculateindexes) plus what
/// explains it.
public struct IndexReport: Sendable, Hashable {
    /// kcal/day used downstream: the override when given, else the computed value.
    public var bmr: Double
    /// `mifflin`, `katch` or `override`.
    public var method: String
    /// Total daily energy expenditure in kcal/day: the override when given, else BMR × activity.
    public var tdee: Double
    /// Body-mass index (kg/m²): the override when given, else computed; `nil` without height and weight.
    public var bmi: Double?
    /// Waist-to-height ratio; `nil` without waist and height.
    public var whtr: Double?
    /// Fat-free mass index (kg/m²); `nil` without body fat, height and weight.
    public var ffmi: Double?
    /// Ladder level: `low`, `med`, `high` or `highest`.
    public var accuracy: String
    /// The three-level confidence generatePlan reports (`low`, `med`, `high`).
    public var confidence: String
    /// The input that would raise accuracy most, or `nil` when every ladder input is present.
    public var nextBestInput: String?
    /// BMR and TDEE as computed from the inputs, whatever the overrides say.
    public var computedBMR: Double
    /// TDEE as computed from the inputs, whatever the overrides say.
    public var computedTDEE: Double
    /// BMI as computed from the inputs, whatever the overrides say.
    public var computedBMI: Double?
    /// The age the formulas used, and where it came from (`age`, `age_range` or `default`).
    public var ageUsed: Int
    /// Where the age came from: `age`, `age_range` or `default`.
    public var ageSource: String
    /// The height the formulas used, in cm (given or assumed).
    public var heightCmUsed: Double
    /// The weight the formulas used, in kg (given or assumed).
    public var weightKgUsed: Double
    /// Lean body mass in kg, when body fat is known.
    public var leanBodyMassKg: Double?
    /// Training days per week, from the schedule.
    public var trainingDays: Int
    /// The multiplier from BMR to TDEE for those training days.
    public var activityMultiplier: Double
    /// Whether the user is under 18 (the planner is then conservative).
    public var isMinor: Bool
    package var assumed: [AssumedInput]
    /// Context labels by index (`BMI`, `WHtR`, `FFMI`).
    public var context: [String: String]
    /// Non-blocking warnings such as an override far from the computed value.
    public var warnings: [String]
    /// Health cautions to show with the indexes.
    public var cautions: [String]
    /// Explanations of how the figures were reached.
    public var notes: [String]
    /// Suggestions for the user, such as the next input to add.
    public var tips: [String]

    /// The response in the seed's field names, numbers rounded as shown to people.
    public var jsonValue: Value {
        var map = OrderedDictionary<String, Value>()
        map["BMR"] = .wholeNumber(bmr)
        map["method"] = .string(method)
        map["TDEE"] = .wholeNumber(tdee)
        map["BMI"] = bmi.map { .rounded($0, places: 1) } ?? .null
        map["WHtR"] = whtr.map { .rounded($0, places: 2) } ?? .null
        map["FFMI"] = ffmi.map { .rounded($0, places: 1) } ?? .null
        map["accuracy"] = .string(accuracy)
        map["next_best_input"] = nextBestInput.map(Value.string) ?? .null
        map["computed"] = .map([
            "BMR": .wholeNumber(computedBMR), "TDEE": .wholeNumber(computedTDEE),
            "BMI": computedBMI.map { .rounded($0, places: 1) } ?? .null,
        ])
        map["inputs_used"] = .map([
            "age": .int(Int64(ageUsed)), "age_source": .string(ageSource), "height_cm": .rounded(heightCmUsed, places: 1),
            "weight_kg": .rounded(weightKgUsed, places: 1), "training_days": .int(Int64(trainingDays)),
            "activity_multiplier": .rounded(activityMultiplier, places: 3),
            "lbm_kg": leanBodyMassKg.map { .rounded($0, places: 1) } ?? .null,
        ])
        map["assumed"] = .list(assumed.map { .map(["field": .string($0.field), "value": .rounded($0.value, places: 1)]) })
        var contextMap = OrderedDictionary<String, Value>()
        for key in context.keys.sorted() { contextMap[key] = context[key].map(Value.string) ?? .null }
        map["context"] = .map(contextMap)
        map["warnings"] = .list(warnings.map(Value.string))
        map["cautions"] = .list(cautions.map(Value.string))
        map["notes"] = .list(notes.map(Value.string))
        map["tips"] = .list(tips.map(Value.string))
        return .map(map)
    }
}

extension Value {
    /// A whole number as `.int` (kcal, grams shown without decimals).
    static func wholeNumber(_ value: Double) -> Value {
        guard value.isFinite, abs(value) < 1e15 else { return .float(value) }
        return .int(Int64(value.rounded(.toNearestOrAwayFromZero)))
    }

    /// A number rounded to `places` decimals; whole results are `.int` so JSON shows `120`, not `120.0`.
    static func rounded(_ value: Double, places: Int) -> Value {
        guard value.isFinite else { return .float(value) }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let rounded = (value * scale).rounded(.toNearestOrAwayFromZero) / scale
        return .number(rounded)
    }
}
