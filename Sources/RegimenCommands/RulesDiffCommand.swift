import ArgumentParser
import Foundation
import RegimenKit
import RegimenAnalysis

/// `regimen rules diff OLD NEW`: what a policy change newly allows and newly denies, per match
/// path and method, each with a counterexample, or "equivalent (proved)".
struct RulesDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two versions of a Firestore policy for every request: what the new one newly allows and newly denies.",
        discussion: """
        Asks per match path of either version and per method (get, create, update, delete; list \
        queries are not analysed). Each difference comes with a security_tests case replayed \
        through the evaluator. Exits 0 when every path is proved equivalent, 1 when a difference \
        or an unknown remains, 2 on bad input or no solver.
        """
    )

    @Argument(help: "The old policy.")
    var old: String

    @Argument(help: "The new policy.")
    var new: String

    @OptionGroup var solverOptions: SolverOptions

    init() {}

    package func run() throws {
        let oldPolicy = try SolverOptions.load(old)
        let newPolicy = try SolverOptions.load(new)
        let entries = try solverOptions.analysis().diff(oldPolicy, newPolicy)
        var output = "rules diff \(old) → \(new) (list queries are not analysed)\n"
        let (differences, open) = PolicyAnalysis.tally(entries)
        var lastPattern = ""
        for entry in entries {
            if entry.shape.pattern != lastPattern {
                output += "\(entry.shape.pattern)\n"
                lastPattern = entry.shape.pattern
            }
            let method = entry.shape.method.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            if entry.first.isProved, entry.second?.isProved == true {
                output += "  \(method) equivalent (proved)\n"
                continue
            }
            for (verdict, found, proved) in [(Optional(entry.first), "newly allows", "allows nothing new (proved)"), (entry.second, "newly denies", "denies nothing new (proved)")] {
                guard let verdict else { continue }
                output += "  \(method) " + verdict.rendered(proved: proved, found: found)
            }
        }
        output += "\(entries.count) path/method pairs: \(differences) difference\(differences == 1 ? "" : "s") with a confirmed counterexample, \(open) unconfirmed or unknown\n"
        CommandContext.current.standardOutput.write(output)
        if differences + open > 0 { throw CommandFailure.failed }
    }
}
