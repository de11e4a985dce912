import OrderedCollections
import RegimenLanguage

/// The supplements advisor (docs/requirements.md#supplements): a shortlist for a goal with doses
/// scaled to the person, screened by the caution rules. Safety rules fail closed: a rule that
/// cannot be evaluated for an item leaves the item out.
struct SupplementAdvisor: Sendable {
    package let catalog: SupplementCatalog
    package let rules: SupplementRules

    /// Advice for `profile`.
    /// - Parameters:
    ///   - goal: a goal of the catalog's vocabulary, already canonical; `nil` considers every item.
    ///   - excludedTags: the food tags the profile's dietary exclusions rule out (`rules/dietary-exclusions.yaml`).
    func advise(profile: Profile, goal: String?, excludedTags: [String] = []) -> SupplementAdvice {
        let person = personSlots(profile: profile, excludedTags: excludedTags)

        let goals = goal.map { Set([$0] + rules.alwaysIncludeGoals) }
        var shortlisted: [(supplement: Supplement, recommendation: SupplementAdvice.Recommendation)] = []
        var leftOut: [SupplementAdvice.LeftOut] = []
        // Safe items whose only fault is a weak evidence tier, with the reason they would be left out.
        var weak: [(recommendation: SupplementAdvice.Recommendation, reasons: [SupplementAdvice.Note])] = []

        for supplement in catalog.supplements {
            var reasons: [SupplementAdvice.Note] = []
            if let goals, goals.isDisjoint(with: supplement.goals) {
                reasons.append(.init(rule: "goal", message: "For \(supplement.goals.map(ValueText.label).joined(separator: ", ").lowercased()), not \(ValueText.label(goal ?? "").lowercased())."))
            }
            let screening = screen(supplement, weightKg: profile.weightKg, person: person)
            reasons += screening.exclusions
            let safe = reasons.isEmpty
            if supplement.evidenceTier > rules.shortlistMinTier {
                reasons.append(.init(rule: "evidence_tier", message: "Evidence tier \(supplement.evidenceTier.rawValue): weak or mixed evidence; the shortlist starts at tier \(rules.shortlistMinTier.rawValue)."))
            }
            let recommendation = screening.dose.map { dose in
                SupplementAdvice.Recommendation(
                    id: supplement.id, name: supplement.name, category: supplement.category, goals: supplement.goals,
                    evidenceTier: supplement.evidenceTier, dose: dose, pros: supplement.pros, cons: supplement.cons,
                    sideEffects: supplement.sideEffects, cautions: supplement.cautions,
                    personalCautions: screening.cautions, purchaseChecks: supplement.purchaseChecks)
            }
            if reasons.isEmpty, let recommendation {
                shortlisted.append((supplement, recommendation))
            } else if safe, let recommendation, let goal, supplement.goals.contains(goal), supplement.evidenceTier == rules.optionalTier {
                weak.append((recommendation, reasons))
            } else {
                if reasons.isEmpty {
                    reasons.append(.init(rule: "dose", message: "No dose can be worked out: the dose is per kg of body weight and weight_kg is not given."))
                }
                leftOut.append(.init(id: supplement.id, name: supplement.name, evidenceTier: supplement.evidenceTier, reasons: reasons))
            }
        }

        // Redundancy: an item another shortlisted item covers is left out. Repeated until stable
        // so that chains resolve the same way whatever the catalog order.
        var kept = shortlisted
        var changed = true
        while changed {
            changed = false
            let ids = Set(kept.map(\.supplement.id))
            if let index = kept.firstIndex(where: { entry in entry.supplement.redundantWith.contains { ids.contains($0) } }) {
                let entry = kept.remove(at: index)
                let coveringIds = entry.supplement.redundantWith.filter { ids.contains($0) }
                let covering = coveringIds.compactMap { catalog.supplement($0)?.name }
                leftOut.append(.init(id: entry.supplement.id, name: entry.supplement.name, evidenceTier: entry.supplement.evidenceTier,
                                     reasons: [.init(rule: "redundant", message: "Covered by \(covering.joined(separator: ", ")), already on the shortlist.")]))
                changed = true
            }
        }
        // Where nothing of a stronger tier serves the goal itself (items also listed for an
        // always-included goal, such as general health, do not count), the safe weak-evidence
        // items for the goal are offered as optional, tier shown.
        var optional: [SupplementAdvice.Recommendation] = []
        let strongerForGoal = goal.map { goal in
            kept.contains { $0.supplement.goals.contains(goal) && Set($0.supplement.goals).isDisjoint(with: rules.alwaysIncludeGoals) }
        } ?? true
        for entry in weak {
            if strongerForGoal {
                leftOut.append(.init(id: entry.recommendation.id, name: entry.recommendation.name, evidenceTier: entry.recommendation.evidenceTier,
                                     reasons: entry.reasons))
            } else {
                optional.append(entry.recommendation)
            }
        }
        // The loader rejects repeated ids, but a catalog built in code may still repeat one: the
        // first place wins instead of a trap.
        let order = Dictionary(catalog.supplements.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        leftOut.sort { (order[$0.id] ?? 0) < (order[$1.id] ?? 0) }
        return SupplementAdvice(goal: goal, weightKg: profile.weightKg, shortlist: kept.map(\.recommendation), optional: optional, leftOut: leftOut)
    }

    /// What facts and cautions read about the person, facts included.
    func personSlots(profile: Profile, excludedTags: [String]) -> Slots {
        let medication = rules.classify(medications: profile.medications)
        var person = Slots(environment: rules.environment)
        person.bind(SupplementVariables.profile, profile.screeningValue)
        person.bind(SupplementVariables.medicationClasses, .list(medication.classes.map(Value.string)))
        person.bind(SupplementVariables.unknownMedications, .list(medication.unknown.map(Value.string)))
        person.bind(SupplementVariables.excludedTags, .list(excludedTags.sorted().map(Value.string)))
        // Facts are per person. One that fails is unavailable, and so is every expression reading it.
        for fact in rules.facts {
            if let value = person.evaluate(fact.expression) { person[fact.name] = value } else { person.unavailable.insert(fact.name) }
        }
        return person
    }

    /// The person's slots plus one candidate item and the dose suggested for it so far.
    static func itemSlots(_ supplement: Supplement, dose: Double?, person: Slots) -> Slots {
        var slots = person
        slots.bind(SupplementVariables.item, supplement.screeningValue)
        slots.bind(SupplementVariables.dose, dose.map(Value.float) ?? .null)
        return slots
    }

    /// The caution rules applied to one item: its exclusions, the cautions that stay with it and
    /// its dose after every limit.
    private func screen(_ supplement: Supplement, weightKg: Double?, person: Slots)
        -> (exclusions: [SupplementAdvice.Note], cautions: [SupplementAdvice.Note], dose: SupplementAdvice.Dose?)
    {
        var plan = DosePlan(supplement.dose, weightKg: weightKg)
        var slots = Self.itemSlots(supplement, dose: plan?.suggested, person: person)
        var exclusions: [SupplementAdvice.Note] = []
        var cautions: [SupplementAdvice.Note] = []
        func uncheckable(_ caution: SupplementRules.Caution, _ why: String) -> SupplementAdvice.Note {
            .init(rule: caution.id, message: "Left out because rule '\(caution.id)' could not be checked: \(why)")
        }
        func uncheckable(_ caution: SupplementRules.Caution, _ why: Slots.Undecided) -> SupplementAdvice.Note {
            uncheckable(caution, why.reason)
        }
        for caution in rules.cautions {
            let holds = slots.condition(caution.condition)
            switch (caution.action, holds) {
            case (_, .success(false)):
                continue
            case (.caution, _):
                // A caution that cannot be checked is shown anyway.
                cautions.append(.init(rule: caution.id, message: slots.render(caution.message)))
            case (.exclude, .success(true)):
                exclusions.append(.init(rule: caution.id, message: slots.render(caution.message)))
            case (.exclude, .failure(let why)), (.limit, .failure(let why)):
                exclusions.append(uncheckable(caution, why))
            case (.limit(let capExpression, let takenExpression), .success(true)):
                guard let current = plan else { continue }
                guard let cap = slots.evaluate(capExpression)?.numberValue, let taken = slots.evaluate(takenExpression)?.numberValue else {
                    exclusions.append(uncheckable(caution, "daily_cap and already_taken must give numbers"))
                    continue
                }
                if let limited = current.limited(toDaily: cap - taken) {
                    if limited.suggested < current.suggested {
                        cautions.append(.init(rule: caution.id, message: "Dose lowered from \(ValueText.number(current.suggested)) to \(ValueText.number(limited.suggested)) \(supplement.dose.unit.rawValue) so that the day's total stays within \(ValueText.number(cap)) \(supplement.dose.unit.rawValue) (\(ValueText.number(taken)) already taken)."))
                    }
                    plan = limited
                    slots.bind(SupplementVariables.dose, .float(limited.suggested))
                } else {
                    exclusions.append(.init(rule: caution.id, message: slots.render(caution.message)))
                }
            }
        }
        return (exclusions, cautions, plan.map { $0.advice(for: supplement, weightKg: weightKg) })
    }
}

/// Variable values in an environment's slot order, with the names whose value could not be
/// computed (expressions reading them fail rather than see a stand-in value).
struct Slots {
    let environment: ExpressionEnvironment
    var values: [Value]
    var unavailable: Set<String> = []

