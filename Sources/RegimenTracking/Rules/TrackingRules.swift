import Foundation
import RegimenLanguage
import RegimenRules

/// Every rule file of the neighbouring apps, loaded and checked together.
public struct TrackingRules: Sendable {
    public var validation: ValidationPolicy
    public var duplication: CopyPolicy
    public var analytics: AnalyticsPolicy
    public var calorieBurn: CalorieBurnRules
    public var activities: ActivityCatalog
    public var progress: ProgressRules
    public var periodization: PeriodizationRules

    /// The rule-file kinds this module reads, for a loader that reads the whole rule set.
    public static let kinds: [any RuleFileKind.Type] = [
        TrackerValidationFile.self, TrackerDuplicationFile.self, TrackerAnalyticsFile.self, CalorieBurnFile.self,
        ActivityCatalogFile.self, StudentProgressFile.self, PeriodizationFile.self,
    ]

    /// Picks this module's files out of a loaded rule set.
    /// - Throws: ``DiagnosticsError`` naming each kind the rule set lacks.
    public init(ruleSet: RuleSet) throws(DiagnosticsError) {
        var missing: [Diagnostic] = []
        func need<K: RuleFileKind>(_ kind: K.Type) -> K? {
            if let file = ruleSet.first(kind) { return file }
            missing.append(.error("tracking.missing-kind", "no rule file of kind '\(K.kind)' was loaded", at: nil))
            return nil
        }
        let validation = need(TrackerValidationFile.self)
        let duplication = need(TrackerDuplicationFile.self)
        let analytics = need(TrackerAnalyticsFile.self)
        let burn = need(CalorieBurnFile.self)
        let activities = need(ActivityCatalogFile.self)
        let progress = need(StudentProgressFile.self)
        let periodization = need(PeriodizationFile.self)
        guard let validation, let duplication, let analytics, let burn, let activities, let progress, let periodization else {
            throw DiagnosticsError(missing)
        }
        self.validation = validation.policy
        self.duplication = duplication.policy
        self.analytics = analytics.policy
        self.calorieBurn = burn.rules
        self.activities = activities.catalog
        self.progress = progress.rules
        self.periodization = periodization.rules
    }

    /// The files of this module under a project root (`rules/…`, `catalogs/activities.yaml`).
    public static let relativePaths = [
        "rules/tracker/validation.yaml", "rules/tracker/duplication.yaml", "rules/tracker/analytics.yaml",
        "rules/calorie-burn.yaml", "catalogs/activities.yaml", "rules/student-progress.yaml", "rules/periodization.yaml",
    ]

    /// Loads this module's files from `root` (a project directory) and nothing else.
    /// - Throws: ``DiagnosticsError`` with every problem of every file.
    public static func load(root: URL) throws(DiagnosticsError) -> TrackingRules {
        var files: [(path: String, text: String)] = []
        var problems: [Diagnostic] = []
        for path in relativePaths {
            let url = root.appendingPathComponent(path)
            if let text = try? String(contentsOf: url, encoding: .utf8) {
                files.append((path, text))
            } else {
                problems.append(.error("tracking.missing-file", "cannot read \(path) under \(root.path)", at: nil))
            }
        }
        if !problems.isEmpty { throw DiagnosticsError(problems) }
        let result = RuleSetLoader(kinds: kinds).load(files: files)
        let ruleSet = try result.get()
        return try TrackingRules(ruleSet: ruleSet)
    }
}
