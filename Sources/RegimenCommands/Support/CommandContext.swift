import Foundation
import Synchronization

/// Where a command writes and what it knows of its surroundings. Commands use
/// ``CommandContext/current``; tests bind a capturing context to run commands in-process.
struct CommandContext: Sendable {
    /// Results: what a command produces.
    var standardOutput: TextOutput
    /// Diagnostics and errors.
    var standardError: TextOutput
    /// The directory relative paths are resolved against (and diagnostics shown relative to).
    var currentDirectory: URL
    /// The running executable, used to find the bundled rules when run from outside the repo.
    var executable: URL?
    /// Reads all of standard input (a file argument of `-`); tests supply the text.
    var readStandardInput: @Sendable () -> Data

    init(
        standardOutput: TextOutput, standardError: TextOutput, currentDirectory: URL, executable: URL?,
        readStandardInput: @escaping @Sendable () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.currentDirectory = currentDirectory
        self.executable = executable
        self.readStandardInput = readStandardInput
    }

    /// The real process: its standard streams, working directory and executable path.
    package static var process: CommandContext {
        CommandContext(
            standardOutput: .standardOutput, standardError: .standardError,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            executable: Bundle.main.executableURL)
    }

    /// The context commands run in; bound by tests with `CommandContext.$current.withValue(…)`.
    @TaskLocal package static var current: CommandContext = .process
}

/// A destination for text: a process stream or an in-memory buffer (for tests).
final class TextOutput: Sendable {
    private enum Destination {
        case fileHandle(Int32)
        case buffer
    }

    private let destination: Destination
    private let captured = Mutex<String>("")

    private init(_ destination: Destination) { self.destination = destination }

    static let standardOutput = TextOutput(.fileHandle(STDOUT_FILENO))
    static let standardError = TextOutput(.fileHandle(STDERR_FILENO))

    /// A buffer that keeps everything written, for tests.
    static func buffer() -> TextOutput { TextOutput(.buffer) }

    /// Everything written to a buffer so far (empty for process streams).
    package var text: String { captured.withLock { $0 } }

    /// Writes `line` and a newline.
    func writeLine(_ line: String) { write(line + "\n") }

    /// Writes `text` as is.
    package func write(_ text: String) {
        switch destination {
        case .buffer:
            captured.withLock { $0 += text }
        case .fileHandle(let descriptor):
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { raw in
                    Foundation.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                }
                if written <= 0 { return }
                offset += written
            }
            bytes.removeAll()
        }
    }
}
