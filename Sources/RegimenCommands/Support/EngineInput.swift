import Foundation
import RegimenKit

/// How a command becomes a client of ``RegimenEngine``: it loads the engine from `--rules` and
/// `--catalogs`, reads its input files through it, and prints the engine's errors as they are
/// (status 2 for the caller's input, 1 for the rules).
enum EngineInput {
    /// The engine over `--rules` and `--catalogs`: a folder that is not there is printed as a
    /// usage error (status 2), every rule problem compiler-style (status 1).
    static func engine(_ sources: RuleSourceOptions, in context: CommandContext) throws(CommandFailure) -> RegimenEngine {
        do {
            return try RegimenEngine(rules: sources.rules, catalogs: sources.catalogs, currentDirectory: context.currentDirectory, executable: context.executable)
        } catch {
            if error.code == .rules {
                DiagnosticPrinter.print(error.diagnostics, to: context.standardError)
            } else {
                context.standardError.writeLine(error.description)
            }
            throw CommandFailure(status: CommandExit.status(for: error.kind))
        }
    }

    /// Runs one engine call; its error is printed line by line and ends the command.
    static func run<Result>(_ call: () throws(RegimenError) -> Result, in context: CommandContext) throws(CommandFailure) -> Result {
        do {
            return try call()
        } catch {
            throw CommandFailure.reporting(error, in: context)
        }
    }

    /// Runs one engine call whose parameters the user typed as options: an option the rules do
    /// not offer prints as `error: --OPTION: message` (the diagnostic's field names the option),
    /// any other error as the engine words it.
    static func runNamingOptions<Result>(_ call: () throws(RegimenError) -> Result, in context: CommandContext) throws(CommandFailure) -> Result {
        do {
            return try call()
        } catch {
            guard error.code == .option else { throw CommandFailure.reporting(error, in: context) }
            for diagnostic in error.diagnostics { context.standardError.writeLine(optionLine(diagnostic)) }
            throw CommandFailure(status: CommandExit.status(for: error.kind))
        }
    }

    /// `error: --OPTION: message` for a problem whose field names the option it was given as.
    static func optionLine(_ diagnostic: Diagnostic) -> String {
        "error: \(diagnostic.field.map { "--\($0): " } ?? "")\(diagnostic.message)"
    }

    /// The tracker tree at `path` (JSON or YAML), read by the engine; every problem is printed
    /// as the engine names it (`tree.json: <root>: error: …`) and the command ends with status 2.
    static func trackerTree(_ path: String, engine: RegimenEngine, in context: CommandContext) throws(CommandFailure) -> TrackerTree {
        let text = try PlannerCommandSupport.text(path, what: "tree", in: context)
        let name = path == "-" ? "<stdin>" : path
        return try run({ () throws(RegimenError) in try engine.trackerTree(from: Data(text.utf8), name: name) }, in: context)
    }

    /// The profile at `path` (relative to the command's folder), for every command that reads
    /// one; every problem is printed with a tally and the command ends with status 2.
    static func profile(_ path: String, engine: RegimenEngine, in context: CommandContext) throws(CommandFailure) -> Profile {
        let url = PlannerCommandSupport.resolve(path, in: context)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            context.standardError.writeLine("error: profile file '\(path)' does not exist")
            throw .usage
        }
        guard !isDirectory.boolValue else {
            context.standardError.writeLine("error: '\(path)' is a directory, not a profile file")
            throw .usage
        }
        do {
            return try engine.profile(contentsOf: url, displayPath: path)
        } catch {
            for problem in error.profileProblems { context.standardError.writeLine(problem.description) }
            context.standardError.writeLine("profile rejected: \(DiagnosticPrinter.plural(error.profileProblems.count, "problem"))")
            throw .usage
        }
    }
}
