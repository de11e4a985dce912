import ArgumentParser
import RegimenKit

/// `regimen duplicate TREE --week ID`: deep-copies a week, workout, exercise or program.
struct Duplicate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Deep-copy a week, workout, exercise or program under rules/tracker/tracker-duplication.yaml.",
        discussion: """
            Prints the old→new id map, the writes in batches of at most the rules' limit (450), the \
            audit entry and (with --format json) the new tree. Ids come from a seed derived from the \
            source and --now, so a run can be repeated exactly.

            The source is validated first (rules/tracker/tracker-validation.yaml): a source with errors is \
            refused with every error listed (exit 1), or copied with --repair, which leaves each \
            invalid optional field out of the copy and prints each change. Every copy carries the \
            duplicating user's id, and a name already taken becomes "… (copy 2)", "… (copy 3)".
            """)

    @Argument(help: "The document tree, a JSON or YAML file.")
    var tree: String

    @Option(help: "Id of the week to copy.") var week: String?
    @Option(help: "Id of the workout to copy.") var workout: String?
    @Option(help: "Id of the exercise to copy.") var exercise: String?
    @Option(help: "Id of the program to copy.") var program: String?

    @Option(help: "The signed-in user; the tree must be theirs.")
    var user: String?

    @Option(help: "Time stamped on the copies (RFC 3339); default: now.")
    var now: String?

    @Option(parsing: .unconditional, help: "Seed for the new ids.")
    var seed: UInt64?

    @Flag(help: "Copy a source with errors by leaving each invalid optional field out of the copy; prints each change.")
    var repair = false

    @Option(help: "text, json or yaml.")
    var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func validate() throws {
        let chosen = [week, workout, exercise, program].compactMap { $0 }
        guard chosen.count == 1 else { throw ValidationError("name exactly one of --week, --workout, --exercise, --program") }
    }

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let tree = try EngineInput.trackerTree(self.tree, engine: engine, in: context)
        let time = try TrackingCommandSupport.now(now, in: context)
        let (level, id): (TrackerLevel, String) =
            if let week { (.week, week) } else if let workout { (.workout, workout) } else if let exercise { (.exercise, exercise) } else { (.program, program ?? "") }
        let result = try EngineInput.run({ () throws(RegimenError) in
            try engine.duplicate(level, id: id, in: tree, user: user, now: time, seed: seed, repair: repair)
        }, in: context)
        switch format {
        case .json, .yaml:
            format.write(result.value, in: context)
        case .text:
            let sizes = result.batches.map { String($0.count) }.joined(separator: ", ")
            context.standardOutput.writeLine("duplicated \(level.rawValue) \(id) as \(result.copy.id): \(result.idMap.count) documents in \(result.batches.count) batch\(result.batches.count == 1 ? "" : "es") (\(sizes))")
            for repair in result.repairs { context.standardOutput.writeLine("repaired \(repair)") }
            for (old, new) in result.idMap { context.standardOutput.writeLine("  \(old) -> \(new)") }
            context.standardOutput.writeLine("audit: \(result.audit.value.jsonString())")
        }
    }
}
