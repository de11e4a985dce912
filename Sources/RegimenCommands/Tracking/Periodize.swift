import ArgumentParser
import RegimenKit

/// `regimen periodize --weeks N --goal G`: the phases and weekly intensities of a plan.
struct Periodize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a plan's phases and each week's intensity, RPE and protocol from rules/periodization.yaml.")

    @Option(parsing: .unconditional, help: "Plan length in weeks.") var weeks: Int?
    @Option(help: "Goal: strength, lean_mass, fat_loss, recomp (aliases allowed).") var goal: String?
    @Option(help: "Instead of a plan, the targets of a single workout: recovery, standard or push_it.") var effort: String?
    @Option(parsing: .unconditional, help: "Print only this week of the plan.") var week: Int?
    @Option(name: .customLong("start-intensity"), parsing: .unconditional,
            help: "With --end-intensity: the first training week's intensity (fraction of 1RM); the plan's training weeks ramp from it to the end.")
    var startIntensity: Double?
    @Option(name: .customLong("end-intensity"), parsing: .unconditional, help: "The last training week's intensity (fraction of 1RM).")
    var endIntensity: Double?
    @Option(help: "text, json or yaml.") var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        if let effort {
            try printSingleWorkout(effort, EngineInput.engine(sources, in: context), context)
            return
        }
        guard let weeks, let goal else {
            context.standardError.writeLine("error: give --weeks and --goal, or --effort for a single workout")
            throw CommandFailure.usage
        }
        var ramp: (start: Double, end: Double)?
        switch (startIntensity, endIntensity) {
        case (let start?, let end?): ramp = (start, end)
        case (nil, nil): ramp = nil
        default:
            context.standardError.writeLine("error: --start-intensity and --end-intensity go together: give both or neither")
            throw CommandFailure.usage
        }
        let engine = try EngineInput.engine(sources, in: context)
        // The parameter at fault is data (the diagnostic's field): it names the option.
        let plan = try EngineInput.runNamingOptions({ () throws(RegimenError) in try engine.periodize(weeks: weeks, goal: goal, ramp: ramp) }, in: context)
        var shown = plan.schedule
        if let week {
            guard let one = plan.week(week) else {
                context.standardError.writeLine("error: --week \(week) is outside the plan's weeks 1-\(plan.weeks)")
                throw CommandFailure.usage
            }
            shown = [one]
        }
        switch format {
        case .json, .yaml:
            var value = plan.value
            if week != nil, case .map(var map) = value {
                map["schedule"] = .list(shown.map { plan.weekValue($0) })
                value = .map(map)
            }
            format.write(value.roundedForPeople, in: context)
        case .text:
            let show = TrackingCommandSupport.show
            if week == nil {
                context.standardOutput.writeLine("\(plan.weeks) weeks, goal \(plan.goal)")
                for phase in plan.phases {
                    let deload = phase.deloadWeeks.isEmpty ? "" : ", deload week\(phase.deloadWeeks.count == 1 ? "" : "s") \(phase.deloadWeeks.map(String.init).joined(separator: ", "))"
                    context.standardOutput.writeLine("  \(phase.focus): weeks \(phase.firstWeek)-\(phase.lastWeek), \(show(phase.startingIntensity))→\(show(phase.endingIntensity))\(deload)")
                }
            }
            for entry in shown {
                let rpe = "\(show(entry.rpe.lowerBound))-\(show(entry.rpe.upperBound))"
                context.standardOutput.writeLine("week \(entry.week): \(entry.phase)\(entry.isDeload ? " (deload)" : "") intensity \(show(entry.intensity)) RPE \(rpe) compound \(entry.compound) isolation \(entry.isolation)")
            }
        }
    }

    private func printSingleWorkout(_ id: String, _ engine: RegimenEngine, _ context: CommandContext) throws {
        let target = try EngineInput.runNamingOptions({ () throws(RegimenError) in try engine.singleWorkout(effort: id) }, in: context)
        let show = TrackingCommandSupport.show
        let rpe = "\(show(target.effort.rpe.lowerBound))-\(show(target.effort.rpe.upperBound))"
        switch format {
        case .json, .yaml:
            let value = Value.map([
                "effort": .string(target.effort.id), "intensity": .float(target.intensity),
                "rpe": .list([.float(target.effort.rpe.lowerBound), .float(target.effort.rpe.upperBound)]),
                "compound": .string(target.row.compound.description), "isolation": .string(target.row.isolation.description),
            ])
            format.write(value.roundedForPeople, in: context)
        case .text:
            context.standardOutput.writeLine("\(target.effort.id) (\(target.effort.use)): intensity \(show(target.intensity)) RPE \(rpe) compound \(target.row.compound) isolation \(target.row.isolation)")
        }
    }
}
