import ArgumentParser
import RegimenKit

/// The printing every profile report command shares.
enum ProfileInput {
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
