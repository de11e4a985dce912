import Foundation
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// Issue 33's command-level rows: special files refused before they are opened, paths and
/// options read as written, and diagnostics of one kind bounded.
@Suite("Second hunt: commands")
struct SecondHuntCommandTests {
    static let repository = RepositoryRoot.url

    @Test func uploadCheckRefusesADirectoryAndAFIFOBeforeOpeningThem() throws {
        let scratch = try ScratchDirectory([:])
        defer { scratch.cleanUp() }
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("x.pdf"), withIntermediateDirectories: true)
        let fifo = scratch.url.appendingPathComponent("pipe.pdf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for name in ["x.pdf", "pipe.pdf"] {
            let result = runRegimen(["upload-check", name, "--content-type", "application/pdf", "--rules", Self.repository.path], in: scratch.url)
            #expect(result.status == 2, "\(name): \(result.standardError)")
            #expect(result.standardError == "error: \(name) is not a regular file\n")
        }
    }

    @Test func schemaOutEmptyIsAUsageError() throws {
        let scratch = try ScratchDirectory([:])
        defer { scratch.cleanUp() }
        let result = runRegimen(["schema", "--out", ""], in: scratch.url)
        #expect(result.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    @Test(arguments: ["c/a\nb", "c/a\tb", "c/a\u{7F}b", "c/a\rb"])
    func authorizePathWithAControlCharacterIsRefused(path: String) {
        let result = runRegimen([
            "authorize", "--rules", "rules/security/workout-tracker/appendix-a.rules", "--auth", "{\"uid\": \"alice\"}", "--op", "get", "--path", path,
        ], in: Self.repository)
        #expect(result.status == 2, "\(result.standardOutput)")
        #expect(result.standardError.contains("control character"))
    }

    @Test func unknownProfileFieldsAreReportedUpToABoundThenCounted() throws {
        var text = try String(contentsOf: Self.repository.appendingPathComponent("examples/minimal.yaml"), encoding: .utf8)
        for index in 0..<5_000 { text += "stray_field_\(index): 1\n" }
        let scratch = try ScratchDirectory(["p.yaml": text])
        defer { scratch.cleanUp() }
        let result = runRegimen(["indexes", scratch.url.appendingPathComponent("p.yaml").path], in: Self.repository)
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count < 40, "\(lines.count) lines")
        #expect(result.standardError.contains("4980 more unknown fields"))
    }
}
