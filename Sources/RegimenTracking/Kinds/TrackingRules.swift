package import Foundation
package import RegimenLanguage
package import RegimenRules

/// Every rule file of the neighbouring apps, loaded and checked together.
package struct TrackingRules: Sendable {
    package var validation: ValidationPolicy
    package var duplication: CopyPolicy
    package var analytics: AnalyticsPolicy
    package var calorieBurn: CalorieBurnRules
    package var activities: ActivityCatalog
    package var progress: ProgressRules
    package var periodization: PeriodizationRules

    /// The rule-file kinds this module reads, for a loader that reads the whole rule set: the ones
    /// it takes, and `tracker_queries` (read by `regimen indexes-check` only, not by the other commands).
    package static let kinds = RequiredRuleFiles.kinds { (required: inout RequiredRuleFiles) throws(DiagnosticsError) in
        _ = try TrackingRules(&required)
    } + [TrackerQueriesFile.self]

    /// Picks this module's files out of a loaded rule set.
    /// - Throws: ``DiagnosticsError`` naming each kind the rule set lacks.
    init(ruleSet: RuleSet) throws(DiagnosticsError) {
        var required = RequiredRuleFiles(ruleSet)
        try self.init(&required)
    }

    private init(_ required: inout RequiredRuleFiles) throws(DiagnosticsError) {
        let validation = required.take(TrackerValidationFile.self)
        let duplication = required.take(TrackerDuplicationFile.self)
        let analytics = required.take(TrackerAnalyticsFile.self)
        let burn = required.take(CalorieBurnFile.self)
        let activities = required.take(ActivityCatalogFile.self)
        let progress = required.take(StudentProgressFile.self)
        let periodization = required.take(PeriodizationFile.self)
        guard let validation, let duplication, let analytics, let burn, let activities, let progress, let periodization else {
            throw required.error(neededBy: "the tracking commands")
        }
        self.validation = validation.policy
        self.duplication = duplication.policy
        self.analytics = analytics.policy
        self.calorieBurn = burn.rules
        self.activities = activities.catalog
        self.progress = progress.rules
        self.periodization = periodization.rules
    }

    /// This module's files inside the rules directory.
    static let rulesFiles = [
        "tracker/tracker-validation.yaml", "tracker/tracker-duplication.yaml", "tracker/tracker-analytics.yaml",
        "calorie-burn.yaml", "student-progress.yaml", "periodization.yaml",
    ]
    /// This module's files inside the catalogs directory.
    static let catalogFiles = ["activity-catalog.yaml"]

    /// The files of this module under a project root (`rules/…`, `catalogs/activity-catalog.yaml`).
    static var relativePaths: [String] { rulesFiles.map { "rules/" + $0 } + catalogFiles.map { "catalogs/" + $0 } }

    /// Loads this module's files, and only them (with the shared `kind: functions` helpers), from
    /// the located rules and catalogs directories, so the tracking commands do not depend on
    /// other areas' files.
    /// - Throws: ``DiagnosticsError`` with every problem of every file.
    package static func load(from sources: RuleSources) throws(DiagnosticsError) -> TrackingRules {
        var urls: [URL] = []
        var problems: [Diagnostic] = []
        for (directory, names, label) in [(sources.rules, rulesFiles, "rules"), (sources.catalogs, catalogFiles, "catalogs")] {
            guard let directory else {
                problems.append(.error("tracking.missing-directory", "no \(label) directory to read \(names.joined(separator: ", ")) from", at: nil))
                continue
            }
            urls += names.map { directory.appendingPathComponent($0) }
        }
        var files: [(path: String, text: String)] = []
        for url in urls {
            let shown = sources.displayPath(for: url)
            do {
                files.append((shown, try InputFile.read(url, displayPath: shown)))
            } catch {
                problems.append(contentsOf: error.diagnostics)
            }
        }
        let shared = RuleSetLoader.sharedFunctionFiles(in: sources)
        files += shared.files.filter { file in !files.contains { $0.path == file.path } }
        problems += shared.diagnostics
        if !problems.isEmpty { throw DiagnosticsError(problems) }
        return try load(files: files)
    }

    /// Loads this module's files from `root` (a project directory holding rules/ and catalogs/).
    /// - Throws: ``DiagnosticsError`` with every problem of every file.
    package static func load(root: URL) throws(DiagnosticsError) -> TrackingRules {
        try load(from: RuleSources(rules: root.appendingPathComponent("rules"), catalogs: root.appendingPathComponent("catalogs"),
                                   displayBase: root))
    }

    /// Decodes and checks the given files as one rule set.
    package static func load(files: [(path: String, text: String)]) throws(DiagnosticsError) -> TrackingRules {
        let ruleSet = try RuleSetLoader(kinds: kinds).load(files: files).get()
        return try TrackingRules(ruleSet: ruleSet)
    }
}
