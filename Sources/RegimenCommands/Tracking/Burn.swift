import ArgumentParser
import Foundation
import RegimenKit
import RegimenTracking

/// `regimen burn ACTIVITY --minutes N --intensity I`: calories burned by one activity.
struct Burn: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Calories burned by an activity from catalogs/activity-catalog.yaml under rules/calorie-burn.yaml.",
        discussion: """
            Uses the ACSM formula (kcal/min = MET × 3.5 × kg / 200) unless --formula names another \
            formula of the rule file, such as seed_002. With --list, prints the activity library.
            """)

    @Argument(help: "The activity id, such as running.")
    var activity: String?

    @Option(parsing: .unconditional, help: "Duration in minutes (1–1440).") var minutes: Int?
    @Option(help: "light, moderate or vigorous.") var intensity: String?
    @Option(parsing: .unconditional, help: "Body weight in kg (default from the rules: 70).") var weight: Double?
    @Option(help: "A formula of rules/calorie-burn.yaml instead of its default.") var formula: String?
    @Flag(help: "List the activities (with --search and --category to filter).") var list = false
    @Option(help: "With --list: only activities whose id or name contains this.") var search: String?
    @Option(help: "With --list: cardio, strength, sports or flexibility.") var category: String?
    @Option(help: "text, json or yaml.") var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let rules = try TrackingCommandSupport.rules(sources, in: context)
        if list {
            try printList(rules, context)
            return
        }
        let burnRules = try TrackingCommandSupport.burnRules(rules, formula: formula, in: context)
        let calculator = CalorieBurnCalculator(rules: burnRules, catalog: rules.activities)
        let result: BurnResult
        do {
            result = try calculator.burn(WorkoutEntry(activity: activity, minutes: minutes, intensity: intensity), weightKg: weight)
        } catch let error as BurnError {
            for problem in error.problems { context.standardError.writeLine("error: \(problem)") }
            throw CommandFailure(status: CommandExit.status(for: error.kind))
        }
        switch format {
        case .json, .yaml:
            format.write(result.value.roundedForPeople, in: context)
        case .text:
            let show = TrackingCommandSupport.show
            context.standardOutput.writeLine("\(result.kcal) kcal: \(result.activity.name), \(result.intensity), MET \(show(result.met)), \(result.minutes) min, \(show(result.weightKg)) kg, formula \(result.formula)")
            context.standardOutput.writeLine("Compendium 2011 row \(result.row.code): \(result.row.description) (\(show(result.row.met)) MET)")
            if let fallback = result.fallback {
                context.standardOutput.writeLine("note: \(fallback)")
            }
        }
    }

    private func printList(_ rules: TrackingRules, _ context: CommandContext) throws {
        var filter: ActivityCategory?
        if let category {
            guard let parsed = ActivityCategory(rawValue: category) else {
                context.standardError.writeLine("error: --category must be one of \(ActivityCategory.allCases.map(\.rawValue).joined(separator: ", "))")
                throw CommandFailure.usage
            }
            filter = parsed
        }
        let found = rules.activities.search(search ?? "", category: filter)
        switch format {
        case .json, .yaml:
            let items = found.map {
                Value.map(["id": .string($0.id), "name": .string($0.name), "category": .string($0.category.rawValue),
                           "usual": .string($0.usualLevel),
                           "rows": .list($0.rows.map { row in
                               Value.map(["level": .string(row.level), "code": .string(row.code), "met": .float(row.met),
                                          "description": .string(row.description)])
                           })])
            }
            format.write(Value.list(items).roundedForPeople, in: context)
        case .text:
            for activity in found.sorted(by: { ($0.category.rawValue, $0.id) < ($1.category.rawValue, $1.id) }) {
                let rows = activity.rows.map { "\($0.level) \($0.code) \(TrackingCommandSupport.show($0.met))" }.joined(separator: ", ")
                context.standardOutput.writeLine("\(activity.category.rawValue)\t\(activity.id)\t\(rows)\t\(activity.name)")
            }
        }
    }
}
