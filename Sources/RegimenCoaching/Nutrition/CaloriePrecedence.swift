import RegimenLanguage
import OrderedCollections

/// The one order every calorie target passes through, for `plan` and for `adapt`'s calorie steps
/// (`calorie_precedence` in `rules/nutrition.yaml`), highest first:
///
/// 1. safety floors: never below the absolute floor for the client's sex, never below BMR × the
///    rule's multiplier;
/// 2. pregnancy: no deficit (at least TDEE × the rule's minimum plus the trimester's extra energy);
/// 3. the goal's band: TDEE × `calories.<goal>.multiplier`;
/// 4. the proposed kcal (the goal's point, or an adapt step).
///
/// A higher rule wins where two disagree: a floor above the goal's band lifts the target above the
/// band, and the decision says which bound applied and why.
package struct CaloriePrecedence: Sendable {
    package let rules: NutritionFile

    init(rules: NutritionFile) { self.rules = rules }

    /// The facts about a client the precedence reads.
    package struct Facts: Sendable, Hashable {
        var sex: Profile.Sex
        /// Whether the pregnancy rule applies (a pregnant woman).
        var pregnant: Bool
        /// 1, 2 or 3 when known.
        var trimester: Int?
        /// The canonical goal id whose band applies.
        var goal: String
        /// The TDEE the target is planned from, kcal/day.
        var tdee: Double
        /// The BMR used, kcal/day.
        package var bmr: Double

        init(sex: Profile.Sex, pregnant: Bool, trimester: Int?, goal: String, tdee: Double, bmr: Double) {
            self.sex = sex
            self.pregnant = pregnant
            self.trimester = trimester
            self.goal = goal
            self.tdee = tdee
            self.bmr = bmr
        }

        /// The facts of a profile and the indexes planned from it; `goal` is the canonical goal
        /// the plan uses (the profile's, or the rules' default).
        init(profile: Profile, indexes: IndexReport, goal: String) {
            self.init(
                sex: profile.sex, pregnant: profile.sex == .female && profile.pregnant == true, trimester: profile.trimester,
                goal: goal, tdee: indexes.tdee, bmr: indexes.bmr)
        }
    }

    /// Which rule set the effective target.
    enum Bound: String, Sendable, Hashable, CaseIterable {
        /// The proposed kcal was below the goal's band and rose to its lower edge.
        case goalBandLow = "goal_band_low"
        /// The proposed kcal was above the goal's band and fell to its upper edge.
        case goalBandHigh = "goal_band_high"
        /// Pregnancy: no deficit.
        case pregnancy
        /// Never below BMR.
        case bmrFloor = "bmr_floor"
        /// The absolute floor for the client's sex.
        case absoluteFloor = "absolute_floor"
    }

    /// The effective target and how it was reached.
    package struct Decision: Sendable, Hashable {
        /// The kcal asked for (the goal's point, or an adapt step's result).
        var proposed: Double
        /// The kcal to plan with.
        package var kcal: Double
        /// The goal's band in kcal/day (TDEE × the goal's multiplier range); the proposed kcal
        /// when the rules have no band for the goal.
        var band: ClosedRange<Double>
        /// The highest floor of safety and pregnancy, kcal/day (0 when none applies).
        var floor: Double
        /// The rule that moved the target, `nil` when the proposed kcal stood.
        var bound: Bound?
        /// One line for the plan naming the rule that applied and why; `nil` when none did.
        var reason: String?
        /// What the client must know about the target beside the number (a pregnant client: why
        /// there is no deficit and what her trimester asks), from the rules, in order.
        var cautions: [String] = []
    }

    /// The floors that rank above the goal's band, highest value first: each with its bound and
    /// a phrase naming it.
    func floors(_ facts: Facts) -> [(bound: Bound, kcal: Double, name: String)] {
        let safety = rules.precedence
        var floors: [(Bound, Double, String)] = []
        if let absolute = safety.absoluteFloor[facts.sex] {
            floors.append((.absoluteFloor, absolute, "the safety floor for \(facts.sex == .female ? "women" : "men"), \(whole(absolute)) kcal/day (\(safety.floorSource))"))
        }
        let bmrFloor = facts.bmr * safety.bmrMultiplier
        floors.append((.bmrFloor, bmrFloor, safety.bmrMultiplier == 1 ? "the BMR floor, \(whole(bmrFloor)) kcal/day (never below BMR)" : "the BMR floor, BMR × \(exactly(safety.bmrMultiplier)) = \(whole(bmrFloor)) kcal/day"))
        if facts.pregnant {
            let extras = safety.pregnancyExtraByTrimester
            let extra = facts.trimester.flatMap { extras.indices.contains($0 - 1) ? extras[$0 - 1] : nil } ?? extras.first ?? 0
            let minimum = facts.tdee * safety.pregnancyMinMultiplier + extra
            let when = facts.trimester.map { "trimester \($0)" } ?? "trimester not given"
            floors.append((.pregnancy, minimum, "pregnancy: no deficit (\(safety.pregnancySource)), \(when): TDEE \(whole(facts.tdee))\(extra > 0 ? " + \(whole(extra))" : "") = \(whole(minimum)) kcal/day"))
        }
        return floors
    }

    /// The effective kcal for `proposed`: kept inside the goal's band, then raised to the highest
    /// floor of safety and pregnancy when it lies below it.
    package func resolve(proposed: Double, _ facts: Facts) -> Decision {
        let multipliers = rules.calories[facts.goal]?.range
        let band = multipliers.map { (facts.tdee * $0.lowerBound)...(facts.tdee * $0.upperBound) } ?? proposed...proposed
        let factors = multipliers.map { "× \(exactly($0.lowerBound))–\(exactly($0.upperBound)) = " } ?? ""
        let bandText = "the \(facts.goal) band (TDEE \(whole(facts.tdee)) \(factors)\(whole(band.lowerBound))–\(whole(band.upperBound)) kcal)"
        // The highest floor wins; on a tie the higher-ranked rule (safety before pregnancy) is named.
        let highest = floors(facts).max { a, b in a.kcal < b.kcal || (a.kcal == b.kcal && rank(a.bound) > rank(b.bound)) }
        var decision = Self.order(proposed: proposed, band: band, bandText: bandText, floor: highest)
        decision.cautions = cautions(facts)
        return decision
    }

    /// The order itself, for a plan's target and for an adapt step alike: `proposed` kept inside
    /// `band`, then raised to `floor` when it lies below it (a floor above the band wins).
    static func order(proposed: Double, band: ClosedRange<Double>, bandText: String,
                      floor highest: (bound: Bound, kcal: Double, name: String)?) -> Decision {
        var kcal = proposed
        var bound: Bound?
        var reason: String?
        if kcal < band.lowerBound {
            kcal = band.lowerBound
            bound = .goalBandLow
            reason = "kcal raised from \(whole(proposed)) to \(whole(kcal)), the lower edge of \(bandText)"
        } else if kcal > band.upperBound {
            kcal = band.upperBound
            bound = .goalBandHigh
            reason = "kcal lowered from \(whole(proposed)) to \(whole(kcal)), the upper edge of \(bandText)"
        }
        if let highest, kcal < highest.kcal {
            let above = highest.kcal > band.upperBound ? ", above \(bandText): the floor wins" : ""
            reason = "kcal raised from \(whole(proposed)) to \(whole(highest.kcal)) by \(highest.name)\(above)"
            kcal = highest.kcal
            bound = highest.bound
        }
        return Decision(proposed: proposed, kcal: kcal, band: band, floor: highest?.kcal ?? 0, bound: bound, reason: reason)
    }

    /// Safety floors rank above pregnancy.
    private func rank(_ bound: Bound) -> Int {
        switch bound {
        case .absoluteFloor, .bmrFloor: 0
        case .pregnancy: 1
        case .goalBandLow, .goalBandHigh: 2
        }
    }
}

