public import Foundation

/// The package's root folder (the one holding Package.swift), found from this file's own path so
/// tests read the shipped rules, catalogs and examples wherever the checkout lives.
public enum RepositoryRoot {
    public static let url: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        // Walk up at most a few levels: the support target sits two folders below the root.
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// `relativePath` under the root.
    public static func appending(_ relativePath: String) -> URL { url.appendingPathComponent(relativePath) }
}
