import ArgumentParser
import Foundation
import RegimenKit

/// `regimen upload-check FILE`: whether a trainer's upload may be sent (PDF, at most 10 MB).
struct UploadCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload-check",
        abstract: "Check a workout upload against the rules: PDF only, within the size limit.")

    @Argument(help: "The file to upload.")
    var file: String

    @Option(name: .customLong("content-type"), help: "The MIME type the client declares.")
    var contentType: String?

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let url = TrackingCommandSupport.resolve(file, in: context)
        // A directory or a FIFO named `x.pdf` is refused before it is opened: opening a FIFO
        // blocks until a writer comes, and a directory has no size to check.
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular else {
            let what = attributes == nil ? "cannot read \(file)" : "\(file) is not a regular file"
            context.standardError.writeLine("error: \(what)")
            throw CommandFailure.usage
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            context.standardError.writeLine("error: cannot read \(file)")
            throw CommandFailure.usage
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).flatMap { Int(exactly: $0) } ?? Int.max
        try? handle.seek(toOffset: 0)
        let leading = (try? handle.read(upToCount: 16)).map { Array($0) } ?? []
        let name = url.lastPathComponent
        let problems = try EngineInput.run({ () throws(RegimenError) in
            try engine.uploadProblems(fileName: name, contentType: contentType, size: size, leadingBytes: leading)
        }, in: context)
        for problem in problems { context.standardError.writeLine("\(file): error: \(problem)") }
        guard problems.isEmpty else { throw CommandFailure.failed }
        context.standardOutput.writeLine("ok: \(name) (\(size) bytes) can be uploaded")
    }
}
