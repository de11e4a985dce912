import ArgumentParser
import Foundation
import RegimenKit

/// `regimen indexes-check`: every tracker query is served by a declared index and allowed by the policy.
struct IndexesCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "indexes-check",
        abstract: "Check the tracker's queries against Appendix B's indexes and the policy's list rules.",
        discussion: """
            Each query of rules/tracker/tracker-queries.yaml must be served by an index of \
            rules/security/workout-tracker/firestore.indexes.json (a composite index of the same \
            collection with the equality fields first, then the sort fields in order and direction, \
            or Firestore's single-field indexes) and allowed as a list by its owner under \
            rules/security/workout-tracker/corrected.rules. Prints one line per query; exits 1 when \
            one fails, 2 when a file cannot be read.
            """)

    @Option(help: "The queries file.") var queries = "rules/tracker/tracker-queries.yaml"
    @Option(help: "The indexes file (firestore.indexes.json).") var indexes = "rules/security/workout-tracker/firestore.indexes.json"
    @Option(help: "The Firestore policy.") var policy = "rules/security/workout-tracker/corrected.rules"
    @Option(help: "The owner's uid the queries run as.") var owner = "alice"

    func run() throws {
        let context = CommandContext.current
        let results: [TrackerIndexCheck.Result]
        do {
            results = try TrackerIndexCheck.run(
                queries: TrackingCommandSupport.resolve(queries, in: context), queriesPath: queries,
                indexes: TrackingCommandSupport.resolve(indexes, in: context), indexesPath: indexes,
                policy: TrackingCommandSupport.resolve(policy, in: context).path, owner: owner)
        } catch {
            switch error {
            case .unreadable(let path):
                context.standardError.writeLine("error: cannot read \(path)")
            case .diagnostics(let diagnostics, let path):
                DiagnosticPrinter.print(diagnostics, to: context.standardError)
                if diagnostics.isEmpty { context.standardError.writeLine("error: \(path) is empty") }
            case .indexes(let problems, let path):
                for problem in problems { context.standardError.writeLine("\(path): error: \(problem)") }
            case .policy(let diagnostics):
                context.standardError.writeLine(DiagnosticPrinter.lines(diagnostics))
            }
            throw CommandFailure.usage
        }
        var failures = 0
        for result in results {
            var notes: [String] = []
            var ok = true
            switch result.serving {
            case .singleField: notes.append("single-field indexes")
            case .composite(let summary): notes.append("index \(summary)")
            case .none(let collectionGroup, let fields):
                ok = false
                notes.append("no declared index serves it (needs \(collectionGroup) with \(fields))")
            }
            let decision = result.decision
            if decision.allowed {
                if let granted = decision.grantedBy {
                    let location = "\(granted.location)".replacingOccurrences(of: context.currentDirectory.path + "/", with: "")
                    notes.append("allowed by 'allow \(granted.methodList)' at \(location)")
                }
            } else {
                ok = false
                notes.append("the policy denies the owner's list")
            }
            if !ok { failures += 1 }
            context.standardOutput.writeLine("\(ok ? "ok" : "FAIL")\t\(result.name): \(notes.joined(separator: "; "))")
        }
        context.standardOutput.writeLine("\(results.count - failures) of \(results.count) queries served and allowed")
        if failures > 0 { throw CommandFailure.failed }
    }
}
