import ArgumentParser

extension CommandList {
    /// The neighbouring apps: workout tracker, trainer/student progress, calorie burn, periodization.
    static let tracking: [any ParsableCommand.Type] = [
        Validate.self, Duplicate.self, AnalyticsCommand.self, Export.self, Progress.self, UploadCheck.self,
        Burn.self, DailyLogCommand.self, Periodize.self, Select.self, IndexesCheck.self,
    ]
}
