import ArgumentParser
import RegimenKit

/// `regimen validate TREE`: checks a workout tracker document tree against the tracker rules.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a program/week/workout/exercise/set tree (JSON or YAML) against rules/tracker/tracker-validation.yaml.",
        discussion: """
            The tree nests each subcollection under its plural name with the seed's field names: \
            {userId, programs: [{id, name, weeks: [{id, order, workouts: [{id, exercises: [{id, sets: [...]}]}]}]}]}. \
            Timestamps are written {"$timestamp": "2026-01-05T08:00:00Z"}. Prints every violation as \
            `document-path: severity: message`; exits 1 if any is an error, 2 if the tree cannot be read.

            Each document's own fields follow rules/security/workout-tracker/corrected.rules (the \
            source; rules/tracker/tracker-validation.yaml restates it and a test keeps the two in agreement). \
            Unique program names, unique week order and the set fields of an exercise's type need \
            other documents: only validate checks them.
            """)

    @Argument(help: "The document tree, a JSON or YAML file.")
    var tree: String

    @Option(help: "text, json or yaml.")
    var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        // The tree is read once with where each document is written, so violations print their place.
        let file = try TrackingCommandSupport.treeFile(self.tree, in: context)
        let tree = file.tree
        let report = try EngineInput.run({ () throws(RegimenError) in try engine.validate(tree) }, in: context)
        let violations = report.violations
        let errors = report.errorCount
        switch format {
        case .json, .yaml:
            format.write(report.value, in: context)
        case .text:
            for violation in file.locate(violations) { context.standardOutput.writeLine(violation.description) }
            let warnings = violations.count - errors
            let summary = errors == 0 && warnings == 0 ? "no violations" : "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            context.standardOutput.writeLine("\(errors == 0 ? "ok" : "invalid"): \(tree.documentCount) documents, \(summary)")
        }
        if errors > 0 { throw CommandFailure.failed }
    }
}
