import RegimenLanguage

/// Computes the `recalculateIndexes` response from a profile with the rules' formulas.
package struct IndexCalculator: Sendable {
    /// The inputs the calculator may fill from rules/profile-defaults.yaml (`assumed` lists them).
    static let assumableFields = ["age", "height_cm", "schedule_days", "weight_kg"]

    package let rules: NutritionRuleSet

    package init(rules: NutritionRuleSet) { self.rules = rules }

    /// BMR, TDEE, BMI, WHtR, FFMI, the accuracy meter and what to add next (the
    /// `recalculateIndexes` response; see docs/requirements.md#body-indexes).
    /// - Throws: ``RuleEvaluationError`` when a rule expression cannot be evaluated.
    func recalculate(_ profile: Profile) throws(RuleEvaluationError) -> IndexReport {
        let defaults = rules.defaults
        var assumed: [AssumedInput] = []
        // Every field named here is in `assumableFields`, which the rule expressions' `assumed` is checked against.
        let ageRules = rules.profile.ages
        // Profiles hold canonical ids already; normalising is only for ids written by hand.
        let mappedRange = profile.ageRange.flatMap { id in ageRules.ranges.first { $0.id == id } ?? ageRules.range(named: id) }
        let age: Int
        let ageSource: String
        if let exact = profile.age {
            age = exact
            ageSource = "age"
        } else if let mappedRange {
            age = mappedRange.mappedAge
            ageSource = "age_range"
        } else {
            age = defaults.age
            ageSource = "default"
            assumed.append(AssumedInput(field: "age", value: Double(defaults.age)))
        }
        let height = profile.heightCm ?? defaults.heightCm[profile.sex] ?? 0
        if profile.heightCm == nil { assumed.append(AssumedInput(field: "height_cm", value: height)) }
        let weight = profile.weightKg ?? defaults.weightKg[profile.sex] ?? 0
        if profile.weightKg == nil { assumed.append(AssumedInput(field: "weight_kg", value: weight)) }
        if profile.scheduleDaysAssumed { assumed.append(AssumedInput(field: "schedule_days", value: Double(profile.scheduleDays))) }
        let isMinor = profile.age.map { $0 < ageRules.minorBelowAge } ?? (mappedRange?.minor ?? false)

        let fields = rules.profile.fields
        let trainingDays = min(profile.scheduleDays, fields.maxTrainingDays)
        guard let multiplier = rules.activity.byTrainingDays[trainingDays] else {
            throw RuleEvaluationError("activity multipliers: no multiplier for \(trainingDays) training days", at: nil)
        }
        let formulas = rules.indexes
        var bindings = ExpressionSlots(names: formulas.slotNames)
        bindings.set(IndexVariables.sex, .string(profile.sex.rawValue))
        bindings.set(IndexVariables.age, .int(Int64(age)))
        bindings.set(IndexVariables.heightCm, .float(height))
        bindings.set(IndexVariables.weightKg, .float(weight))
        bindings.set(IndexVariables.bodyfatPct, profile.bodyfatPct.map(Value.float) ?? .null)
        bindings.set(IndexVariables.waistCm, profile.waistCm.map(Value.float) ?? .null)
        bindings.set(IndexVariables.activityMultiplier, .float(multiplier))
        bindings.set(IndexVariables.assumed, .list(assumed.map { .string($0.field) }))
        let lbm = try formulas.leanBodyMass.number(bindings, rule: "lbm_kg")
        bindings.set(IndexVariables.lbmKg, lbm.map(Value.float) ?? .null)

        var computed: (method: String, bmr: Double)?
        for row in formulas.bmrMethods where try row.when.condition(bindings, rule: "BMR method '\(row.method)' when") {
            guard let value = try row.formula.number(bindings, rule: "BMR method '\(row.method)'") else {
                throw RuleEvaluationError("BMR method '\(row.method)': the formula gave null", at: row.formula.source.lineOrigins.first)
            }
            computed = (row.method, value)
            break
        }
        guard let computed else {
            throw RuleEvaluationError("BMR: no method's 'when' holds for this profile; the last row should be \"true\"", at: nil)
        }
        var warnings: [String] = []
        let threshold = formulas.overrideWarningPct
        let assumedNote = assumed.isEmpty ? "" : " (computed with assumed \(assumed.map(\.field).joined(separator: ", ")))"
        func compare(_ name: String, override: Double?, computed value: Double?, unit: String) {
            guard let override, let value, value > 0 else { return }
            let delta = (override - value) / value * 100
            if abs(delta) > threshold {
                warnings.append("\(name) override \(formatted(override))\(unit) differs from the computed \(formatted(value))\(unit) by \(delta > 0 ? "+" : "")\(formatted(delta))%\(assumedNote); using the override")
            }
        }
        compare("BMR", override: profile.overrides.bmr, computed: computed.bmr, unit: " kcal")
        func tdee(fromBMR value: Double) throws(RuleEvaluationError) -> Double {
            bindings.set(IndexVariables.bmr, .float(value))
            guard let tdee = try formulas.tdee.number(bindings, rule: "tdee") else {
                throw RuleEvaluationError("tdee: the formula gave null", at: formulas.tdee.source.lineOrigins.first)
            }
            return tdee
        }
        // The computed TDEE is the inputs' own (a TDEE override is compared with it); the TDEE
        // used follows a BMR override when TDEE itself is not overridden.
        let computedTDEE = try tdee(fromBMR: computed.bmr)
        compare("TDEE", override: profile.overrides.tdee, computed: computedTDEE, unit: " kcal")
        let bmr = profile.overrides.bmr ?? computed.bmr
        let tdeeFromBMR = try tdee(fromBMR: bmr)
        let tdee = profile.overrides.tdee ?? tdeeFromBMR
        bindings.set(IndexVariables.tdee, .float(tdee))

        let measuredSize = profile.heightCm != nil && profile.weightKg != nil
        let computedBMI = measuredSize ? try formulas.bmi.number(bindings, rule: "bmi") : nil
        compare("BMI", override: profile.overrides.bmi, computed: computedBMI, unit: "")
        let bmi = profile.overrides.bmi ?? computedBMI
        let whtr = (profile.waistCm != nil && profile.heightCm != nil) ? try formulas.whtr.number(bindings, rule: "whtr") : nil
        let ffmi = (measuredSize && profile.bodyfatPct != nil) ? try formulas.ffmi.number(bindings, rule: "ffmi") : nil

        // A client whose measurements cannot belong to one person is warned, naming them; for any
        // other client a computed index outside its plausible range is the formula's error.
        if let warning = formulas.plausibility?.clientWarning(
            heightCm: profile.heightCm, weightKg: profile.weightKg, bodyfatPct: profile.bodyfatPct) {
            warnings.append(warning)
        } else {
            let bmrLocation = formulas.bmrMethods.first { $0.method == computed.method }?.location
            let checks: [(String, Double?, SourceLocation?)] = [
                ("lbm_kg", lbm, formulas.formulaLocations["lbm_kg"]), ("bmr", computed.bmr, bmrLocation),
                ("tdee", computedTDEE, formulas.formulaLocations["tdee"]), ("bmi", computedBMI, formulas.formulaLocations["bmi"]),
                ("whtr", whtr, formulas.formulaLocations["whtr"]), ("ffmi", ffmi, formulas.formulaLocations["ffmi"]),
            ]
            for (key, value, location) in checks {
                if let failure = formulas.implausible(key, value, at: location, for: "this profile") {
                    throw RuleEvaluationError(failure.message, at: failure.location)
                }
            }
        }

        var context: [String: String] = [:]
        if let bmi { context["BMI"] = formulas.contextLabel("BMI", bmi) }
        if let whtr { context["WHtR"] = formulas.contextLabel("WHtR", whtr) }
        if let ffmi { context["FFMI"] = formulas.contextLabel("FFMI", ffmi) }

        let ladder = ladderPosition(profile)
        var notes: [String] = []
        if profile.scheduleDays > fields.maxTrainingDays { notes.append(fields.activeRecoveryNote) }
        if profile.waistCm != nil && profile.heightCm == nil { notes.append("WHtR needs height_cm; add it to see the waist-to-height ratio") }
        return IndexReport(
            bmr: bmr, method: profile.overrides.bmr != nil ? "override" : computed.method, tdee: tdee, bmi: bmi, whtr: whtr, ffmi: ffmi,
            accuracy: ladder.level, confidence: ladder.confidence, nextBestInput: ladder.next, computedBMR: computed.bmr,
            computedTDEE: computedTDEE, computedBMI: computedBMI, ageUsed: age, ageSource: ageSource, heightCmUsed: height,
            weightKgUsed: weight, leanBodyMassKg: lbm, trainingDays: trainingDays, activityMultiplier: multiplier, isMinor: isMinor,
            assumed: assumed, context: context, warnings: warnings, cautions: isMinor ? [ageRules.minorCaution] : [], notes: notes,
            tips: ladder.next.flatMap { rules.accuracy.tips[$0] }.map { [$0] } ?? [])
    }

    /// The accuracy level reached, its confidence and the first missing input.
    func ladderPosition(_ profile: Profile) -> (level: String, confidence: String, next: String?) {
        func present(_ input: String) -> Bool {
            switch input {
            case "weight_kg": profile.weightKg != nil
            case "height_cm": profile.heightCm != nil
            case "age_range": profile.ageRange != nil || profile.age != nil
            case "bodyfat_pct": profile.bodyfatPct != nil
            case "waist_cm": profile.waistCm != nil
            default: false
            }
        }
        let ladder = rules.accuracy
        var reached = ladder.levels.first
        for level in ladder.levels {
            guard level.requires.allSatisfy(present) else { break }
            reached = level
        }
        return (reached?.level ?? "low", reached?.confidence ?? "low", ladder.nextBestOrder.first { !present($0) })
    }

    /// Estimated one-rep max by the rules' formula (Epley by default).
    package func oneRepMax(load: Double, reps: Int) throws(RuleEvaluationError) -> Double {
        guard let value = try rules.indexes.oneRepMax.number([IndexVariables.load.name: .float(load), IndexVariables.reps.name: .int(Int64(reps))], rule: "one_rep_max") else {
            throw RuleEvaluationError("one_rep_max: the formula gave null", at: rules.indexes.oneRepMax.source.lineOrigins.first)
        }
        return value
    }
}
