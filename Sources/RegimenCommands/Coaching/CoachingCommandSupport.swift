import Foundation
import RegimenKit

/// What the planner commands share: reading their input files.
enum PlannerCommandSupport {
    /// `path` as a file URL: absolute as given, relative against the context's directory.
    static func resolve(_ path: String, in context: CommandContext) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : context.currentDirectory.appendingPathComponent(path)).standardizedFileURL
    }

    /// The text of an input file; a missing or unreadable file is a usage error (status 2).
    static func text(_ path: String, what: String, in context: CommandContext) throws(CommandFailure) -> String {
        if path == "-" {
            guard let text = String(data: context.readStandardInput(), encoding: .utf8) else {
                context.standardError.writeLine("error: standard input is not UTF-8 text")
                throw .usage
            }
            return text
        }
        let url = resolve(path, in: context)
        do {
            return try RegimenEngine.inputText(contentsOf: url, displayPath: path)
        } catch {
            for diagnostic in error.diagnostics { context.standardError.writeLine("\(diagnostic) (the \(what) file)") }
            throw .usage
        }
    }
}
