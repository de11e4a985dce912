import ArgumentParser
import Foundation
import RegimenLanguage
import RegimenRules
import RegimenTracking

/// What the tracking commands share: loading their rules, reading documents, parsing times.
enum TrackingCommandSupport {
    /// Loads the tracking rule files from the located directories, printing every diagnostic.
    static func rules(_ sources: RuleSourceOptions, in context: CommandContext) throws(CommandFailure) -> TrackingRules {
        let located = try sources.locate(in: context)
        do {
            return try TrackingRules.load(from: located)
        } catch {
            DiagnosticPrinter.print(error.diagnostics, to: context.standardError)
            throw .failed
        }
    }

    /// `path` as a file URL: absolute as given, relative against the context's directory.
    static func resolve(_ path: String, in context: CommandContext) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : context.currentDirectory.appendingPathComponent(path)
    }

    /// Reads a JSON or YAML document (JSON is read as YAML's flow syntax) as a value.
    static func document(_ path: String, in context: CommandContext) throws(CommandFailure) -> Value {
        try locatedDocument(path, in: context).value()
    }

    /// Reads a JSON or YAML document with the positions of its nodes.
    static func locatedDocument(_ path: String, in context: CommandContext) throws(CommandFailure) -> LocatedNode {
        let url = resolve(path, in: context)
        let read = YAMLReader.read(contentsOf: url, displayPath: path)
        guard read.diagnostics.isEmpty, let document = read.document else {
            DiagnosticPrinter.print(read.diagnostics, to: context.standardError)
            if read.diagnostics.isEmpty { context.standardError.writeLine("error: \(path) is empty") }
            throw .usage
        }
        return document
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

    /// Reads a tracker tree, printing structural problems at their line and column; an
    /// unreadable tree is an input error.
    static func tree(_ path: String, in context: CommandContext) throws(CommandFailure) -> TrackerTree {
        try locatedTree(path, in: context).tree
    }

    /// ``tree(_:in:)`` with where each document is written, to locate later violations.
    static func locatedTree(_ path: String, in context: CommandContext) throws(CommandFailure) -> (tree: TrackerTree, sources: TrackerSourceMap) {
        let document = try locatedDocument(path, in: context)
        let sources = TrackerSourceMap(document)
        let (tree, problems) = TrackerTree.read(document.value())
        guard problems.isEmpty else {
            for problem in sources.locate(problems) { context.standardError.writeLine(problem.description) }
            throw .usage
        }
        return (tree, sources)
    }

    /// The calorie-burn rules, with `--formula` chosen when given.
    static func burnRules(_ rules: TrackingRules, formula: String?, in context: CommandContext) throws(CommandFailure) -> CalorieBurnRules {
        guard let formula else { return rules.calorieBurn }
        guard let chosen = rules.calorieBurn.using(formula: formula) else {
            context.standardError.writeLine("error: --formula: unknown formula '\(formula)'; the rules offer \(rules.calorieBurn.formulas.keys.sorted().joined(separator: ", "))")
            throw .usage
        }
        return chosen
    }

    /// A number as a person writes it: `7`, `2.8` (not `2.8000000000000003`).
    static func show(_ number: Double) -> String { humanNumber(number) }
}
