import OrderedCollections
public import RegimenLanguage

/// What `regimen diff OLD NEW` reports: the profile fields that changed, the outputs the matrix
/// says they affect, and how each of those outputs changed, with the matrix's reason.
public struct ProfileDiff: Sendable, Hashable {
    /// One profile field that differs between the two profiles.
    public struct FieldChange: Sendable, Hashable {
        /// The field's name as the profile spells it (`schedule_days`).
        public var field: String
        /// The old profile's value.
        public var before: Value
        /// The new profile's value.
        public var after: Value
        /// The matrix row's texts.
        public var workoutImpact: String
        /// What the change does to nutrition, from the matrix row.
        public var nutritionImpact: String
        /// Why, from the matrix row.
        public var why: String
    }

    /// One plan output whose value changed.
    public struct OutputChange: Sendable, Hashable {
        /// The planner output the value belongs to.
        public var area: AutoAdjustMatrix.Area
        /// The output's key in the plan document (`idx.BMR`, `kcal`, `weekly_sets.chest`).
        public var key: String
        /// The value in the old profile's plan.
        public var before: Value
        /// The value in the new profile's plan.
        public var after: Value
        /// The changed fields whose rows list this area.
        public var causes: [String]
        /// Their rows' `why`, without repeats.
        public var why: [String]
    }

    /// The profile fields that changed, in the matrix's order.
    public var fieldChanges: [FieldChange]
    /// Areas the matrix says to recompute for these changes.
    public var recomputed: [AutoAdjustMatrix.Area]
    /// Outputs that changed, in area order then key order.
    public var outputChanges: [OutputChange]
    /// The old plan with the recomputed areas taken from the new profile's plan; every other part
    /// is the old plan's.
    public var patchedPlan: Value

    /// ``value`` with ``patchedPlan`` under `patched_plan`: the full report as JSON and YAML
    /// print it (the text form leaves the plan out).
    public var reportValue: Value {
        guard case .map(var map) = value else { return value }
        map["patched_plan"] = patchedPlan
        return .map(map)
    }

    /// The report in the `diff` contract's keys (`profile_changes`, `recompute`, `output_changes`).
    public var value: Value {
        .map([
            "profile_changes": .list(fieldChanges.map { change in
                .map(["field": .string(change.field), "before": change.before, "after": change.after,
                      "workout_impact": .string(change.workoutImpact), "nutrition_impact": .string(change.nutritionImpact),
                      "why": .string(change.why)])
            }),
            "recomputed": .list(recomputed.map { .string($0.rawValue) }),
            "changes": .list(outputChanges.map { change in
                .map(["area": .string(change.area.rawValue), "key": .string(change.key), "before": change.before,
                      "after": change.after, "because": .list(change.causes.map(Value.string)),
                      "why": .list(change.why.map(Value.string))])
            }),
        ])
    }
}

/// Compares two profiles through the auto-adjust matrix.
struct ProfileDiffer: Sendable {
    package let matrix: AutoAdjustMatrix

    init(matrix: AutoAdjustMatrix) { self.matrix = matrix }

    /// The profile fields whose values differ, in the matrix's field order.
    func changedFields(old: Profile, new: Profile) -> [(field: String, before: Value, after: Value)] {
        let before = old.screeningValue
        let after = new.screeningValue
        return AutoAdjustMatrix.profileFields.compactMap { field in
            let a = before[field] ?? .null
            let b = after[field] ?? .null
            return a == b ? nil : (field, a, b)
        }
    }

    /// The areas the matrix says the changed fields affect.
    func areas(for fields: [String]) -> [AutoAdjustMatrix.Area] {
        var areas = Set<AutoAdjustMatrix.Area>()
        for field in fields { areas.formUnion(matrix.row(for: field)?.recomputes ?? []) }
        return areas.sorted()
    }

    /// The diff of `old` and `new`, given both profiles' plan documents (and supplement advice,
    /// when the supplements area may be affected).
    package func diff(
        old: Profile, new: Profile, oldPlan: Value, newPlan: Value, oldSupplements: SupplementAdvice? = nil,
        newSupplements: SupplementAdvice? = nil
    ) -> ProfileDiff {
        let changed = changedFields(old: old, new: new)
        let fieldChanges = changed.compactMap { change -> ProfileDiff.FieldChange? in
            guard let row = matrix.row(for: change.field) else { return nil }
            return .init(field: change.field, before: change.before, after: change.after, workoutImpact: row.workoutImpact,
                         nutritionImpact: row.nutritionImpact, why: row.why)
        }
        let recomputed = areas(for: changed.map(\.field))
        var outputs: [ProfileDiff.OutputChange] = []
        for area in recomputed {
            let causes = changed.map(\.field).filter { matrix.row(for: $0)?.recomputes.contains(area) ?? false }
            var why: [String] = []
            for cause in causes { if let reason = matrix.row(for: cause)?.why, !why.contains(reason) { why.append(reason) } }
            let before = PlanAreas.extract(area, plan: oldPlan, supplements: oldSupplements)
            let after = PlanAreas.extract(area, plan: newPlan, supplements: newSupplements)
            let keys = OrderedSet(before.keys).union(after.keys)
            for key in keys {
                let a = before[key] ?? .null
                let b = after[key] ?? .null
                if a != b { outputs.append(.init(area: area, key: key, before: a, after: b, causes: causes, why: why)) }
            }
        }
        return ProfileDiff(fieldChanges: fieldChanges, recomputed: recomputed, outputChanges: outputs,
                           patchedPlan: PlanAreas.patch(oldPlan, from: newPlan, areas: Set(recomputed)))
    }
}

