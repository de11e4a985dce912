import Crypto
import Foundation
package import RegimenKit

/// Why a set of files could not become a snapshot: every problem, each `file:line:col`.
package struct LoadFailure: Error, Sendable {
    /// The content hash of the files that failed (a poll does not retry the same broken set).
    var revision: String?
    package var diagnostics: [Diagnostic]
    var failedAt: Date
    /// Whether a folder named by the caller does not exist (a usage error), rather than files
    /// that do not load.
    package var isMissingFolder = false
}

/// Loads and checks a whole set (rules, catalogs, every policy, the documents) into a snapshot,
/// off the request path.
struct SnapshotLoader: Sendable {
    let configuration: ServiceConfiguration

    /// Loads the set; the revision is the content hash taken before and after the load, and the
    /// load is repeated when a file changed while it was being read.
    func load() -> Result<RuleSnapshot, LoadFailure> {
        var attempt = 0
        while true {
            attempt += 1
            let result = loadOnce()
            // A set edited during the load is read again, so a revision always names the bytes read.
            guard case .success(let snapshot) = result, attempt < 3 else { return result }
            if Self.revision(of: folders(of: snapshot)) == snapshot.revision { return result }
        }
    }

    /// The folders a snapshot was read from; a poll hashes them.
    func folders(of snapshot: RuleSnapshot) -> [URL] {
        folders(engine: snapshot.engine)
    }

    private func folders(engine: RegimenEngine) -> [URL] {
        var folders = [engine.rulesFolder, engine.catalogsFolder, policiesFolder(engine), configuration.documents].compactMap { $0 }
        folders = folders.map(\.standardizedFileURL)
        // rules/security is inside rules: hash it once.
        return folders.enumerated().filter { index, folder in
            !folders.enumerated().contains { other, candidate in
                other != index && folder.path.hasPrefix(candidate.path + "/")
            } && folders.firstIndex(of: folder) == index
        }.map(\.element)
    }

    private func policiesFolder(_ engine: RegimenEngine) -> URL? {
        configuration.policies ?? engine.rulesFolder?.appendingPathComponent("security")
    }

