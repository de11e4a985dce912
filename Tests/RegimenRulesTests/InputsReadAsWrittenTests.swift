import Foundation
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

/// Issue 33, item 4: rule folders and files behind symbolic links are read (a Kubernetes
/// ConfigMap mount is links to links), a link loop is refused at the link, and a UTF-8 byte
/// order mark before YAML is not content.
@Suite("Inputs read as written")
struct InputsReadAsWrittenTests {
    private static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-links-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func symlinkedFoldersAndFilesAreFollowedAndLoopsRefused() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        let real = root.appendingPathComponent("real")
        try fm.createDirectory(at: real.appendingPathComponent("inner"), withIntermediateDirectories: true)
        try "kind: x\n".write(to: real.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
        try "kind: y\n".write(to: real.appendingPathComponent("inner/b.yml"), atomically: true, encoding: .utf8)
        // The mount: a folder of links, one to a file, one to a folder, one back to itself.
        let mount = root.appendingPathComponent("mount")
        try fm.createDirectory(at: mount, withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: mount.appendingPathComponent("linked.yaml"), withDestinationURL: real.appendingPathComponent("a.yaml"))
        try fm.createSymbolicLink(at: mount.appendingPathComponent("folder"), withDestinationURL: real)
        try fm.createSymbolicLink(at: mount.appendingPathComponent("loop"), withDestinationURL: mount)
        // `--rules` itself a link to the mount.
        let linkedRoot = root.appendingPathComponent("rules-link")
        try fm.createSymbolicLink(at: linkedRoot, withDestinationURL: mount)

        let listing = RuleSources.yamlFiles(under: linkedRoot)
        let names = listing.files.map { $0.path.replacingOccurrences(of: linkedRoot.path + "/", with: "") }
        #expect(names == ["folder/a.yaml", "folder/inner/b.yml", "linked.yaml"])
        #expect(listing.diagnostics.count == 1)
        #expect(listing.diagnostics.first?.id == "file.symlinkLoop")
        #expect(listing.diagnostics.first?.location?.file.hasSuffix("loop") == true)
    }

    @Test(arguments: ["kind: x\nn: 1\n", "{\"kind\": \"x\", \"n\": 1}"])
    func byteOrderMarkIsAccepted(text: String) throws {
        let plain = YAMLReader.read(text, file: "p.yaml")
        let marked = YAMLReader.read("\u{FEFF}" + text, file: "p.yaml")
        #expect(marked.diagnostics.isEmpty, "\(marked.diagnostics)")
        #expect(marked.document?["n"]?.scalar?.text == "1")
        #expect(marked.document?["kind"]?.location == plain.document?["kind"]?.location)
    }
}
