import ArgumentParser
import Foundation
import RegimenKit

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
        let engine = try EngineInput.engine(sources, in: context)
        if list {
            try printList(engine, context)
            return
        }
        // Each problem of the entry prints on its own line; an unknown formula names --formula.
        let result = try EngineInput.runNamingOptions({ () throws(RegimenError) in
            try engine.burn(activity: activity, minutes: minutes, intensity: intensity, weightKg: weight, formula: formula)
        }, in: context)
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

    private func printList(_ engine: RegimenEngine, _ context: CommandContext) throws {
        if let category, !RegimenEngine.activityCategories.contains(category) {
            context.standardError.writeLine("error: --category must be one of \(RegimenEngine.activityCategories.joined(separator: ", "))")
            throw CommandFailure.usage
        }
        let found = try EngineInput.run({ () throws(RegimenError) in try engine.activities(matching: search ?? "", category: category) }, in: context)
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
