import ArgumentParser
import Foundation
import RegimenCoaching
import RegimenLanguage
import RegimenRules

/// `--format text|json|yaml` of the adaptation commands (`adapt`, `diff`, `supplements`).
enum PlannerFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json, yaml
}

/// What the adaptation commands share: loading the rule set once, reading files, printing.
enum PlannerCommandSupport {
    /// Every registered kind loaded from the rule directories; errors are printed (status 1).
    static func ruleSet(_ sources: RuleSourceOptions, in context: CommandContext) throws(CommandFailure) -> RuleSet {
        let located = try sources.locate(in: context)
        let result = RuleKindRegistry.loader.load(from: located)
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
        let url = resolve(path, in: context)
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            context.standardError.writeLine("error: cannot read \(what) file '\(path)'")
            throw .usage
        }
        return text
    }

    /// A YAML or JSON document as a value; syntax errors are printed (status 2).
    static func document(_ path: String, what: String, in context: CommandContext) throws(CommandFailure) -> Value {
        let read = YAMLReader.read(try text(path, what: what, in: context), file: path)
        let errors = read.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let document = read.document else {
            DiagnosticPrinter.print(errors, to: context.standardError)
            if errors.isEmpty { context.standardError.writeLine("error: \(what) file '\(path)' is empty") }
            throw .usage
        }
        return document.value()
    }

    /// A profile file, decoded by the profile rules; every problem is printed (status 2).
    static func profile(_ path: String, nutrition: NutritionRuleSet, in context: CommandContext) throws(CommandFailure) -> Profile {
        let url = resolve(path, in: context)
        guard FileManager.default.fileExists(atPath: url.path) else {
            context.standardError.writeLine("error: profile file '\(path)' does not exist")
            throw .usage
        }
        do {
            return try nutrition.profileDecoder.decode(contentsOf: url, displayPath: path)
        } catch {
            for problem in error.problems { context.standardError.writeLine(problem.description) }
            context.standardError.writeLine("profile rejected: \(DiagnosticPrinter.plural(error.problems.count, "problem"))")
            throw .usage
        }
    }

    /// Prints `value` as JSON or YAML, or `text()` for the text format.
    static func print(_ value: Value, format: PlannerFormat, text: () -> String, in context: CommandContext) {
        switch format {
        case .json: context.standardOutput.writeLine(value.jsonString(pretty: true))
        case .yaml: context.standardOutput.write(PlannerYAML.render(value))
        case .text: context.standardOutput.write(text())
        }
    }
}

/// Block-style YAML with sorted keys: the same content as the JSON output.
enum PlannerYAML {
    static func render(_ value: Value) -> String {
        var lines: [String] = []
        emit(value, indent: "", into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func emit(_ value: Value, indent: String, into lines: inout [String]) {
        switch value {
        case .map(let map) where !map.isEmpty:
            for key in map.keys.sorted() {
                guard let child = map[key] else { continue }
                if isBlock(child) {
                    lines.append("\(indent)\(scalar(.string(key))):")
                    emit(child, indent: indent + "  ", into: &lines)
                } else {
                    lines.append("\(indent)\(scalar(.string(key))): \(scalar(child))")
                }
            }
        case .list(let items) where !items.isEmpty:
            for item in items {
                guard isBlock(item) else {
                    lines.append("\(indent)- \(scalar(item))")
                    continue
                }
                var nested: [String] = []
                emit(item, indent: indent + "  ", into: &nested)
                for (index, line) in nested.enumerated() {
                    lines.append(index == 0 ? "\(indent)- " + line.dropFirst(indent.count + 2) : line)
                }
            }
        default:
            lines.append(indent + scalar(value))
        }
    }

    private static func isBlock(_ value: Value) -> Bool {
        switch value {
        case .map(let map): !map.isEmpty
        case .list(let items): !items.isEmpty
        default: false
        }
    }

    private static func scalar(_ value: Value) -> String {
        switch value {
        case .map: return "{}"
        case .list: return "[]"
        case .string(let text): return isPlainSafe(text) ? text : Value.string(text).jsonString()
        default: return value.jsonString()
        }
    }

    /// Whether `text` reads back as the same string when written without quotes.
    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !text.hasSuffix(" ") else { return false }
        if ["true", "false", "null", "~", "yes", "no", "on", "off"].contains(text.lowercased()) || Double(text) != nil { return false }
        if "-?:,[]{}#&*!|>'\"%@`<= ".unicodeScalars.contains(first) { return false }
        return !text.contains(": ") && !text.contains(" #") && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\u{7F}" }
    }
}
