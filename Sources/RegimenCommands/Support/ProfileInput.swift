import ArgumentParser
import Foundation
import RegimenCoaching
import RegimenLanguage
import RegimenRules
import RegimenTracking

/// Loads the rules and one profile file for the profile commands (`indexes`, `nutrition`).
enum ProfileInput {
    /// The repository's rules (the planner's kinds) and this part's view of them; rule errors
    /// are printed and end the command with status 1.
    static func rules(_ sources: RuleSourceOptions, in context: CommandContext) throws(CommandFailure) -> NutritionRuleSet {
        let ruleSet = try PlannerCommandSupport.ruleSet(sources, in: context)
        return try PlannerCommandSupport.part({ () throws(DiagnosticsError) in try NutritionRuleSet(ruleSet) }, in: context)
    }

    /// The profile at `path` (relative to the command's folder), for every command that reads
    /// one; every problem is printed and the command ends with status 2.
    static func profile(_ path: String, rules: NutritionRuleSet, in context: CommandContext) throws(CommandFailure) -> Profile {
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
            return try rules.profileDecoder.decode(contentsOf: url, displayPath: path)
        } catch {
            for problem in error.problems { context.standardError.writeLine(problem.description) }
            context.standardError.writeLine("profile rejected: \(DiagnosticPrinter.plural(error.problems.count, "problem"))")
            throw .usage
        }
    }

    /// Runs a profile report command: loads the rules and the profile, computes the report with
    /// `compute` (its value for JSON/YAML and its text), and prints it in the chosen format.
    static func report(
        _ arguments: ProfileReportArguments, defaultFormat: ReportFormat = .json, in context: CommandContext,
        _ compute: (NutritionRuleSet, Profile) throws(RuleEvaluationError) -> (value: Value, text: () -> String)
    ) throws(CommandFailure) {
        let rules = try Self.rules(arguments.sources, in: context)
        let profile = try Self.profile(arguments.profile, rules: rules, in: context)
        let report: (value: Value, text: () -> String)
        do {
            report = try compute(rules, profile)
        } catch {
            throw ruleFailure(error, in: context)
        }
        print(report.value, format: arguments.format ?? defaultFormat, text: report.text, in: context)
    }

    /// Reports a rule expression that failed while planning (status 1).
    static func ruleFailure(_ error: RuleEvaluationError, in context: CommandContext) -> CommandFailure {
        context.standardError.writeLine(error.description)
        return .failed
    }

    /// Prints `value` as JSON or YAML, or `text` for the text format. Numbers are written as a
    /// person writes them (`33.8`, not the double's `33.800000000000004`).
    static func print(_ value: Value, format: ReportFormat, text: () -> String, in context: CommandContext) {
        switch format {
        case .json, .yaml: format.write(value.roundedForPeople, in: context)
        case .text: context.standardOutput.write(text())
        }
    }
}

/// The arguments every profile report command takes: the profile, the output format and where
/// the rules are.
struct ProfileReportArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Profile file (YAML or JSON).", valueName: "profile"))
    var profile: String

    /// `nil` when not given: each command has its own default.
    @Option(name: .long, help: "Output format: json, yaml or text (text by default).")
    var format: ReportFormat?

    @OptionGroup var sources: RuleSourceOptions
}
