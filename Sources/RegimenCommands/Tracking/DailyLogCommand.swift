import ArgumentParser
import Foundation
import RegimenKit

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
        let engine = try EngineInput.engine(sources, in: context)
        let text = try PlannerCommandSupport.text(log, what: "log", in: context)
        let time = try TrackingCommandSupport.now(now, in: context)
        var zone = TimeZone(secondsFromGMT: 0) ?? .current
        if let timezone {
            guard let named = TimeZone(identifier: timezone) else {
                context.standardError.writeLine("error: --timezone must be an IANA time zone name such as Europe/Berlin, not '\(timezone)'")
                throw CommandFailure.usage
            }
            zone = named
        }
        // Every problem of the log comes back located (`log.yaml:4:5: error: foods[2]: …`).
        let name = log == "-" ? "<stdin>" : log
        let totals = try EngineInput.run({ () throws(RegimenError) in
            try engine.dailyLog(Data(text.utf8), name: name, present: time, timeZone: zone, formula: formula)
        }, in: context)
        switch format {
        case .json, .yaml:
            format.write(totals.contractValue, in: context)
        case .text:
            let show = TrackingCommandSupport.show
            if totals.days.isEmpty { context.standardOutput.writeLine("no entries") }
            for day in totals.days {
                context.standardOutput.writeLine("\(day.date.description.prefix(10)): consumed \(show(day.consumed)) kcal, burned \(day.burned) kcal, net \(show(day.net)) kcal (\(day.balance))")
                for workout in day.workouts {
                    context.standardOutput.writeLine("  \(workout.activity.id) \(workout.minutes) min \(workout.intensity): \(workout.kcal) kcal")
                }
            }
        }
    }
}
