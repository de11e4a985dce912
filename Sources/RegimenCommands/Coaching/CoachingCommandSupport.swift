import ArgumentParser
import Foundation
import RegimenCoaching
import RegimenLanguage
import RegimenRules

/// What the adaptation commands share: loading the rule set once, reading files, printing.
enum PlannerCommandSupport {
    /// The planner's kinds loaded from the rule directories; errors are printed (status 1).
    static func ruleSet(_ sources: RuleSourceOptions, in context: CommandContext) throws(CommandFailure) -> RuleSet {
        let located = try sources.locate(in: context)
        let result = RuleKindRegistry.coachingLoader.load(from: located)
        if result.hasErrors {
            DiagnosticPrinter.print(result.diagnostics, to: context.standardError)
            throw .failed
        }
        return result.ruleSet
    }

    /// A part of the planner picked out of the rule set; a missing kind is printed (status 1).
    static func part<Part>(_ make: () throws(DiagnosticsError) -> Part, in context: CommandContext) throws(CommandFailure) -> Part {
        do {
            return try make()
        } catch {
            DiagnosticPrinter.print(error.diagnostics, to: context.standardError)
            throw .failed
        }
    }

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
            return try InputFile.read(url, displayPath: path)
        } catch {
            for diagnostic in error.diagnostics { context.standardError.writeLine("\(diagnostic) (the \(what) file)") }
            throw .usage
        }
    }

    /// A YAML or JSON document as a value; syntax errors are printed (status 2).
    static func document(_ path: String, what: String, in context: CommandContext) throws(CommandFailure) -> Value {
        try node(path, what: what, in: context).value()
    }

    /// The document at `path` as read, with the place of each of its nodes.
    static func node(_ path: String, what: String, in context: CommandContext) throws(CommandFailure) -> LocatedNode {
        let read = YAMLReader.read(try text(path, what: what, in: context), file: path)
        let errors = read.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let document = read.document else {
            DiagnosticPrinter.print(errors, to: context.standardError)
            if errors.isEmpty { context.standardError.writeLine("error: \(what) file '\(path)' is empty") }
            throw .usage
        }
        return document
    }
}
