import RegimenCoaching
import RegimenLanguage

/// A result with a JSON form fixed by the seed's function contracts.
///
/// ``json()`` is byte for byte what the matching `regimen` command prints with `--format json`,
/// so a service can answer with it directly.
public protocol SeedContract: Sendable {
    /// The result as the contract's JSON value (keys sorted when printed).
    var contractValue: Value { get }
}

extension SeedContract {
    /// The contract's JSON text: pretty-printed with sorted keys, numbers as people write them
    /// (at most 12 significant digits), ending in a newline.
    public func json() -> String { contractValue.roundedForPeople.jsonString(pretty: true) + "\n" }
}

extension GeneratedPlan: SeedContract {
    /// The seed's `generatePlan` response: `idx`, `kcal`, `macros`, `workouts`, `ingredients`,
    /// `confidence`, `tips`, plus the week's `training` accounting.
    public var contractValue: Value { jsonValue() }
}

extension IndexReport: SeedContract {
    /// The seed's `recalculateIndexes` response.
    public var contractValue: Value { jsonValue }
}

extension NutritionPlan: SeedContract {
    /// Daily kcal and macros with every meal's ingredient options and grams.
    public var contractValue: Value { jsonValue }
}

extension AdaptationResult: SeedContract {
    /// The seed's `adaptPlan` response: the patched plan, the change-log lines and a structured
    /// entry per change.
    public var contractValue: Value { value }
}

extension ProfileDiff: SeedContract {
    /// The profile changes, the areas the auto-adjust matrix recomputes, each changed output with
    /// its reason, and the old plan patched with those areas under `patched_plan`.
    public var contractValue: Value { reportValue }
}

extension SupplementAdvice: SeedContract {
    /// The shortlist with scaled doses, the optional items, the cautions and what was left out.
    public var contractValue: Value { value }
}
