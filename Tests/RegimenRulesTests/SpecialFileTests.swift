import Foundation
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

/// Issue 33, item 2: special files are refused before they are opened for reading. Every input
/// goes through ``InputFile``; only `upload-check` used to look at the file type, so a FIFO named
/// `profile.yaml` blocked `plan` for ever, `/dev/null` read as an empty file and `/dev/zero` was
/// read up to the size limit.
@Suite("Special files refused")
struct SpecialFileTests {
    static func refusal(_ path: String) -> Diagnostic? {
        do {
            _ = try InputFile.read(path: path)
            return nil
        } catch {
            return error.diagnostics.first
        }
    }

    @Test(arguments: ["/dev/null", "/dev/zero"])
    func devicesAreRefusedByName(path: String) throws {
        let diagnostic = try #require(Self.refusal(path))
        #expect(diagnostic.message.contains("is a device"), "\(diagnostic.message)")
        #expect(diagnostic.location?.file == path && diagnostic.location?.line == 1)
    }

    /// Opening a FIFO with no writer blocks in `open(2)`: the refusal has to come before it.
    @Test func aFIFOIsRefusedWithoutBeingOpened() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("profile.yaml").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let diagnostic = try #require(Self.refusal(fifo))
        #expect(diagnostic.message.contains("FIFO"), "\(diagnostic.message)")
        #expect(diagnostic.id == "file.unreadable")
    }

    @Test func directoriesAndLinksToRegularFilesKeepTheirAnswers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-special-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(Self.refusal(folder.path)?.message == "is a directory, not a file")
        let file = folder.appendingPathComponent("a.yaml")
        try "kind: x\n".write(to: file, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("link.yaml")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(try InputFile.read(path: link.path) == "kind: x\n")
        #expect(Self.refusal(folder.appendingPathComponent("missing.yaml").path)?.message == "file does not exist")
    }
}
