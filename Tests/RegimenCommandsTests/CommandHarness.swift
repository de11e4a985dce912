import Foundation
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// What an in-process run of `regimen` produced.
struct CommandRun {
    let status: Int32
    let standardOutput: String
    let standardError: String
}

/// Runs `regimen ARGUMENTS` in-process from `directory`, capturing both streams.
/// `input`, when given, is what the command reads from standard input.
func runRegimen(_ arguments: [String], in directory: URL, input: String? = nil) -> CommandRun {
    let output = TextOutput.buffer()
    let error = TextOutput.buffer()
    let data = Data((input ?? "").utf8)
    let context = CommandContext(standardOutput: output, standardError: error, currentDirectory: directory, executable: nil,
                                 readStandardInput: { data })
    let status = CommandContext.$current.withValue(context) { RegimenCommand.run(arguments: arguments) }
    return CommandRun(status: status, standardOutput: output.text, standardError: error.text)
}

/// The shared scratch folder under the name these tests grew up with.
typealias ScratchDirectory = ScratchFolder

/// The shipped rules and catalogs copied to a scratch folder, with files added and text edits
/// applied (file → (old, new); the test fails when a file no longer holds the old text).
func shippedRules(adding added: [String: String] = [:], editing edits: [String: (String, String)]) throws -> ScratchFolder {
    let scratch = try ScratchFolder(added)
    for folder in ["rules", "catalogs"] {
        let source = RepositoryRoot.appending(folder)
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            let target = scratch.url.appendingPathComponent(folder).appendingPathComponent(name)
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target)
        }
    }
    for (file, edit) in edits {
        let url = scratch.url.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(edit.0), "\(file) no longer holds \(edit.0)")
        try text.replacingOccurrences(of: edit.0, with: edit.1).write(to: url, atomically: true, encoding: .utf8)
    }
    return scratch
}
