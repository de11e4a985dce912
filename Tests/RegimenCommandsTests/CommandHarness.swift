import Foundation
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

/// A scratch directory with the given files (paths relative to it), removed by `cleanUp()`.
struct ScratchDirectory {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, text) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
