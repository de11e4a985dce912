import ArgumentParser
import Foundation
import RegimenKit

/// `regimen impact --base OLD PANEL…`: which clients a rule edit changes, and how, before it goes live.
struct ImpactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "impact",
        abstract: "Plan a panel of clients under the base rules and the new rules and report what changes.",
        discussion: """
            Every profile of the panel (files, or folders of .yaml/.yml/.json files) is planned \
            under both rule sets; the report groups the differences across clients ("37 of 240 \
            clients: chest weekly sets: 10 → 12", "12 of 240 clients: kcal −3% to −5%") and then \
            lists them per client. --base is a rules folder (or a folder holding rules/ and \
            catalogs/), or git:REV for the rules and catalogs at a git revision of the repository \
            holding the new rules. The new rules are --rules (default: the repository's own). \
            Exit status: 0 report written, 1 a rule set does not load, 2 bad option or panel.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, html }

    @Option(name: .long, help: ArgumentHelp("The rules before the edit: a folder, or git:REV.", valueName: "dir|git:rev"))
    var base: String

    @Option(name: .long, help: ArgumentHelp("Catalogs for the base rules (default: beside them).", valueName: "dir"))
    var baseCatalogs: String?

    @Argument(help: ArgumentHelp("Client profiles: files, or folders of them.", valueName: "panel"))
    var panel: [String] = []

    @Option(name: .long, help: "Output format: text, json or html (a self-contained page).")
    var format: Format = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let clients = try readPanel(in: context)
        let newEngine = try newRulesEngine(in: context)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-impact-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let baseEngine: RegimenEngine
        let baseLabel: String
        if base.hasPrefix("git:") {
            let revision = String(base.dropFirst(4))
            let repository = newEngine.rulesFolder?.deletingLastPathComponent() ?? context.currentDirectory
            try extract(revision: revision, from: repository, into: scratch, in: context)
            baseEngine = try engine(rules: scratch, catalogs: nil, label: "rules at \(revision)", in: context)
            baseLabel = base
        } else {
            let rules = URL(fileURLWithPath: base, relativeTo: context.currentDirectory)
            let catalogs = baseCatalogs.map { URL(fileURLWithPath: $0, relativeTo: context.currentDirectory) }
            baseEngine = try engine(rules: rules, catalogs: catalogs, label: "base rules", in: context)
            baseLabel = base
        }
        let impact = PlanImpact.compare(base: baseEngine, new: newEngine, panel: clients)
        let title = "Impact of the rules in \(sources.rules ?? "rules/") against \(baseLabel) on \(clients.count) clients"
        switch format {
        case .text: context.standardOutput.write(impact.text(title: title))
        case .json: context.standardOutput.write(impact.json())
        case .html: context.standardOutput.write(impact.html(title: title))
        }
    }

    /// The panel's profiles in the order given (a folder's files by name).
    private func readPanel(in context: CommandContext) throws(CommandFailure) -> [PlanImpact.Client] {
        guard !panel.isEmpty else {
            context.standardError.writeLine("error: name at least one panel file or folder")
            throw .usage
        }
        var clients: [PlanImpact.Client] = []
        let manager = FileManager.default
        for entry in panel {
            let url = URL(fileURLWithPath: entry, relativeTo: context.currentDirectory)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                context.standardError.writeLine("error: \(entry): no such file or folder")
                throw .usage
            }
            let files: [(URL, String)]
            if isDirectory.boolValue {
                let names = ((try? manager.contentsOfDirectory(atPath: url.path)) ?? [])
                    .filter { [".yaml", ".yml", ".json"].contains(where: $0.hasSuffix) }.sorted()
                files = names.map { (url.appendingPathComponent($0), entry.hasSuffix("/") ? entry + $0 : entry + "/" + $0) }
            } else {
                files = [(url, entry)]
            }
            for (file, name) in files {
                do {
                    clients.append(PlanImpact.Client(name: name, profile: Data(try RegimenEngine.inputText(contentsOf: file, displayPath: name).utf8)))
                } catch {
                    for diagnostic in error.diagnostics { context.standardError.writeLine(diagnostic.description) }
                    throw .usage
                }
            }
        }
        guard !clients.isEmpty else {
            context.standardError.writeLine("error: the panel holds no .yaml, .yml or .json profile")
            throw .usage
        }
        return clients
    }

    /// The engine over `--rules` (the repository's own by default); a folder that is not there
    /// is a usage error, as for every command.
    private func newRulesEngine(in context: CommandContext) throws(CommandFailure) -> RegimenEngine {
        do {
            return try RegimenEngine(rules: sources.rules, catalogs: sources.catalogs, currentDirectory: context.currentDirectory, executable: context.executable)
        } catch {
            guard error.code == .rules else { throw CommandFailure.reporting(error, in: context) }
            throw failure(error, label: "new rules", in: context)
        }
    }

    private func engine(rules: URL, catalogs: URL?, label: String, in context: CommandContext) throws(CommandFailure) -> RegimenEngine {
        do {
            return try RegimenEngine(rules: rules, catalogs: catalogs)
        } catch {
            throw failure(error, label: label, in: context)
        }
    }

    /// Prints why a rule set did not load; a missing folder is a usage problem, rules that fail
    /// to load are a rule failure.
    private func failure(_ error: RegimenError, label: String, in context: CommandContext) -> CommandFailure {
        context.standardError.writeLine("error: the \(label) do not load:")
        context.standardError.writeLine(error.description)
        return error.isInputError ? .usage : .failed
    }

    /// `rules/` and `catalogs/` as they were at `revision` in the git repository at `repository`,
    /// written under `folder` (git archive).
    private func extract(revision: String, from repository: URL, into folder: URL, in context: CommandContext) throws(CommandFailure) {
        guard revision.range(of: #"^[A-Za-z0-9_./~^@{}-]+$"#, options: .regularExpression) != nil, !revision.hasPrefix("-") else {
            context.standardError.writeLine("error: '\(revision)' is not a git revision")
            throw .usage
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            context.standardError.writeLine("error: cannot create \(folder.path): \(error.localizedDescription)")
            throw .usage
        }
        let archive = folder.appendingPathComponent("rules.tar")
        let status = run("/usr/bin/env", ["git", "-C", repository.path, "archive", "--format=tar", "-o", archive.path, revision, "--", "rules", "catalogs"])
        guard status == 0, run("/usr/bin/env", ["tar", "-x", "-f", archive.path, "-C", folder.path]) == 0 else {
            context.standardError.writeLine("error: cannot read rules/ and catalogs/ at git revision '\(revision)' in \(repository.path)")
            throw .usage
        }
    }

    private func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        } catch {
            return -1
        }
    }
}
