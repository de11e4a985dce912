import ArgumentParser
import Foundation
import RegimenKit

/// `regimen schema [KIND] [--out DIR]`: the JSON Schema (2020-12) of rule-file kinds, described
/// from the kinds' own decode functions, for editors that check YAML as it is typed.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Write the JSON Schema of each rule-file kind (for editors).",
        discussion: """
            Without --out, prints the schema of KIND (all kinds need --out). With --out DIR, writes \
            DIR/KIND.schema.json for KIND or for every kind and input (check-ins, profile), and \
            lists the files written. The profile's ranges, goals and diets are those of the rules \
            loaded (--rules); muscles, equipment tags and exercise ids are enums of the words the \
            loaded rules and catalogs define (--rules, --catalogs), so a coach's own catalogs give \
            the coach's own lists. The \
            schemas check a file's shape (keys, types, ranges, allowed words); expressions and \
            references to other files are checked by `regimen check` alone. Exit status: 0, or 2 \
            for an unknown kind or a directory that cannot be written.
            """)

    @Argument(help: "A `kind:` value such as readiness_rules, or `checkins`, `profile` (default: every schema).")
    var kind: String?

    @Option(name: .long, help: ArgumentHelp("Directory to write NAME.schema.json files into.", valueName: "dir"))
    var out: String?

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let schemas = RegimenSchemas.all(engine: engine)
        var selected = schemas
        if let kind {
            selected = schemas.filter { $0.name == kind }
            if selected.isEmpty {
                let known = schemas.map(\.name)
                var message = "error: unknown kind '\(kind)'"
                if let close = RegimenEngine.closestName(to: kind, among: known) { message += " (did you mean '\(close)'?)" }
                context.standardError.writeLine(message)
                context.standardError.writeLine("  note: known kinds: \(known.joined(separator: ", "))")
                throw CommandFailure.usage
            }
        }
        guard let out else {
            guard let only = selected.first, selected.count == 1 else {
                context.standardError.writeLine("error: name a KIND to print, or give --out DIR to write every schema")
                throw CommandFailure.usage
            }
            context.standardOutput.write(only.text)
            return
        }
        // An empty folder name would write every schema into the working directory.
        guard !out.isEmpty else {
            context.standardError.writeLine("error: --out needs a folder name (it is empty)")
            throw CommandFailure.usage
        }
        let directory = out.hasPrefix("/") ? URL(fileURLWithPath: out) : context.currentDirectory.appendingPathComponent(out)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for schema in selected {
                try schema.text.write(to: directory.appendingPathComponent(schema.fileName), atomically: true, encoding: .utf8)
                context.standardOutput.writeLine((out as NSString).appendingPathComponent(schema.fileName))
            }
        } catch {
            context.standardError.writeLine("error: cannot write schemas to '\(out)': \(error.localizedDescription)")
            throw CommandFailure.usage
        }
    }
}
