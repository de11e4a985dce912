import RegimenLanguage
package import RegimenRules

/// The index part of `rules/plausibility.yaml`: the range every computed index must stay in, the
/// range a client's own measurements must make together, and the grid of profiles `check`
/// evaluates every formula over.
///
/// A coach's formula that leaves its range for a plausible profile is wrong (`bmr * 1e18`,
/// `-1`, a typo in a constant): at load time (so `regimen check`) that is an error at the formula,
/// naming the first grid profile that shows it; at run time it is an error too, never an absurd
/// number in the plan. A client whose measurements are each in range but impossible together
/// (120 cm, 250 kg, 5 % body fat) gets a warning naming the fields instead.
package struct IndexPlausibility: Sendable {
    package typealias Range = PlausibilityFile.Range

    /// Ranges of the computed values, by formula key (`bmr`, `tdee`, `bmi`, `ffmi`, `lbm_kg`, `whtr`).
    package var formulas: [String: Range]
    /// Mass / height² of the client's own measurements.
    var clientBMI: Range
    /// Lean mass / height² of the client's own measurements.
    var clientFFMI: Range
    /// The check grid, by input name.
    var grid: [String: [Double]]

    static let formulaKeys = PlausibilityFile.indexKeys

    /// The index part of rules/plausibility.yaml.
    init(_ rules: PlausibilityFile) {
        formulas = rules.indexes
        clientBMI = rules.client["bmi"] ?? Range(low: 0, high: .greatestFiniteMagnitude)
        clientFFMI = rules.client["ffmi"] ?? Range(low: 0, high: .greatestFiniteMagnitude)
        grid = rules.grid
    }

    /// The warning for a client whose measured height, weight and body fat cannot belong to one
    /// person, naming the fields; `nil` when they can (or when they were not all measured).
    func clientWarning(heightCm: Double?, weightKg: Double?, bodyfatPct: Double?) -> String? {
        guard let heightCm, let weightKg, heightCm > 0 else { return nil }
        let metres = heightCm / 100
        let bmi = weightKg / (metres * metres)
        var problems: [String] = []
        var fields = ["height_cm \(NumberText.rounded(heightCm, decimals: 1))", "weight_kg \(NumberText.rounded(weightKg, decimals: 1))"]
        if !clientBMI.contains(bmi) {
            problems.append("a body mass index of \(NumberText.rounded(bmi, decimals: 1)) (plausible \(clientBMI.text))")
        }
        if let bodyfatPct {
            let ffmi = weightKg * (1 - bodyfatPct / 100) / (metres * metres)
            if !clientFFMI.contains(ffmi) {
                fields.append("bodyfat_pct \(NumberText.rounded(bodyfatPct, decimals: 1))")
                problems.append("a fat-free mass index of \(NumberText.rounded(ffmi, decimals: 1)) (plausible \(clientFFMI.text))")
            }
        }
        guard !problems.isEmpty else { return nil }
        return "implausible combination: \(fields.joined(separator: ", ")) give \(problems.joined(separator: " and ")); check the measurements (indexes computed from them are shown but unreliable)"
    }

    /// One profile of the check grid.
    struct GridProfile {
        var sex: String
        var values: [String: Double?]

        var description: String {
            func show(_ key: String, _ unit: String) -> String {
                guard let value = values[key] ?? nil else { return "\(key) not given" }
                return "\(key) \(NumberText.rounded(value, decimals: 2))\(unit)"
            }
            return "\(sex), " + ["age", "height_cm", "weight_kg", "bodyfat_pct", "waist_cm", "activity_multiplier"].map { show($0, "") }.joined(separator: ", ")
        }
    }

    /// Every grid profile whose measurements are plausible together (the others are clients the
    /// warning is for, not tests of the formulas). Body fat and waist are also "not given".
    func profiles() -> [GridProfile] {
        var out: [GridProfile] = []
        let bodyfats: [Double?] = [nil] + (grid["bodyfat_pct"] ?? []).map { $0 }
        let waists: [Double?] = [nil] + (grid["waist_cm"] ?? []).map { $0 }
        for sex in ["male", "female"] {
            for age in grid["age"] ?? [] {
                for height in grid["height_cm"] ?? [] {
                    for weight in grid["weight_kg"] ?? [] {
                        for bodyfat in bodyfats {
                            guard clientWarning(heightCm: height, weightKg: weight, bodyfatPct: bodyfat) == nil else { continue }
                            for waist in waists {
                                for multiplier in grid["activity_multiplier"] ?? [] {
                                    out.append(GridProfile(sex: sex, values: [
                                        "age": age, "height_cm": height, "weight_kg": weight, "bodyfat_pct": bodyfat, "waist_cm": waist,
                                        "activity_multiplier": multiplier,
                                    ]))
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
