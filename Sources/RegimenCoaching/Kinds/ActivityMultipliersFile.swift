import RegimenLanguage
package import RegimenRules

/// `rules/activity-multipliers.yaml`: TDEE multipliers by training days.
package struct ActivityMultipliersFile: RuleFileKind, Sendable {
    package static let kind = "activity_multipliers"

    var byTrainingDays: [Int: Double]

    package static func decode(_ document: inout MappingDecoder) -> ActivityMultipliersFile? {
        // One multiplier for each number of training days a profile may have (1 to 6): each
        // is a required key, and any other key is unknown, so the schema says the same.
        let table = document.mapping("by_training_days") { map -> [Int: Double]? in
            var result: [Int: Double] = [:]
            for days in 1...6 {
                if let multiplier = map.required(String(days), as: Double.self, in: 1...3) { result[days] = multiplier }
            }
            return result.count == 6 ? result : nil
        }
        guard let table else { return nil }
        return ActivityMultipliersFile(byTrainingDays: table)
    }
}