    init(environment: ExpressionEnvironment) {
        self.environment = environment
        values = Array(repeating: .null, count: environment.variables.count)
    }

    subscript(name: String) -> Value {
        get { environment.slot(of: name).map { values[$0] } ?? .null }
        set { if let slot = environment.slot(of: name) { values[slot] = newValue } }
    }

    /// Binds a declared variable (see ``SupplementVariables``); `bound` records which were.
    mutating func bind(_ variable: VariableDeclaration, _ value: Value) {
        self[variable.name] = value
        bound.insert(variable.name)
    }

    /// The declared variables bound so far, for the test that every declared one is.
    private(set) var bound: Set<String> = []

    func evaluate(_ expression: CompiledExpression) -> Value? {
        guard unavailable.isDisjoint(with: expression.referencedVariables) else { return nil }
        return try? expression.evaluate(slots: values)
    }

    /// `true`/`false`, or why the condition could not be decided.
    func condition(_ expression: CompiledExpression) -> Result<Bool, Undecided> {
        let missing = unavailable.intersection(expression.referencedVariables)
        guard missing.isEmpty else { return .failure(Undecided("\(missing.sorted().joined(separator: ", ")) could not be computed")) }
        do {
            let value = try expression.evaluate(slots: values)
            guard case .bool(let b) = value else { return .failure(Undecided("the condition gave \(value.typeName), not true or false")) }
            return .success(b)
        } catch {
            return .failure(Undecided(error.message))
        }
    }

