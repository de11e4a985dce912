import ArgumentParser
import RegimenKit

/// The exit statuses every `regimen` subcommand uses.
enum CommandExit {
    /// Everything checked out.
    package static let success: Int32 = 0
    /// A rule, test or evaluation failed (rule-file errors, a failing expression).
    package static let failure: Int32 = 1
    /// The command was used wrongly or its input could not be read.
    static let usage: Int32 = 2
}

/// Thrown by commands to end with a status after they have printed what they had to say.
struct CommandFailure: Error {
    let status: Int32

    static let failed = CommandFailure(status: CommandExit.failure)
    static let usage = CommandFailure(status: CommandExit.usage)

    /// Prints `error` to standard error and ends with the status its kind decides.
    static func reporting(_ error: some DiagnosticError, in context: CommandContext) -> CommandFailure {
        context.standardError.writeLine(error.description)
        return CommandFailure(status: CommandExit.status(for: error.kind))
    }
}

extension CommandExit {
    /// The status for an error of `kind`: the caller's input is 2, the rules' verdict 1.
    static func status(for kind: ErrorKind) -> Int32 {
        switch kind {
        case .input: usage
        case .rules: failure
        }
    }
}

extension RegimenCommand {
    /// Parses `arguments` (without the executable name), runs the subcommand and returns the exit
    /// status, writing through ``CommandContext/current``. Usage errors exit with 2, not
    /// ArgumentParser's 64, so every `regimen` command speaks the same three statuses.
    package static func run(arguments: [String]) -> Int32 {
        let context = CommandContext.current
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return CommandExit.success
        } catch let failure as CommandFailure {
            return failure.status
        } catch {
            let status = exitCode(for: error).rawValue
            let message = fullMessage(for: error)
            if status == ExitCode.success.rawValue {
                if !message.isEmpty { context.standardOutput.writeLine(message) }
                return CommandExit.success
            }
            if !message.isEmpty { context.standardError.writeLine(message) }
            return status == ExitCode.validationFailure.rawValue ? CommandExit.usage : CommandExit.failure
        }
    }
}
