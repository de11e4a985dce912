import RegimenLanguage
package import RegimenRules

/// `rules/profile-fields.yaml`: accepted ranges of the numeric profile fields.
package struct ProfileFieldsFile: RuleFileKind, Sendable {
    package static let kind = "profile_fields"
    /// The fields whose range the file must give.
    static let rangedFields = [
        "schedule_days", "height_cm", "weight_kg", "bodyfat_pct", "waist_cm", "meals_per_day",
        "daily_caffeine_mg", "BMR", "TDEE", "BMI",
    ]

    package var ranges: [String: ClosedRange<Double>]
    /// Training days beyond this become active recovery.
    var maxTrainingDays: Int
    var activeRecoveryNote: String
    /// Training days assumed when a request leaves `schedule_days` out (the seed's
    /// recalculateIndexes request has none); the output says so.
    var defaultScheduleDays: Int

    package func range(_ field: String) -> ClosedRange<Double>? { ranges[field] }

    package static func decode(_ document: inout MappingDecoder) -> ProfileFieldsFile? {
        let context = document.context
        let ranges = document.mapping("ranges") { map -> [String: ClosedRange<Double>]? in
            var result: [String: ClosedRange<Double>] = [:]
            for field in rangedFields {
                if let range = decodeRange(&map, field) { result[field] = range }
            }
            return result.count == rangedFields.count ? result : nil
        }
        let maxDays = document.required("max_training_days", as: Int.self, in: 1...7)
        let note = document.required("active_recovery_note", as: String.self)
        let defaultDays = document.required("default_schedule_days", as: Int.self, in: 1...7)
        _ = context
        guard let ranges, let maxDays, let note, let defaultDays else { return nil }
        return ProfileFieldsFile(ranges: ranges, maxTrainingDays: maxDays, activeRecoveryNote: note, defaultScheduleDays: defaultDays)
    }
}