/// Where each area lives in a plan document (the seed's `generatePlan` response).
enum PlanAreas {
    /// The top-level plan keys that carry the week of training (replaced together).
    static let trainingKeys = ["workouts", "training"]

    /// The area's outputs as key → value.
    static func extract(_ area: AutoAdjustMatrix.Area, plan: Value, supplements: SupplementAdvice?) -> OrderedDictionary<String, Value> {
        var out: OrderedDictionary<String, Value> = [:]
        func take(_ path: String) {
            var value: Value? = plan
            for part in path.split(separator: ".") { value = value?[String(part)] }
            if let value { out[path] = value }
        }
        let blocks = (plan["workouts"]?.listValue ?? []).flatMap { workout in
            (workout["blocks"]?.listValue ?? []).map { (workout["day"]?.intValue ?? 0, $0) }
        }
        switch area {
        case .energy: ["idx.BMR", "idx.TDEE", "idx.method", "idx.computed", "idx.inputs_used", "idx.warnings"].forEach(take)
        case .bodyIndexes: ["idx.BMI", "idx.WHtR", "idx.FFMI", "idx.context"].forEach(take)
        case .accuracy: ["idx.accuracy", "idx.next_best_input", "idx.tips", "idx.assumed", "idx.notes", "confidence"].forEach(take)
        case .cautions: take("idx.cautions")
        case .calories: take("kcal")
        case .macros: ["macros.protein_g", "macros.fat_g", "macros.carb_g"].forEach(take)
        case .meals: take("ingredients")
        case .split:
            take("training.split")
            out["split.days"] = .list((plan["workouts"]?.listValue ?? []).map { workout -> Value in
                let muscles = OrderedSet((workout["blocks"]?.listValue ?? []).compactMap { $0["muscle"]?.stringValue })
                let label = workout["focus"]?.stringValue ?? muscles.joined(separator: ", ")
                return .string("day \(workout["day"]?.intValue ?? 0): \(label)")
            })
        case .weeklySets:
            // The plan's one weekly-set count (direct and indirect credits), as `plan` reports it.
            for entry in (plan["training"]?["weekly_sets"]?.listValue ?? []).sorted(by: { ($0["muscle"]?.stringValue ?? "") < ($1["muscle"]?.stringValue ?? "") }) {
                guard let muscle = entry["muscle"]?.stringValue, let planned = entry["planned"] else { continue }
                out["weekly_sets.\(muscle)"] = planned
            }
        case .exercisePool:
            let ids = Set(blocks.compactMap { $0.1["exerciseId"]?.stringValue }).sorted()
            out["exercise_pool"] = .list(ids.map(Value.string))
        case .prescription:
            // Rep ranges and RIR of lifting blocks; holds and timed blocks belong to their exercise.
            var seen = OrderedSet<String>()
            for (_, block) in blocks {
                guard let reps = block["reps"]?.stringValue, PlanRange(text: reps) != nil, let rir = block["rir"]?.stringValue else { continue }
                seen.append("\(reps) @RIR \(rir)")
            }
            out["prescription"] = .list(seen.sorted().map(Value.string))
        case .cues, .carbTiming:
            // No plan output carries these yet; nothing to recompute.
            break
        case .supplements:
            if let supplements {
                out["supplements"] = .list(supplements.shortlist.map { .string("\($0.id): \($0.dose.amount)") })
            }
        }
        return out
    }

    /// `old` with every recomputed area's keys taken from `new`.
    static func patch(_ old: Value, from new: Value, areas: Set<AutoAdjustMatrix.Area>) -> Value {
        guard case .map(var root) = old, case .map(let fresh) = new else { return old }
        func copy(_ key: String) { root[key] = fresh[key] ?? root[key] }
        func copyIndex(_ keys: [String]) {
            var idx = root["idx"]?.mapValue ?? [:]
            for key in keys { if let value = fresh["idx"]?[key] { idx[key] = value } }
            if !idx.isEmpty { root["idx"] = .map(idx) }
        }
        if !areas.isDisjoint(with: AutoAdjustMatrix.Area.workout) { trainingKeys.forEach(copy) }
        if areas.contains(.energy) { copyIndex(["BMR", "TDEE", "method", "computed", "inputs_used", "warnings"]) }
        if areas.contains(.bodyIndexes) { copyIndex(["BMI", "WHtR", "FFMI", "context"]) }
        if areas.contains(.accuracy) {
            copyIndex(["accuracy", "next_best_input", "tips", "assumed", "notes"])
            copy("confidence")
        }
        if areas.contains(.cautions) { copyIndex(["cautions"]) }
        if areas.contains(.calories) { copy("kcal") }
        // How calories and macros were reached (the calorie precedence, the protein basis).
        if areas.contains(.calories) || areas.contains(.macros) { copy("nutrition") }
        if areas.contains(.macros) { copy("macros") }
        if areas.contains(.meals) { copy("ingredients") }
        // The top-level tips gather the tips of every part; they follow any recomputation.
        if !areas.isEmpty { copy("tips") }
        return .map(root)
    }
}

extension AutoAdjustMatrix.Area {
    /// This area's outputs in a plan document (`generatePlan`'s response) and supplement advice,
    /// as a map from output key (`idx.BMR`, `weekly_sets.chest`) to value.
    func outputs(in plan: Value, supplements: SupplementAdvice? = nil) -> Value {
        .map(PlanAreas.extract(self, plan: plan, supplements: supplements))
    }
}