    /// Why a condition could not be decided.
    struct Undecided: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    func render(_ template: MessageTemplate) -> String { template.render(slots: values, unavailable: unavailable) }
}

/// A dose worked out for a weight: the range, the suggestion and the caps it respects.
struct DosePlan: Sendable, Hashable {
    let dose: SupplementDose
    var low: Double
    var high: Double
    var suggested: Double

    /// `nil` when the dose is per kg and the weight is unknown.
    init?(_ dose: SupplementDose, weightKg: Double?) {
        let scale: Double
        switch dose.basis {
        case .fixed: scale = 1
        case .perKg:
            guard let weightKg, weightKg > 0 else { return nil }
            scale = weightKg
        }
        self.dose = dose
        low = dose.range.lowerBound * scale
        high = dose.range.upperBound * scale
        if let limit = dose.upperLimit {
            let cap = limit.basis == .perKg ? limit.amount * (weightKg ?? 0) : limit.amount
            if limit.basis == .fixed || weightKg != nil { high = min(high, cap) }
        }
        let target: Double
        switch dose.point {
        case .low: target = low
        case .mid: target = (low + high) / 2
        case .high: target = high
        }
        suggested = Self.rounded(target, low: low, high: high, step: dose.roundTo)
    }

    /// The same dose with at most `room` a day, or `nil` when that is below the effective range.
    func limited(toDaily room: Double) -> DosePlan? {
        guard room >= low else { return nil }
        var copy = self
        copy.high = min(high, room)
        copy.suggested = Self.rounded(min(suggested, copy.high), low: low, high: copy.high, step: dose.roundTo)
        return copy
    }

    /// `target` rounded down to `step`, kept inside `low…high`: a rounded value below `low` is
    /// replaced by the next step up when that fits under `high`, else by `target` itself to 0.1.
    static func rounded(_ target: Double, low: Double, high: Double, step: Double) -> Double {
        let x = min(target, high)
        guard step > 0 else { return x }
        let epsilon = 1e-9
        let down = (x / step + epsilon).rounded(.down) * step
        if down >= low - epsilon { return down }
        let up = (low / step - epsilon).rounded(.up) * step
        if up <= high + epsilon { return up }
        return (x * 10).rounded(.down) / 10
    }

