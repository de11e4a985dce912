import ArgumentParser
import Foundation
import RegimenCoaching
import RegimenLanguage
import RegimenRules

/// Loads the rules and one profile file for the profile commands (`indexes`, `nutrition`).
enum ProfileInput {
    /// The repository's rules (the planner's kinds) and this part's view of them; rule errors
    /// are printed and end the command with status 1.
    static func rules(_ sources: RuleSourceOptions, in context: CommandContext) throws(CommandFailure) -> NutritionRuleSet {
        let ruleSet = try PlannerCommandSupport.ruleSet(sources, in: context)
        return try PlannerCommandSupport.part({ () throws(DiagnosticsError) in try NutritionRuleSet(ruleSet) }, in: context)
    }

    /// The profile at `path`; every problem is printed and the command ends with status 2.
    static func profile(_ path: String, rules: NutritionRuleSet, in context: CommandContext) throws(CommandFailure) -> Profile {
        let url = URL(fileURLWithPath: path, relativeTo: context.currentDirectory).standardizedFileURL
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

    /// Reports a rule expression that failed while planning (status 1).
    static func ruleFailure(_ error: RuleEvaluationError, in context: CommandContext) -> CommandFailure {
        context.standardError.writeLine(error.description)
        return .failed
    }

    /// Prints `value` as JSON or YAML, or `text` for the text format.
    static func print(_ value: Value, format: ReportFormat, text: () -> String, in context: CommandContext) {
        switch format {
        case .json: context.standardOutput.writeLine(value.jsonString(pretty: true))
        case .yaml: context.standardOutput.write(value.yamlString())
        case .text: context.standardOutput.write(text())
        }
    }
}
