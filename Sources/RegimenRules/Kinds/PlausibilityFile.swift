package import RegimenLanguage

/// `kind: plausibility` (`rules/plausibility.yaml`): the range every computed number must stay
/// in, the range a client's own measurements must make together, and the grid of profiles the
/// coach's formulas are evaluated over when the rules load (so by `regimen check`).
///
/// The ranges are limits of plausibility, not coaching choices: a formula whose result leaves
/// one for a plausible input is a mistake in the rules (`bmr * 1e18`, `* -1`, a misplaced decimal
/// point), reported at the formula with the first grid input that shows it. The kinds that own
/// the formulas run the checks (indexes, nutrition, calorie burn); this file only holds numbers.
package struct PlausibilityFile: RuleFileKind, Sendable {
    package static let kind = "plausibility"

    /// A closed range of plausible values, with where it is written.
    package struct Range: Sendable, Hashable {
        package var low: Double
        package var high: Double
        package var location: SourceLocation?

        package init(low: Double, high: Double, location: SourceLocation? = nil) {
            self.low = low
            self.high = high
            self.location = location
        }

        /// Whether `value` is finite and within the range.
        package func contains(_ value: Double) -> Bool { value.isFinite && value >= low && value <= high }
        /// `low–high`, as people write it.
        package var text: String { "\(NumberText.rounded(low, decimals: 2))–\(NumberText.rounded(high, decimals: 2))" }
    }

    /// Ranges of the computed indexes, by formula key of rules/indexes.yaml.
    package var indexes: [String: Range]
    /// Ranges of the client's own measurements taken together (`bmi`, `ffmi`).
    package var client: [String: Range]
    /// The profile grid, by input name.
    package var grid: [String: [Double]]
    /// Ranges of the numbers rules/nutrition.yaml writes as ranges, per unit of the basis they multiply.
    package var nutrition: [String: Range]
    /// Ranges of a logged activity's burn (rules/calorie-burn.yaml).
    package var burn: [String: Range]
    /// Ranges of the numbers a plan gives a client (`kcal`, `protein_g`, `fat_g`, `carb_g` a day,
    /// `load_kg` a set).
    package var plan: [String: Range]

    package static let indexKeys = ["bmr", "tdee", "bmi", "ffmi", "lbm_kg", "whtr"]
    static let clientKeys = ["bmi", "ffmi"]
    static let gridKeys = ["age", "height_cm", "weight_kg", "bodyfat_pct", "waist_cm", "activity_multiplier"]
    static let nutritionKeys = ["tdee_multiplier", "protein_g_per_kg", "lean_mass_protein_g_per_kg", "fat_g_per_kg"]
    static let burnKeys = ["kcal_per_kg_hour"]
    static let planKeys = ["kcal", "protein_g", "fat_g", "carb_g", "load_kg"]

    package static func decode(_ document: inout MappingDecoder) -> PlausibilityFile? {
        let context = document.context
        func ranges(_ section: String, _ keys: [String], in document: inout MappingDecoder) -> [String: Range]? {
            document.mapping(section) { map -> [String: Range]? in
                var found: [String: Range] = [:]
                for key in keys {
                    guard let pair = map.required(key, as: [Double].self) else { continue }
                    guard pair.count == 2, pair[0].isFinite, pair[1].isFinite, pair[0] <= pair[1] else {
                        context.error("rules.value", "plausibility: \(section).\(key) must be [low, high] with low <= high", at: map.location(ofKey: key))
                        continue
                    }
                    found[key] = Range(low: pair[0], high: pair[1], location: map.location(ofKey: key))
                }
                return found.count == keys.count ? found : nil
            }
        }
        let indexes = ranges("indexes", indexKeys, in: &document)
        let client = ranges("client", clientKeys, in: &document)
        let grid = document.mapping("grid") { grid -> [String: [Double]]? in
            var values: [String: [Double]] = [:]
            for key in gridKeys {
                guard let list = grid.required(key, as: [Double].self) else { continue }
                guard !list.isEmpty, list.count <= 8, list.allSatisfy(\.isFinite) else {
                    context.error("rules.value", "plausibility: grid.\(key) needs 1 to 8 finite values", at: grid.location(ofKey: key))
                    continue
                }
                values[key] = list
            }
            return values.count == gridKeys.count ? values : nil
        }
        let nutrition = ranges("nutrition", nutritionKeys, in: &document)
        let burn = ranges("burn", burnKeys, in: &document)
        let plan = ranges("plan", planKeys, in: &document)
        guard let indexes, let client, let grid, let nutrition, let burn, let plan else { return nil }
        return PlausibilityFile(indexes: indexes, client: client, grid: grid, nutrition: nutrition, burn: burn, plan: plan)
    }

    /// The range of `value` outside `range` as a message, or nil when it is inside.
    package static func outside(_ value: Double, _ range: Range, what: String, for subject: String) -> String? {
        guard !range.contains(value) else { return nil }
        let shown = value.isFinite ? NumberText.rounded(value, decimals: 2) : "a non-finite number"
        return "\(what) gives \(shown) for \(subject), outside its plausible range \(range.text) (rules/plausibility.yaml)"
    }
}
