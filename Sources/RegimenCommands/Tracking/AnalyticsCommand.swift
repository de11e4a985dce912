import ArgumentParser
import Foundation
import RegimenKit

/// `regimen analytics TREE`: workout count, exercise frequency, weekly volume and records.
struct AnalyticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Workout count, exercise frequency, weekly volume and personal records of a tracker tree.")

    @Argument(help: "The document tree, a JSON or YAML file.")
    var tree: String

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let tree = try EngineInput.trackerTree(self.tree, engine: engine, in: context)
        let analytics = try EngineInput.run({ () throws(RegimenError) in try engine.analytics(tree) }, in: context)
        context.standardOutput.write(analytics.json())
    }
}

/// `regimen export TREE --to csv`: a program, week or workout as JSON or CSV, with ids and timestamps.
struct Export: ParsableCommand {
    enum Target: String, ExpressibleByArgument, CaseIterable { case json, csv }

    static let configuration = CommandConfiguration(
        abstract: "Export a tracker tree (or one program, week or workout of it) as JSON or CSV.",
        discussion: """
            The export keeps ids and timestamps so it can be read back: a .csv input is imported \
            (typed by rules/tracker/tracker-validation.yaml), so `regimen export plan.csv --to json` \
            re-imports an export.
            """)

    @Argument(help: "The tree: JSON or YAML, or a CSV written by this command.")
    var tree: String

    @Option(help: "json or csv.") var to: Target = .json
    @Option(help: "Export only this program.") var program: String?
    @Option(help: "Export only this week.") var week: String?
    @Option(help: "Export only this workout.") var workout: String?

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        var source: TrackerTree
        if tree.lowercased().hasSuffix(".csv") {
            let url = TrackingCommandSupport.resolve(tree, in: context)
            let text: String
            do {
                text = try RegimenEngine.inputText(contentsOf: url, displayPath: tree)
            } catch {
                for diagnostic in error.diagnostics { context.standardError.writeLine(diagnostic.description) }
                throw CommandFailure.usage
            }
            do {
                source = try engine.trackerTree(fromCSV: text, name: tree)
            } catch {
                guard error.code == .request else { throw CommandFailure.reporting(error, in: context) }
                // A CSV problem is a line of the file: `export.csv:3: error: …`.
                for diagnostic in error.diagnostics {
                    context.standardError.writeLine("\(tree):\(diagnostic.location.map { "\($0.line):" } ?? "") error: \(diagnostic.message)")
                }
                throw CommandFailure(status: CommandExit.status(for: error.kind))
            }
        } else {
            source = try TrackingCommandSupport.treeFile(tree, in: context).tree
        }
        let selections: [(TrackerLevel, String)] = [(.program, program), (.week, week), (.workout, workout)].compactMap { level, id in id.map { (level, $0) } }
        if selections.count > 1 {
            context.standardError.writeLine("error: name at most one of --program, --week, --workout")
            throw CommandFailure.usage
        }
        if let (level, id) = selections.first {
            guard let selected = source.selecting(level, id: id) else {
                context.standardError.writeLine("error: --\(level.rawValue): no \(level.rawValue) with id '\(id)'")
                throw CommandFailure.usage
            }
            source = selected
        }
        switch to {
        case .json: context.standardOutput.writeLine(source.value.jsonString(pretty: true))
        case .csv: context.standardOutput.write(source.csv())
        }
    }
}
