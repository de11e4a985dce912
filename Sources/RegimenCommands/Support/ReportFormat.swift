import ArgumentParser
import RegimenKit
import RegimenRules

/// `--format text|json|yaml` of every command that prints a result: text for people (each
/// command's own), JSON or YAML for programs (the same value either way).
enum ReportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case json, yaml, text

    /// Writes `value` in this format's machine form: YAML for `.yaml`, pretty JSON otherwise
    /// (a command prints its own text before it gets here).
    func write(_ value: Value, in context: CommandContext) {
        switch self {
        case .yaml: context.standardOutput.write(value.yamlString())
        case .json, .text: context.standardOutput.writeLine(value.jsonString(pretty: true))
        }
    }
}
