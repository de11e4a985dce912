import ArgumentParser
import RegimenKit

/// `regimen adapt PLAN CHECKINS`: the seed's adaptPlan — readiness, progression and weight trend
/// patch the plan, and every change is logged.
struct AdaptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapt",
        abstract: "Adapt a plan to daily check-ins, logged sessions and the weight trend, with a change log.",
        discussion: """
            PLAN is the output of `regimen plan` (JSON or YAML). CHECKINS holds the check-ins \
            (sleep_h, soreness by region 1–5, stress, motivation), optional logged sessions, week, \
            last_week_adherence_pct and weight_trend_2w; see examples/checkins/. With one file \
            (or `-` for standard input) it is the seed's adaptPlan request: those fields and the \
            plan under `current_plan`. Running it again on its own output changes nothing. The rules are \
            rules/readiness-rules.yaml and rules/progression-rules.yaml. JSON and YAML print the patched plan, \
            the change-log lines and a structured entry per change. \
            Exit status: 0 ok, 1 rule error, 2 bad plan or check-ins.
            """)

    @Argument(help: ArgumentHelp("Plan file (the output of `regimen plan`), or the whole request with `current_plan` (`-`: standard input).", valueName: "plan"))
    var plan: String

    @Argument(help: ArgumentHelp("Check-ins file (YAML or JSON); leave out when the first file is the whole request.", valueName: "checkins"))
    var checkins: String?

    @Option(name: .long, help: "Output format: text, json or yaml.")
    var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let request: AdaptPlanRequest
        if let checkins {
            // The plan and the check-ins come apart: each file names its own problems.
            // The plan is read first: its syntax problems come before the check-ins are opened.
            let planText = try PlannerCommandSupport.text(plan, what: "plan", in: context)
            let planFile = try EngineInput.run({ () throws(RegimenError) in try AdaptPlanRequest.PlanFile(text: planText, name: plan) }, in: context)
            let text = try PlannerCommandSupport.text(checkins, what: "check-ins", in: context)
            request = try EngineInput.run({ () throws(RegimenError) in try AdaptPlanRequest(plan: planFile, checkIns: text, name: checkins) }, in: context)
        } else {
            // The seed's single request: the plan under `current_plan` beside the check-ins.
            let text = try PlannerCommandSupport.text(plan, what: "request", in: context)
            let name = plan == "-" ? "<stdin>" : plan
            request = try EngineInput.run({ () throws(RegimenError) in try AdaptPlanRequest(text: text, name: name) }, in: context)
        }
        let result = try EngineInput.run({ () throws(RegimenError) in try engine.adaptPlan(request) }, in: context)
        ProfileInput.print(result.value, format: format, text: { AdaptText.render(result) }, in: context)
    }
}

/// The change log as a person reads it.
enum AdaptText {
    static func render(_ result: AdaptationResult) -> String {
        var lines: [String] = []
        if result.changeLog.isEmpty {
            lines.append(result.notes.isEmpty ? "No changes: the check-ins and logs call for none." : "No changes.")
        } else {
            lines.append("Change log (\(result.changeLog.count) \(result.changeLog.count == 1 ? "change" : "changes")):")
            for entry in result.changeLog { lines.append("  \(entry.line)   [\(entry.rule)]") }
        }
        for note in result.notes { lines.append("note: \(note)") }
        for warning in result.warnings { lines.append("warning: \(warning)") }
        // The adapted plan is a plan: the week follows its change log, as `plan` prints a week.
        lines.append("")
        lines.append("Adapted week:")
        return lines.joined(separator: "\n") + "\n" + RegimenEngine.planText(result.patchedPlan)
    }
}
