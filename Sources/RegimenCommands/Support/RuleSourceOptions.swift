import ArgumentParser
import Foundation
import RegimenKit
import RegimenRules

/// `--rules DIR` and `--catalogs DIR`, shared by every command that loads rules.
struct RuleSourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Rules directory, or a directory holding rules/ and catalogs/ (default: the repository's own).",
        valueName: "dir"))
    var rules: String?

    @Option(name: .long, help: ArgumentHelp("Catalogs directory (default: beside the rules, or the repository's own).", valueName: "dir"))
    var catalogs: String?

    /// The directories to load, or a usage failure (message printed) when they cannot be found.
    func locate(in context: CommandContext) throws(CommandFailure) -> RuleSources {
        switch RuleSources.locate(rules: rules, catalogs: catalogs, currentDirectory: context.currentDirectory, executable: context.executable) {
        case .success(let sources):
            return sources
        case .failure(let error):
            context.standardError.writeLine("error: \(error.description)")
            throw .usage
        }
    }
}

/// Every rule-file kind the domain modules define (composed in RegimenKit): what `regimen
/// check` validates.
enum RuleKindRegistry {
    static var all: [any RuleFileKind.Type] { RegimenRuleKinds.all }

    static var loader: RuleSetLoader { RuleSetLoader(kinds: all) }

    /// The planner's kinds (plans, nutrition, indexes, adaptation, supplements). Files of the
    /// other modules' kinds are skipped unread, so a planner command does not parse security
    /// test files; `regimen check` still validates every file.
    static var coachingLoader: RuleSetLoader { RegimenEngine.plannerLoader }
}
