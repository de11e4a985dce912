import ArgumentParser
import RegimenLanguage
import RegimenTracking

/// `regimen periodize --weeks N --goal G`: the phases and weekly intensities of a plan.
struct Periodize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a plan's phases and each week's intensity, RPE and protocol from rules/periodization.yaml.")

    @Option(help: "Plan length in weeks.") var weeks: Int
    @Option(help: "Goal: strength, lean_mass, fat_loss, recomp (aliases allowed).") var goal: String
    @Option(help: "Print only this week of the plan.") var week: Int?
    @Option(help: "text or json.") var format: OutputFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let rules = try TrackingCommandSupport.rules(sources, in: context)
        let plan: PeriodizedPlan
        do {
            plan = try rules.periodization.plan(weeks: weeks, goal: goal)
        } catch let error as PeriodizationError {
            context.standardError.writeLine("error: \(error.message)")
            throw CommandFailure.failed
        }
        var shown = plan.schedule
        if let week {
            guard let one = plan.week(week) else {
                context.standardError.writeLine("error: week \(week) is outside the plan's weeks 1-\(plan.weeks)")
                throw CommandFailure.failed
            }
            shown = [one]
        }
        switch format {
        case .json:
            var value = plan.value
            if week != nil, case .map(var map) = value {
                map["schedule"] = .list(shown.map { plan.weekValue($0) })
                value = .map(map)
            }
            context.standardOutput.writeLine(value.jsonString(pretty: true))
        case .text:
            let show = TrackingCommandSupport.show
            if week == nil {
                context.standardOutput.writeLine("\(plan.weeks) weeks, goal \(plan.goal)")
                for phase in plan.phases {
                    let deload = phase.deloadWeek.map { ", deload week \($0)" } ?? ""
                    context.standardOutput.writeLine("  \(phase.focus): weeks \(phase.firstWeek)-\(phase.lastWeek), \(show(phase.startingIntensity))→\(show(phase.endingIntensity))\(deload)")
                }
            }
            for entry in shown {
                let rpe = "\(show(entry.rpe.lowerBound))-\(show(entry.rpe.upperBound))"
                context.standardOutput.writeLine("week \(entry.week): \(entry.phase)\(entry.isDeload ? " (deload)" : "") intensity \(show(entry.intensity)) RPE \(rpe) compound \(entry.compound) isolation \(entry.isolation)")
            }
        }
    }
}
