import ArgumentParser
import Foundation
import RegimenLanguage
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

/// `regimen daily-log LOG`: consumed, burned and net calories per day.
struct DailyLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daily-log",
        abstract: "Total a food and workout log per day: consumed, burned, net.",
        discussion: """
            LOG is JSON or YAML: {weight_kg?, foods: [{name, calories, timestamp}], \
            workouts: [{activity, minutes, intensity, timestamp}]}. Entries group by their date in \
            --timezone (an IANA name such as Europe/Berlin; default UTC). Entries after --now \
            (default: the current time) are rejected.
            """)

    @Argument(help: "The log, a JSON or YAML file.")
    var log: String

    @Option(help: "The present (RFC 3339), for rejecting future entries; default: now.")
    var now: String?

    @Option(help: "The IANA time zone whose calendar days group the entries, such as America/New_York; default UTC.")
    var timezone: String?

    @Option(help: "A formula of rules/calorie-burn.yaml instead of its default, such as seed_002.")
    var formula: String?

    @Option(help: "text, json or yaml.")
    var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let rules = try TrackingCommandSupport.rules(sources, in: context)
        let value = try TrackingCommandSupport.document(log, in: context)
        let time = try TrackingCommandSupport.now(now, in: context)
        var zone = TimeZone(secondsFromGMT: 0) ?? .current
        if let timezone {
            guard let named = TimeZone(identifier: timezone) else {
                context.standardError.writeLine("error: --timezone must be an IANA time zone name such as Europe/Berlin, not '\(timezone)'")
                throw CommandFailure.usage
            }
            zone = named
        }
        let burnRules = try TrackingCommandSupport.burnRules(rules, formula: formula, in: context)
        let calculator = DailyLogCalculator(calculator: CalorieBurnCalculator(rules: burnRules, catalog: rules.activities))
        switch calculator.summarize(value, now: time, timeZone: zone) {
        case .failure(let errors):
            for problem in errors.problems { context.standardError.writeLine("\(log): error: \(problem)") }
            throw CommandFailure.usage
        case .success(let days):
            switch format {
            case .json, .yaml:
                format.write(Value.list(days.map(\.value)).roundedForPeople, in: context)
            case .text:
                let show = TrackingCommandSupport.show
                if days.isEmpty { context.standardOutput.writeLine("no entries") }
                for day in days {
                    context.standardOutput.writeLine("\(day.date.description.prefix(10)): consumed \(show(day.consumed)) kcal, burned \(day.burned) kcal, net \(show(day.net)) kcal (\(day.balance))")
                    for workout in day.workouts {
                        context.standardOutput.writeLine("  \(workout.activity.id) \(workout.minutes) min \(workout.intensity): \(workout.kcal) kcal")
                    }
                }
            }
        }
    }
}
