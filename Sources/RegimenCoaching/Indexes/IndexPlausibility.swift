import RegimenLanguage
import RegimenRules

/// `plausibility` in `rules/indexes.yaml`: the range every computed index must stay in, the range
/// a client's own measurements must make together, and the grid of profiles `check` evaluates
/// every formula over.
///
/// A coach's formula that leaves its range for a plausible profile is wrong (`bmr * 1e18`,
/// `-1`, a typo in a constant): at load time (so `regimen check`) that is an error at the formula,
/// naming the first grid profile that shows it; at run time it is an error too, never an absurd
/// number in the plan. A client whose measurements are each in range but impossible together
/// (120 cm, 250 kg, 5 % body fat) gets a warning naming the fields instead.
package struct IndexPlausibility: Sendable {
    package struct Range: Sendable, Hashable {
        package var low: Double
        package var high: Double
        package func contains(_ value: Double) -> Bool { value.isFinite && value >= low && value <= high }
        package var text: String { "\(NumberText.rounded(low, decimals: 2))–\(NumberText.rounded(high, decimals: 2))" }
    }

    /// Ranges of the computed values, by formula key (`bmr`, `tdee`, `bmi`, `ffmi`, `lbm_kg`, `whtr`).
    package var formulas: [String: Range]
    /// Mass / height² of the client's own measurements.
    package var clientBMI: Range
    /// Lean mass / height² of the client's own measurements.
    package var clientFFMI: Range
    /// The check grid, by input name.
    package var grid: [String: [Double]]

    static let formulaKeys = ["bmr", "tdee", "bmi", "ffmi", "lbm_kg", "whtr"]
    static let gridKeys = ["age", "height_cm", "weight_kg", "bodyfat_pct", "waist_cm", "activity_multiplier"]

    static func decode(_ map: inout MappingDecoder) -> IndexPlausibility? {
        let context = map.context
        func range(_ key: String, in decoder: inout MappingDecoder) -> Range? {
            guard let pair = decoder.required(key, as: [Double].self) else { return nil }
            guard pair.count == 2, pair[0] <= pair[1] else {
                context.error("rules.value", "plausibility.\(key) must be [low, high] with low <= high", at: decoder.location(ofKey: key))
                return nil
            }
            return Range(low: pair[0], high: pair[1])
        }
        var formulas: [String: Range] = [:]
        for key in formulaKeys { formulas[key] = range(key, in: &map) }
        let clientBMI = range("client_bmi", in: &map)
        let clientFFMI = range("client_ffmi", in: &map)
        let grid = map.mapping("grid") { grid -> [String: [Double]]? in
            var values: [String: [Double]] = [:]
            for key in gridKeys {
                guard let list = grid.required(key, as: [Double].self) else { continue }
                guard !list.isEmpty, list.count <= 8 else {
                    context.error("rules.value", "plausibility.grid.\(key) needs 1 to 8 values", at: grid.location(ofKey: key))
                    continue
                }
                values[key] = list
            }
            return values.count == gridKeys.count ? values : nil
        }
        guard formulas.count == formulaKeys.count, let clientBMI, let clientFFMI, let grid else { return nil }
        return IndexPlausibility(formulas: formulas, clientBMI: clientBMI, clientFFMI: clientFFMI, grid: grid)
    }

    /// The warning for a client whose measured height, weight and body fat cannot belong to one
    /// person, naming the fields; `nil` when they can (or when they were not all measured).
    package func clientWarning(heightCm: Double?, weightKg: Double?, bodyfatPct: Double?) -> String? {
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
