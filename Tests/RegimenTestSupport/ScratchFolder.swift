public import Foundation

/// A fresh folder under the system's temporary folder, filled with the given files (paths relative
/// to it, parents created), for tests that need files on disk. Remove it with ``cleanUp()``.
public struct ScratchFolder: Sendable {
    public let url: URL

    public init(_ files: [String: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, text) in files { try write(text, to: path) }
    }

    /// Writes `text` to `path` (relative to the folder), creating parent folders.
    public func write(_ text: String, to path: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// The absolute path of `relativePath` inside the folder.
    public func path(_ relativePath: String) -> String { url.appendingPathComponent(relativePath).path }

    public func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
