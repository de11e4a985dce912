import ArgumentParser

/// `--format json|yaml|text` of the planner's commands: how a result is printed.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case json, yaml, text
}
