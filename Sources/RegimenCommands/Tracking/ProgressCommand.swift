import ArgumentParser
import Foundation
import RegimenKit

/// `regimen progress LOG`: a student's completion figures and streaks.
struct Progress: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compute completedDays, totalDays, percentComplete and streaks from a completion log.",
        discussion: """
            LOG is JSON or YAML: {workoutId, studentId, durationWeeks?, startDate?, completedDays: [day, …], today?}. \
            Days count from 1 (the startDate); a completed day after today is an input error. JSON output is \
            the seed's progress response (lastActivityAt is the start of the last completed day, when \
            startDate is given) with studentId. The streak rules are in rules/student-progress.yaml.
            """)

    @Argument(help: "The completion log, a JSON or YAML file.")
    var log: String

    @Option(parsing: .unconditional, help: "The day to compute on (1 = startDate); overrides the log's `today`.")
    var today: Int?

    @Option(help: "The present (RFC 3339), which gives today from the log's startDate when neither the log nor --today names it; default: now.")
    var now: String?

    @Option(help: "text, json or yaml.")
    var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let text = try PlannerCommandSupport.text(log, what: "log", in: context)
        let present = try TrackingCommandSupport.now(now, in: context)
        // Every problem comes back naming its key and placed in the log (`log.json:1:2: error: …`).
        let name = log == "-" ? "<stdin>" : log
        let progress = try EngineInput.run({ () throws(RegimenError) in
            try engine.progress(Data(text.utf8), name: name, today: today, present: present)
        }, in: context)
        switch format {
        case .json, .yaml:
            format.write(progress.contractValue, in: context)
        case .text:
            context.standardOutput.writeLine("workout \(progress.workoutId), student \(progress.studentId): \(progress.completedDays.count) of \(progress.totalDays) days (\(TrackingCommandSupport.show(progress.percentComplete))%)")
            context.standardOutput.writeLine("current streak: \(progress.currentStreak), longest streak: \(progress.longestStreak)")
        }
    }
}