extension CaloriePrecedence {
    /// An adapt step through the same order (safety floors > pregnancy > goal band > the step):
    /// `proposed` is the plan's kcal moved by the step; `planned` is the decision the plan was made
    /// with, whose band and highest floor still hold (the client's TDEE, BMR, sex and pregnancy
    /// are the plan's). `bmr` names the floor when it is the BMR floor.
    func resolveStep(proposed: Double, planned: Decision, goal: String?, bmr: Double?) -> Decision {
        let bandText = "the \(goal ?? "goal's") band (\(whole(planned.band.lowerBound))–\(whole(planned.band.upperBound)) kcal)"
        // The cautions are the client's (pregnancy, trimester), not the step's: they stay.
        var decision = Self.order(proposed: proposed, band: planned.band, bandText: bandText, floor: floor(of: planned, bmr: bmr))
        decision.cautions = planned.cautions
        return decision
    }

    /// The decision a plan that recorded none (made before the precedence, or written by hand)
    /// is held to: the goal's band from its TDEE (none without a goal), and the floors that need
    /// no profile — the BMR floor and the lower absolute floor (the plan does not name the sex).
    func unrecordedDecision(goal: String?, tdee: Double, bmr: Double) -> Decision {
        let multipliers = goal.flatMap { rules.calories[$0]?.range }
        let band = multipliers.map { (tdee * $0.lowerBound)...(tdee * $0.upperBound) } ?? 0...Double.greatestFiniteMagnitude
        let floor = max(bmr * rules.precedence.bmrMultiplier, rules.precedence.absoluteFloor.values.min() ?? 0)
        return Decision(proposed: tdee, kcal: tdee, band: band, floor: floor, bound: nil, reason: nil)
    }

