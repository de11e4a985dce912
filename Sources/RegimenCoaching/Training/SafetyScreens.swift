import RegimenLanguage
import RegimenRules

/// `safety_screens` in `rules/training-selection.yaml`: what pregnancy, high blood pressure and
/// age change in training (exercises excluded by catalog flag, an RIR floor, a session-length
/// cap, a caution shown with the plan).
struct SafetyScreens: Sendable, Hashable {
    /// One screen's consequences.
    struct Screen: Sendable, Hashable {
        /// Catalog flags (`flags:` of catalogs/exercise-catalog.yaml) whose exercises are left out.
        var excludeFlags: Set<String> = []
        /// Flags left out from the second trimester on (pregnancy only; also when the trimester is unknown).
        var excludeFlagsAfterFirstTrimester: Set<String> = []
        /// No set closer to failure than this many reps in reserve.
        var minRIR: Int?
        /// Sessions last at most this many minutes.
        var maxMinutes: Int?
        /// The caution the plan shows.
        var caution: String
    }

    var pregnancy: Screen?
    var hypertension: Screen?
    var olderAdults: Screen?
    /// BMI at or above `highBMIFrom` (needs height and weight).
    var highBMI: Screen?
    var highBMIFrom = Double.infinity
    /// The age from which `olderAdults` applies.
    var olderAdultsFromAge = Int.max

    /// The flags the catalog may use.
    static let knownFlags: Set<String> = ["supine", "max_effort", "body_weight_lift"]

    static func decode(_ map: inout MappingDecoder) -> SafetyScreens? {
        let context = map.context
        func screen(_ entry: inout MappingDecoder, pregnancy: Bool = false) -> Screen? {
            func flags(_ key: String) -> Set<String> {
                let names = entry.optional(key, as: [String].self) ?? []
                for name in names where !knownFlags.contains(name) {
                    context.error("rules.value", "safety_screens: flag '\(name)' must be one of \(knownFlags.sorted().joined(separator: ", "))", at: entry.location(ofKey: key))
                }
                return Set(names)
            }
            let exclude = flags("exclude_flags")
            let later = pregnancy ? flags("exclude_flags_after_first_trimester") : []
            let rir = entry.optional("min_rir", as: Int.self, in: 0...5)
            let minutes = entry.optional("max_minutes", as: Int.self, in: 10...240)
            guard let caution = entry.required("caution", as: String.self) else { return nil }
            return Screen(excludeFlags: exclude, excludeFlagsAfterFirstTrimester: later, minRIR: rir, maxMinutes: minutes, caution: caution)
        }
        var result = SafetyScreens()
        result.pregnancy = map.mapping("pregnancy") { screen(&$0, pregnancy: true) }
        result.hypertension = map.mapping("hypertension") { screen(&$0) }
        var fromAge: Int?
        result.olderAdults = map.mapping("older_adults") { entry -> Screen? in
            fromAge = entry.required("from_age", as: Int.self, in: 18...120)
            return screen(&entry)
        }
        var fromBMI: Double?
        result.highBMI = map.mapping("high_bmi", required: false) { entry -> Screen? in
            fromBMI = entry.required("from_bmi", as: Double.self, in: 15...80)
            return screen(&entry)
        }
        result.highBMIFrom = fromBMI ?? .infinity
        guard result.pregnancy != nil, result.hypertension != nil, result.olderAdults != nil, let fromAge else { return nil }
        result.olderAdultsFromAge = fromAge
        return result
    }

    /// The screens that apply to a profile, in the order pregnancy, hypertension, BMI, age.
    func applying(to profile: Profile) -> [Screen] {
        var screens: [Screen] = []
        if profile.sex == .female, profile.pregnant == true, var pregnancy {
            // Supine work is left out from the second trimester on, and when the trimester is
            // unknown (the safe side).
            if (profile.trimester ?? 2) >= 2 { pregnancy.excludeFlags.formUnion(pregnancy.excludeFlagsAfterFirstTrimester) }
            screens.append(pregnancy)
        }
        if profile.hypertension == true, let hypertension { screens.append(hypertension) }
        if let weight = profile.weightKg, let height = profile.heightCm, height > 0, let highBMI,
           weight / ((height / 100) * (height / 100)) >= highBMIFrom {
            screens.append(highBMI)
        }
        if let age = profile.age, age >= olderAdultsFromAge, let olderAdults { screens.append(olderAdults) }
        return screens
    }
}