    private func loadOnce() -> Result<RuleSnapshot, LoadFailure> {
        let engine: RegimenEngine
        do {
            // Rule files are named relative to the rules folder's parent (`rules/readiness.yaml`)
            // in diagnostics and answers: a client never learns where the service's files live.
            engine = try RegimenEngine.namingFilesRelatively(
                rules: configuration.rules, catalogs: configuration.catalogs,
                workingDirectory: configuration.workingDirectory, executable: Bundle.main.executableURL)
        } catch {
            var failure = LoadFailure(revision: nil, diagnostics: error.diagnostics, failedAt: Date())
            if error.code == .option { failure.isMissingFolder = true }
            return .failure(failure)
        }
        let folders = folders(engine: engine)
        let revision = Self.revision(of: folders)
        var diagnostics: [Diagnostic] = []
        var policies: [String: Policy] = [:]
        if let policiesFolder = policiesFolder(engine) {
            for name in engine.policyNames(under: policiesFolder) {
                do {
                    policies[name] = try engine.policy(named: name, under: policiesFolder)
                } catch {
                    diagnostics += error.diagnostics
                }
            }
        }
        var documents: [SecurityService: DocumentStore] = [:]
        if let folder = configuration.documents {
            let files = Self.files(in: folder).filter { ["yaml", "yml", "json"].contains($0.pathExtension) }
            if files.isEmpty {
                diagnostics.append(.error("documents.empty", "--documents \(folder.path): no .yaml, .yml or .json files", at: nil))
            }
            var seen: Set<SecurityService> = []
            for policy in policies.values.sorted(by: { $0.name < $1.name }) where seen.insert(policy.service).inserted {
                var store = DocumentStore()
                for file in files {
                    do {
                        store = store.merging(try policy.documents(file: file))
                    } catch {
                        diagnostics += error.diagnostics
                    }
                }
                documents[policy.service] = store
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            let located = ServedPaths(folders: folders)
            return .failure(LoadFailure(revision: revision, diagnostics: diagnostics.map(located.relative), failedAt: Date()))
        }
        let files = folders.flatMap { folder in
            Self.files(in: folder).map { RuleFile(path: Self.relativePath($0, to: folder), kind: Self.kind(of: $0, documents: folder == configuration.documents?.standardizedFileURL)) }
        }
        let tableFolders = [engine.rulesFolder, engine.catalogsFolder].compactMap { $0?.standardizedFileURL }
        let tables = tableFolders.flatMap { folder in Self.files(in: folder).map { (path: Self.relativePath($0, to: folder), url: $0) } }
        return .success(RuleSnapshot(
            revision: revision, engine: engine, policies: policies, documents: documents, files: files, loadedAt: Date(),
            rowCounts: RowCounts.count(tables, engine: engine)))
    }

    /// SHA-256 over every file's path and bytes, in path order: any edit, addition, removal or
    /// rename gives a new revision. The first 16 hex digits name it.
    static func revision(of folders: [URL]) -> String {
        var hasher = SHA256()
        for folder in folders {
            for file in files(in: folder) {
                hasher.update(data: Data(file.path.utf8))
                hasher.update(data: Data([0]))
                let bytes = (try? Data(contentsOf: file)) ?? Data("<unreadable>".utf8)
                hasher.update(data: Data(String(bytes.count).utf8))
                hasher.update(data: Data([0]))
                hasher.update(data: bytes)
            }
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined().prefix(16).description
    }

    /// The extensions of files a rule set is made of: rule and catalog YAML, security rules,
    /// JSON documents. Nothing else under the folders is hashed, listed or served.
    static let knownExtensions: Set = ["yaml", "yml", "rules", "json"]

    /// Every regular file of a known kind under `folder` (hidden ones left out), sorted by path.
    static func files(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator
        where knownExtensions.contains(url.pathExtension.lowercased()) && (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(url.standardizedFileURL)
        }
        return files.sorted { $0.path < $1.path }
    }

    private static func relativePath(_ file: URL, to folder: URL) -> String {
        let base = folder.deletingLastPathComponent().path
        let path = file.path
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }

    /// A file's `kind:` line, `security-rules` for `.rules`, `documents` under `--documents`.
    private static func kind(of file: URL, documents: Bool) -> String {
        if documents { return "documents" }
        if file.pathExtension == "rules" { return "security-rules" }
        guard ["yaml", "yml"].contains(file.pathExtension), let text = try? String(contentsOf: file, encoding: .utf8) else {
            return file.pathExtension.isEmpty ? "file" : file.pathExtension
        }
        // The first 200 lines only: splitting a whole catalog into lines cost a tenth of a reload.
        for line in text.split(separator: "\n", maxSplits: 200, omittingEmptySubsequences: true).prefix(200) where line.hasPrefix("kind:") {
            let kind = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
            return kind.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        return "yaml"
    }
}

/// Names files under the served folders relative to each folder's parent (`rules/x.yaml`,
/// `documents/sets.json`), as ``RuleFile`` does, wherever a diagnostic spells a path.
struct ServedPaths: Sendable {
    /// Each folder's parent path with a trailing slash, the longest first.
    let prefixes: [String]

    init(folders: [URL]) {
        prefixes = Set(folders.map { $0.standardizedFileURL.deletingLastPathComponent().path })
            .map { $0.hasSuffix("/") ? $0 : $0 + "/" }
            .filter { $0 != "/" }
            .sorted { $0.count > $1.count }
    }

    func relative(_ text: String) -> String {
        prefixes.reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
    }

    func relative(_ diagnostic: Diagnostic) -> Diagnostic {
        var diagnostic = diagnostic
        diagnostic.message = relative(diagnostic.message)
        diagnostic.notes = diagnostic.notes.map(relative)
        if let location = diagnostic.location {
            diagnostic.location = SourceLocation(file: relative(location.file), line: location.line, column: location.column)
        }
        return diagnostic
    }
}