    /// Which of the precedence's floors a plan's recorded `floor_kcal` is: the rule its decision
    /// applied, else the floor whose value it equals (pregnancy is the only floor that depends on
    /// TDEE, so a floor that is neither an absolute nor the BMR floor is pregnancy's); `nil` when
    /// the decision recorded no floor.
    func floor(of planned: Decision, bmr: Double?) -> (bound: Bound, kcal: Double, name: String)? {
        guard planned.floor > 0 else { return nil }
        let safety = rules.precedence
        let kcal = planned.floor
        func near(_ value: Double) -> Bool { abs(value - kcal) < 0.5 }
        if let bound = planned.bound, bound != .goalBandLow, bound != .goalBandHigh {
            return (bound, kcal, name(of: bound, kcal: kcal))
        }
        if safety.absoluteFloor.values.contains(where: near) { return (.absoluteFloor, kcal, name(of: .absoluteFloor, kcal: kcal)) }
        if let bmr, near(bmr * safety.bmrMultiplier) { return (.bmrFloor, kcal, name(of: .bmrFloor, kcal: kcal)) }
        return (.pregnancy, kcal, name(of: .pregnancy, kcal: kcal))
    }

    private func name(of bound: Bound, kcal: Double) -> String {
        let safety = rules.precedence
        return switch bound {
        case .absoluteFloor: "the safety floor, \(whole(kcal)) kcal/day (\(safety.floorSource))"
        case .bmrFloor: "the BMR floor, \(whole(kcal)) kcal/day (never below BMR)"
        case .pregnancy: "pregnancy: no deficit (\(safety.pregnancySource)), \(whole(kcal)) kcal/day"
        case .goalBandLow, .goalBandHigh: "the goal's band"
        }
    }
}

extension CaloriePrecedence.Decision {
    /// The decision for the plan's JSON (`basis.calorie_precedence`).
    var jsonValue: Value {
        .map([
            "proposed_kcal": .wholeNumber(proposed), "kcal": .wholeNumber(kcal),
            "band_kcal": .list([.wholeNumber(band.lowerBound), .wholeNumber(band.upperBound)]),
            "floor_kcal": .wholeNumber(floor), "applied": bound.map { .string($0.rawValue) } ?? .null,
            "reason": reason.map(Value.string) ?? .null,
        ])
    }
}

/// A kcal figure rounded to the whole number, as the plan shows it.
private func whole(_ value: Double) -> String { NumberText.plain(value.rounded(.toNearestOrAwayFromZero)) }
