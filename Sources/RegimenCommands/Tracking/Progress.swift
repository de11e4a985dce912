import Foundation
import ArgumentParser
import RegimenLanguage
import RegimenTracking

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
        let rules = try TrackingCommandSupport.rules(sources, in: context)
        let value = try TrackingCommandSupport.document(log, in: context)
        let present = try TrackingCommandSupport.now(now, in: context)
        let completion: CompletionLog
        switch CompletionLog.read(value) {
        case .success(let read): completion = read
        case .failure(let error):
            for problem in error.problems { context.standardError.writeLine("\(log): error: \(problem)") }
            throw CommandFailure(status: CommandExit.status(for: error.kind))
        }
        let input = completion.asOf(today: today, present: present)
        let progress: StudentProgress
        do {
            progress = try rules.progress.progress(of: input)
        } catch let error as ProgressError {
            for problem in error.problems { context.standardError.writeLine("\(log): error: \(problem)") }
            throw CommandFailure(status: CommandExit.status(for: error.kind))
        }
        switch format {
        case .json, .yaml:
            format.write(progress.value.roundedForPeople, in: context)
        case .text:
            context.standardOutput.writeLine("workout \(progress.workoutId), student \(progress.studentId): \(progress.completedDays.count) of \(progress.totalDays) days (\(TrackingCommandSupport.show(progress.percentComplete))%)")
            context.standardOutput.writeLine("current streak: \(progress.currentStreak), longest streak: \(progress.longestStreak)")
        }
    }
}

/// `regimen upload-check FILE`: whether a trainer's upload may be sent (PDF, at most 10 MB).
struct UploadCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload-check",
        abstract: "Check a workout upload against the rules: PDF only, within the size limit.")

    @Argument(help: "The file to upload.")
    var file: String

    @Option(name: .customLong("content-type"), help: "The MIME type the client declares.")
    var contentType: String?

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let rules = try TrackingCommandSupport.rules(sources, in: context)
        let url = TrackingCommandSupport.resolve(file, in: context)
        // A directory or a FIFO named `x.pdf` is refused before it is opened: opening a FIFO
        // blocks until a writer comes, and a directory has no size to check.
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular else {
            let what = attributes == nil ? "cannot read \(file)" : "\(file) is not a regular file"
            context.standardError.writeLine("error: \(what)")
            throw CommandFailure.usage
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            context.standardError.writeLine("error: cannot read \(file)")
            throw CommandFailure.usage
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).flatMap { Int(exactly: $0) } ?? Int.max
        try? handle.seek(toOffset: 0)
        let leading = (try? handle.read(upToCount: 16)).map { Array($0) } ?? []
        let name = url.lastPathComponent
        let problems = rules.progress.upload.problems(fileName: name, contentType: contentType, size: size, leadingBytes: leading)
        for problem in problems { context.standardError.writeLine("\(file): error: \(problem)") }
        guard problems.isEmpty else { throw CommandFailure.failed }
        context.standardOutput.writeLine("ok: \(name) (\(size) bytes) can be uploaded")
    }
}