    func advice(for supplement: Supplement, weightKg: Double?) -> SupplementAdvice.Dose {
        let unit = dose.unit.rawValue
        let intakes = dose.doses ?? dose.maxSingle.map { max(1, (suggested / $0 - 1e-9).saturatingInt(.up)) } ?? 1
        let period: String
        switch dose.period {
        case .serving: period = "per serving"
        case .day: period = "a day"
        case .hour: period = "per hour"
        }
        let rangeText = dose.range.lowerBound == dose.range.upperBound
            ? ValueText.number(dose.range.lowerBound)
            : "\(ValueText.number(dose.range.lowerBound))–\(ValueText.number(dose.range.upperBound))"
        let basis = dose.basis == .perKg ? "\(rangeText) \(unit)/kg" : "\(rangeText) \(unit)"
        var amount = "\(ValueText.number(suggested)) \(unit) \(period)"
        if dose.basis == .perKg, let weightKg {
            amount += " (\(ValueText.number(suggested / weightKg)) \(unit)/kg × \(ValueText.number(weightKg)) kg)"
        }
        if intakes > 1, let maxSingle = dose.maxSingle {
            amount += ", in \(intakes) doses of at most \(ValueText.number(maxSingle)) \(unit)"
        } else if intakes > 1 {
            amount += ", in \(intakes) doses of about \(ValueText.number(suggested / Double(intakes), decimals: 1)) \(unit)"
        }
        let limitText = dose.upperLimit.map { limit in
            "\(ValueText.number(limit.amount)) \(unit)\(limit.basis == .perKg ? "/kg" : "") per \(limit.period.rawValue) (\(limit.source))"
        }
        return SupplementAdvice.Dose(
            amount: amount, timing: dose.timing, suggested: suggested, unit: dose.unit, period: dose.period,
            low: low, high: high, intakes: intakes, basis: basis, source: dose.source, seed: dose.seed,
            stand: dose.stand, choice: dose.choice, upperLimit: limitText)
    }
}

extension Supplement {
    /// The item as the caution rules see it (`item.*`).
    var screeningValue: Value {
        func strings(_ list: [String]) -> Value { .list(list.map(Value.string)) }
        return .map([
            "id": .string(id),
            "name": .string(name),
            "category": .string(category.rawValue),
            "goals": strings(goals),
            "evidence_tier": .string(evidenceTier.rawValue),
            "stimulant": .bool(stimulant),
            "sodium_load": .string(sodiumLoad.rawValue),
            "gi_risk": .bool(giRisk),
            "pregnancy": .string(pregnancy.rawValue),
            "contains": strings(contains),
            "usual_source_contains": strings(usualSourceContains),
            "alternative_source": alternativeSource.map(Value.string) ?? .null,
            "interactions": .map(OrderedDictionary(uniqueKeysWithValues: interactions.map { ($0.key, Value.string($0.value)) })),
            "redundant_with": strings(redundantWith),
            "dose_basis": .string(dose.basis.rawValue),
            "dose_unit": .string(dose.unit.rawValue),
            "dose_period": .string(dose.period.rawValue),
        ])
    }
}

extension Profile {
    /// The profile as screening rules see it (`profile.*`), with the seed's field names; absent
    /// optional fields are `null` so that rules can test for them.
    var screeningValue: Value {
        func number(_ x: Double?) -> Value { x.map(Value.float) ?? .null }
        return .map([
            "sex": .string(sex.rawValue),
            "schedule_days": .int(Int64(scheduleDays)),
            "age_range": ageRange.map(Value.string) ?? .null,
            "age": age.map { .int(Int64($0)) } ?? .null,
            "height_cm": number(heightCm),
            "weight_kg": number(weightKg),
            "bodyfat_pct": number(bodyfatPct),
            "waist_cm": number(waistCm),
            "experience": experience.map { .string($0.rawValue) } ?? .null,
            "equipment": equipment.map { .string($0.rawValue) } ?? .null,
            "injuries": .list(injuries.map { .string($0.rawValue) }),
            "overrides": .map(["BMR": number(overrides.bmr), "TDEE": number(overrides.tdee), "BMI": number(overrides.bmi)]),
            "goal": goal.map(Value.string) ?? .null,
            "budget_tier": budgetTier.map { .string($0.rawValue) } ?? .null,
            "meals_per_day": mealsPerDay.map { .int(Int64($0)) } ?? .null,
            "exclusions": .list(exclusions.map(Value.string)),
            "pregnant": pregnant.map(Value.bool) ?? .null,
            "trimester": trimester.map { .int(Int64($0)) } ?? .null,
            "hypertension": hypertension.map(Value.bool) ?? .null,
            "medications": .list(medications.map(Value.string)),
            "daily_caffeine_mg": number(dailyCaffeineMg),
        ])
    }
}
