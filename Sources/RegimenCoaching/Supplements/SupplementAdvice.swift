import OrderedCollections
public import RegimenLanguage

/// The advisor's answer for one person and goal: what to consider, at what dose, with which
/// cautions, and what was left out and why.
public struct SupplementAdvice: Sendable, Hashable {
    /// A message produced by a named rule (a caution rule id, or `goal`, `evidence_tier`,
    /// `redundant`, `dose` for the advisor's own reasons).
    public struct Note: Sendable, Hashable {
        /// The rule that produced the message.
        public var rule: String
        /// The message, filled in for this person.
        public var message: String

        /// A note from `rule` saying `message`.
        public init(rule: String, message: String) {
            self.rule = rule
            self.message = message
        }
    }

    /// A dose worked out for this person.
    public struct Dose: Sendable, Hashable {
        /// The seed's `dose.amount`: the suggestion as a sentence, e.g. `210 mg (3 mg/kg × 70 kg)`.
        public var amount: String
        /// The seed's `dose.timing`.
        public var timing: String
        /// The suggested amount per `period`, in `unit`.
        public var suggested: Double
        package var unit: SupplementDose.Unit
        var period: SupplementDose.Period
        /// The catalog range scaled to this person, in `unit` per `period`.
        public var low: Double
        /// The top of the catalog range scaled to this person, in `unit` per `period`.
        public var high: Double
        /// How many intakes the suggestion is split into (the catalog's largest single dose).
        public var intakes: Int
        /// The catalog range as written (`1–3 mg/kg`, `3–5 g`).
        public var basis: String
        /// The published source of the range.
        public var source: String
        /// The dose as the seed document gives it.
        public var seed: String
        /// The position stand the dose follows, if one.
        public var stand: String?
        /// The catalog's note on which amount to choose within the range, if any.
        public var choice: String?
        /// The upper limit that applied, with its source, when there is one.
        public var upperLimit: String?

        init(
            amount: String, timing: String, suggested: Double, unit: SupplementDose.Unit, period: SupplementDose.Period,
            low: Double, high: Double, intakes: Int, basis: String, source: String, seed: String, stand: String?,
            choice: String?, upperLimit: String?
        ) {
            self.amount = amount
            self.timing = timing
            self.suggested = suggested
            self.unit = unit
            self.period = period
            self.low = low
            self.high = high
            self.intakes = intakes
            self.basis = basis
            self.source = source
            self.seed = seed
            self.stand = stand
            self.choice = choice
            self.upperLimit = upperLimit
        }
    }

    /// An item on the shortlist.
    public struct Recommendation: Sendable, Hashable {
        /// The item's id in the supplement catalog.
        public var id: String
        /// The item's name.
        public var name: String
        package var category: Supplement.Category
        /// The goals the catalog lists the item for (the seed's `goals`).
        public var goals: [String]
        package var evidenceTier: Supplement.EvidenceTier
        /// The dose worked out for this person.
        public var dose: Dose
        /// What speaks for the item.
        public var pros: [String]
        /// What speaks against it.
        public var cons: [String]
        /// Known side effects.
        public var sideEffects: [String]
        /// The item's own cautions, for everyone.
        public var cautions: [String]
        /// Cautions that apply to this person, from the caution rules, in rule order.
        public var personalCautions: [Note]
        /// What to check when buying it (third-party testing, form).
        public var purchaseChecks: [String]
    }

    /// An item the advisor did not suggest, with every reason.
    public struct LeftOut: Sendable, Hashable {
        /// The item's id in the supplement catalog.
        public var id: String
        /// The item's name.
        public var name: String
        package var evidenceTier: Supplement.EvidenceTier
        /// Every reason it was left out.
        public var reasons: [Note]
    }

    /// The goal the shortlist is for; `nil` when neither the request nor the profile named one.
    public var goal: String?
    /// The body weight doses were scaled to, in kg, when known.
    public var weightKg: Double?
    /// The items suggested for the goal, strongest evidence first.
    public var shortlist: [Recommendation]
    /// Items of the rules' `optional_tier` for the goal, offered with their tier because nothing
    /// stronger serves the goal itself; they passed every safety rule.
    public var optional: [Recommendation] = []
    /// The items not suggested, with why.
    public var leftOut: [LeftOut]

    /// Every person-level note (cautions that apply to all items), deduplicated, in rule order.
    public var generalNotes: [Note] {
        var seen = Set<Note>()
        var out: [Note] = []
        for item in shortlist {
            for note in item.personalCautions where seen.insert(note).inserted { out.append(note) }
        }
        return out
    }
}

extension SupplementAdvice {
    /// The advice as a value with the seed's field names (`dose {amount, timing}`, `side_effects`,
    /// `evidence_tier`, `purchase_checks`), for JSON and YAML output.
    public var value: Value {
        func strings(_ list: [String]) -> Value { .list(list.map(Value.string)) }
        func notes(_ list: [Note]) -> Value {
            .list(list.map { .map(["rule": .string($0.rule), "message": .string($0.message)]) })
        }
        func number(_ x: Double) -> Value { Value.number(x) }
        func itemValue(_ item: Recommendation) -> Value {
            var dose: OrderedDictionary<String, Value> = [
                "amount": .string(item.dose.amount),
                "timing": .string(item.dose.timing),
                "suggested": number(item.dose.suggested),
                "unit": .string(item.dose.unit.rawValue),
                "per": .string(item.dose.period.rawValue),
                "range": .map(["low": number(item.dose.low), "high": number(item.dose.high)]),
                "intakes": .int(Int64(item.dose.intakes)),
                "basis": .string(item.dose.basis),
                "source": .string(item.dose.source),
                "seed": .string(item.dose.seed),
            ]
            if let stand = item.dose.stand { dose["stand"] = .string(stand) }
            if let choice = item.dose.choice { dose["choice"] = .string(choice) }
            if let limit = item.dose.upperLimit { dose["upper_limit"] = .string(limit) }
            return .map([
                "id": .string(item.id),
                "name": .string(item.name),
                "category": .string(item.category.rawValue),
                "goals": strings(item.goals),
                "evidence_tier": .string(item.evidenceTier.rawValue),
                "dose": .map(dose),
                "pros": strings(item.pros),
                "cons": strings(item.cons),
                "side_effects": strings(item.sideEffects),
                "cautions": strings(item.cautions),
                "personal_cautions": notes(item.personalCautions),
                "purchase_checks": strings(item.purchaseChecks),
            ])
        }
        let leftOutValue: [Value] = leftOut.map { item -> Value in
            .map([
                "id": .string(item.id),
                "name": .string(item.name),
                "evidence_tier": .string(item.evidenceTier.rawValue),
                "reasons": notes(item.reasons),
            ])
        }
        return .map([
            "goal": goal.map(Value.string) ?? .null,
            "weight_kg": weightKg.map(number) ?? .null,
            "shortlist": .list(shortlist.map(itemValue)),
            "optional": .list(optional.map(itemValue)),
            "left_out": .list(leftOutValue),
        ])
    }
}
