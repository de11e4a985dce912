import Foundation
import RegimenKit

/// What the tracking commands share: reading a tree file, resolving paths, parsing times.
enum TrackingCommandSupport {
    /// `path` as a file URL: absolute as given, relative against the context's directory.
    static func resolve(_ path: String, in context: CommandContext) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : context.currentDirectory.appendingPathComponent(path)
    }

    /// `--now`, or the current time when not given.
    static func now(_ text: String?, in context: CommandContext) throws(CommandFailure) -> Timestamp {
        guard let text else { return Timestamp(seconds: Int64(Date().timeIntervalSince1970)) }
        guard let timestamp = Timestamp(iso8601: text) else {
            context.standardError.writeLine("error: --now must be an RFC 3339 time such as 2026-02-04T12:00:00Z, not '\(text)'")
            throw .usage
        }
        return timestamp
    }

    /// Reads a tracker tree (JSON or YAML) with where each document is written, to place later
    /// violations; syntax and structure problems print at their line and column, and an
    /// unreadable tree is an input error (status 2).
    static func treeFile(_ path: String, in context: CommandContext) throws(CommandFailure) -> TrackerTreeFile {
        do {
            return try TrackerTreeFile(contentsOf: resolve(path, in: context), displayPath: path)
        } catch {
            switch error {
            case .syntax(let diagnostics):
                DiagnosticPrinter.print(diagnostics, to: context.standardError)
                if diagnostics.isEmpty { context.standardError.writeLine("error: \(path) is empty") }
            case .structure(let problems):
                for problem in problems { context.standardError.writeLine(problem.description) }
            }
            throw .usage
        }
    }

    /// A number as a person writes it: `7`, `2.8` (not `2.8000000000000003`).
    static func show(_ number: Double) -> String { humanNumber(number) }
}
