package import Foundation
import RegimenLanguage

/// Where a load reads rule files from: the rules directory and the catalogs directory.
///
/// Without options, ``locate(rules:catalogs:currentDirectory:executable:)`` finds the repository's
/// own `rules/` and `catalogs/` by walking up from the current directory and then from the
/// executable, so `regimen` works from anywhere inside the repository and from its build folder.
package struct RuleSources: Sendable, Hashable {
    /// The rules directory, if any.
    package var rules: URL?
    /// The catalogs directory, if any.
    package var catalogs: URL?
    /// Paths in diagnostics are shown relative to this directory when they lie under it.
    var displayBase: URL?

    package init(rules: URL?, catalogs: URL?, displayBase: URL? = nil) {
        self.rules = rules?.standardizedFileURL
        self.catalogs = catalogs?.standardizedFileURL
        self.displayBase = displayBase?.standardizedFileURL
    }

    /// The directories to read, rules first.
    package var directories: [URL] { [rules, catalogs].compactMap { $0 } }

    /// Why no rule directories could be found.
    package struct LocateError: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Resolves the directories a command should load.
    ///
    /// - `rules` names either a rules directory, or a directory holding `rules/` and `catalogs/`.
    /// - `catalogs` names the catalogs directory; without it, a `--rules` directory that has no
    ///   `catalogs/` inside uses the repository's bundled catalogs when they can be found.
    /// - With neither, the nearest ancestor of `currentDirectory` (then of `executable`) that holds
    ///   a `rules/` directory beside a `catalogs/` directory or a `Package.swift` is used.
    package static func locate(
        rules: String?, catalogs: String?, currentDirectory: URL, executable: URL?
    ) -> Result<RuleSources, LocateError> {
        let fileManager = FileManager.default
        func directoryExists(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        func resolve(_ path: String) -> URL { Self.resolve(path, against: currentDirectory) }
        let bundled = bundledRoot(from: currentDirectory, executable: executable, exists: directoryExists)

        var rulesDirectory: URL?
        var catalogsDirectory: URL?
        if let rules {
            let url = resolve(rules)
            guard directoryExists(url) else { return .failure(LocateError(description: "rules directory '\(rules)' does not exist")) }
            if directoryExists(url.appendingPathComponent("rules")) {
                rulesDirectory = url.appendingPathComponent("rules")
                let inner = url.appendingPathComponent("catalogs")
                if directoryExists(inner) { catalogsDirectory = inner }
            } else {
                rulesDirectory = url
                let sibling = url.deletingLastPathComponent().appendingPathComponent("catalogs")
                if directoryExists(url.appendingPathComponent("catalogs")) {
                    catalogsDirectory = url.appendingPathComponent("catalogs")
                } else if directoryExists(sibling) {
                    catalogsDirectory = sibling
                }
            }
        } else if let bundled {
            rulesDirectory = bundled.appendingPathComponent("rules")
        }
        if let catalogs {
            let url = resolve(catalogs)
            guard directoryExists(url) else { return .failure(LocateError(description: "catalogs directory '\(catalogs)' does not exist")) }
            catalogsDirectory = url
        } else if catalogsDirectory == nil, let bundled, directoryExists(bundled.appendingPathComponent("catalogs")) {
            catalogsDirectory = bundled.appendingPathComponent("catalogs")
        }
        guard rulesDirectory != nil || catalogsDirectory != nil else {
            return .failure(LocateError(description: "cannot find the rules directory; run inside the Regimen repository or pass --rules DIR"))
        }
        return .success(RuleSources(rules: rulesDirectory, catalogs: catalogsDirectory, displayBase: currentDirectory))
    }

    /// `path` as a file URL: absolute paths as they are, relative ones under `directory`.
    package static func resolve(_ path: String, against directory: URL) -> URL {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        return url.standardizedFileURL
    }

    /// The nearest ancestor holding `rules/` beside `catalogs/` or `Package.swift`.
    private static func bundledRoot(from currentDirectory: URL, executable: URL?, exists: (URL) -> Bool) -> URL? {
        var starts = [currentDirectory.standardizedFileURL]
        if let executable { starts.append(executable.resolvingSymlinksInPath().deletingLastPathComponent()) }
        for start in starts {
            var directory = start
            while true {
                if exists(directory.appendingPathComponent("rules")),
                   exists(directory.appendingPathComponent("catalogs"))
                    || FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                    return directory
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }

    /// `url` as shown in diagnostics: relative to ``displayBase`` when under it, else absolute.
    package func displayPath(for url: URL) -> String {
        let path = url.standardizedFileURL.path
        guard let base = displayBase?.path else { return path }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Every `*.yaml` and `*.yml` file under `directory`, recursively, sorted by path; hidden files
    /// and folders are skipped. Symbolic links are followed, to folders and to files (a
    /// Kubernetes ConfigMap mount is a folder of links to links); a link back to a folder being
    /// read is a loop, refused with an error at the link.
    static func yamlFiles(under directory: URL) -> (files: [URL], diagnostics: [Diagnostic]) {
        let fileManager = FileManager.default
        var files: [URL] = []
        var diagnostics: [Diagnostic] = []
        /// Real paths of the folders being read, outermost first.
        var ancestors: [String] = []
        func walk(_ folder: URL) {
            let real = folder.resolvingSymlinksInPath().path
            guard !ancestors.contains(real) else {
                diagnostics.append(.error(
                    "file.symlinkLoop", "symbolic link loop: this folder is \(real), which is already being read; it is skipped",
                    at: SourceLocation(file: folder.path, line: 1, column: 1)))
                return
            }
            guard let names = try? fileManager.contentsOfDirectory(atPath: folder.path) else {
                diagnostics.append(.error("file.unreadable", "cannot list directory", at: SourceLocation(file: folder.path, line: 1, column: 1)))
                return
            }
            ancestors.append(real)
            defer { ancestors.removeLast() }
            for name in names.sorted() where !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                // `fileExists` follows links; a dangling link is nothing to read.
                var isFolder: ObjCBool = false
                guard fileManager.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
                if isFolder.boolValue {
                    walk(url)
                } else if ["yaml", "yml"].contains(url.pathExtension),
                          (try? url.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    files.append(url.standardizedFileURL)
                }
            }
        }
        walk(directory)
        return (files.sorted { $0.path < $1.path }, diagnostics)
    }
}
