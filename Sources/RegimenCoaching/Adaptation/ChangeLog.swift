import OrderedCollections
public import RegimenLanguage

/// One change the adaptation made: which rule, to what, from what to what, why — and the line a
/// person reads (`Legs -2 sets (soreness 5)`).
public struct ChangeLogEntry: Sendable, Hashable {
    /// The rule id that made the change.
    public var rule: String
    /// What changed: a region, muscle, exercise id, `calories`, `week`.
    public var target: String
    /// Which quantity: `sets`, `weekly_sets`, `rir`, `load_kg`, `kcal`, `protein_g`, `fat_g`,
    /// `carb_g`, `deload`, `regression`, `note`.
    public var field: String
    /// The quantity's value before the change.
    public var before: Value
    /// The quantity's value after the change.
    public var after: Value
    /// The rule's reason, filled in.
    public var reason: String
    /// The human line.
    public var line: String
    /// Per-block changes behind the entry (day, exercise, before, after), when there are several.
    public var details: [Value]

    /// An entry with every part given.
    public init(rule: String, target: String, field: String, before: Value, after: Value, reason: String, line: String, details: [Value] = []) {
        self.rule = rule
        self.target = target
        self.field = field
        self.before = before
        self.after = after
        self.reason = reason
        self.line = line
        self.details = details
    }

    /// The entry with the seed's style of keys.
    public var value: Value {
        var map: OrderedDictionary<String, Value> = [
            "rule": .string(rule), "target": .string(target), "field": .string(field),
            "before": before, "after": after, "reason": .string(reason), "line": .string(line),
        ]
        if !details.isEmpty { map["details"] = .list(details) }
        return .map(map)
    }
}

/// What `adaptPlan` returns: the patched plan and the change log (docs/requirements.md#adaptplan).
public struct AdaptationResult: Sendable, Hashable {
    /// The plan document with every change applied (same shape as the input plan).
    public var patchedPlan: Value
    /// Every change made, in the order the rules made them.
    public var changeLog: [ChangeLogEntry]
    /// Things the input said that the rules could not use (an exercise not in the plan, a rule
    /// that could not be evaluated); nothing here changed the plan.
    public var warnings: [String]
    /// What the adaptation chose not to do and why (a check-in window already applied, a rule
    /// that already fired on the same evidence, a duplicate check-in merged).
    public var notes: [String] = []

    /// The seed's response: `{patched_plan, change_log: [line]}`, plus the structured entries.
    public var value: Value {
        .map([
            "patched_plan": patchedPlan,
            "change_log": .list(changeLog.map { .string($0.line) }),
            "changes": .list(changeLog.map(\.value)),
            "warnings": .list(warnings.map(Value.string)),
            "notes": .list(notes.map(Value.string)),
        ])
    }
}
