import RegimenLanguage
package import RegimenRules

/// `rules/profile-defaults.yaml`: what is assumed for a missing height, weight, age or budget.
package struct ProfileDefaultsFile: RuleFileKind, Sendable {
    package static let kind = "profile_defaults"

    var heightCm: [Profile.Sex: Double]
    package var weightKg: [Profile.Sex: Double]
    package var age: Int
    package var budgetTier: Profile.BudgetTier

    package static func decode(_ document: inout MappingDecoder) -> ProfileDefaultsFile? {
        func bySex(_ map: inout MappingDecoder) -> [Profile.Sex: Double]? {
            var result: [Profile.Sex: Double] = [:]
            for sex in Profile.Sex.allCases {
                if let value = map.required(sex.rawValue, as: Double.self, in: 1...500) { result[sex] = value }
            }
            return result.count == Profile.Sex.allCases.count ? result : nil
        }
        let height = document.mapping("height_cm", bySex)
        let weight = document.mapping("weight_kg", bySex)
        let age = document.required("age", as: Int.self, in: 1...120)
        let tierText = document.required("budget_tier", as: String.self)
        let tier = tierText.flatMap(Profile.BudgetTier.init(rawValue:))
        if let tierText, tier == nil {
            document.context.error("rules.value", "profile defaults: 'budget_tier' must be low, medium or high, not '\(tierText)'", at: document.node("budget_tier")?.location)
        }
        guard let height, let weight, let age, let tier else { return nil }
        return ProfileDefaultsFile(heightCm: height, weightKg: weight, age: age, budgetTier: tier)
    }
}
