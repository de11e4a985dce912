import Foundation
import RegimenTestSupport
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
