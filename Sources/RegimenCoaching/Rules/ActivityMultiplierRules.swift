import RegimenLanguage
import RegimenRules

/// `rules/activity-multipliers.yaml`: TDEE multipliers by training days.
package struct ActivityMultiplierRules: RuleFileKind, Sendable {
    package static let kind = "activity_multipliers"

    package var byTrainingDays: [Int: Double]

    package static func decode(_ document: inout MappingDecoder) -> ActivityMultiplierRules? {
        let context = document.context
        let table = document.mapping("by_training_days") { map -> [Int: Double]? in
            var result: [Int: Double] = [:]
            for key in map.keys {
                guard let days = Int(key), (1...6).contains(days) else {
                    context.error("rules.value", "activity multipliers: '\(key)' is not a number of training days (1-6)", at: map.location(ofKey: key))
                    _ = map.node(key)
                    continue
                }
                result[days] = map.required(key, as: Double.self, in: 1...3)
            }
            return result
        }
        guard let table else { return nil }
        let missing = (1...6).filter { table[$0] == nil }
        if !missing.isEmpty {
            context.error("rules.gap", "activity multipliers: no multiplier for \(missing.map(String.init).joined(separator: ", ")) training day(s)", at: document.node("by_training_days")?.location)
            return nil
        }
        return ActivityMultiplierRules(byTrainingDays: table)
    }
}
