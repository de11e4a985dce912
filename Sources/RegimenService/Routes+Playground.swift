import Foundation
import Hummingbird
import RegimenKit

extension ServiceRoutes {
    /// The playground's endpoints: tools for coaches and auditors that read the served rules'
    /// text and evaluate text a caller sends as rules. They are registered only when the
    /// playground is on (``ServiceConfiguration/playgroundEnabled``); off, they answer 404 as any
    /// unknown route does. Every playground-style route is added here, behind the one gate.
    func addPlayground(to router: Router<ServiceContext>) {
        guard playground.enabled else { return }
        addSimulator(to: router)
        route(router, .get, "/v1/playground/file") { request, context in
            let snapshot = try Self.snapshot(context)
            let file = try Self.servedFile(request, snapshot)
            return Self.json(.map([
                "path": .string(file.path), "kind": .string(file.kind), "revision": .string(snapshot.revision),
                "text": .string(try Self.servedText(file, snapshot)),
            ]))
        }
        route(router, .get, "/v1/playground/panel") { _, context in
            let snapshot = try Self.snapshot(context)
            let clients = playground.clientNames(snapshot)
            return Self.json(.map([
                "folder": playground.folder(snapshot).map { .string($0.lastPathComponent) } ?? .null,
                "clients": .list(clients.map(Value.string)),
            ]))
        }
    }

    /// The served file named by the `path` query parameter: one of the snapshot's files, by the
    /// path ``RuleFile`` gives it (no other path is ever read).
    static func servedFile(_ request: Request, _ snapshot: RuleSnapshot) throws(ServiceError) -> RuleFile {
        guard let path = query(request, "path") else {
            throw ServiceError(.unprocessableContent, "playground.path", "'path' is required: a file of GET /v1/rules, such as rules/nutrition.yaml", path: "path")
        }
        guard let file = snapshot.files.first(where: { $0.path == path }) else {
            throw ServiceError(.notFound, "playground.file", "'\(path)' is not a file of the served rules; GET /v1/rules lists them", path: "path")
        }
        return file
    }

    /// A served file's text as it is on disk now, found under the folder it was listed from.
    static func servedText(_ file: RuleFile, _ snapshot: RuleSnapshot) throws(ServiceError) -> String {
        for folder in [snapshot.engine.rulesFolder, snapshot.engine.catalogsFolder].compactMap({ $0 }) {
            let url = folder.deletingLastPathComponent().appendingPathComponent(file.path).standardizedFileURL
            guard url.path.hasPrefix(folder.standardizedFileURL.path + "/"), let data = FileManager.default.contents(atPath: url.path) else { continue }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ServiceError(.unprocessableContent, "playground.encoding", "'\(file.path)' is not UTF-8 text", path: "path")
            }
            return text
        }
        throw ServiceError(.notFound, "playground.file", "'\(file.path)' is not a rules or catalogs file the playground can edit", path: "path")
    }
}

/// The playground's gate and its panel of client profiles.
struct PlaygroundSettings: Sendable {
    /// Whether the playground's routes exist.
    let enabled: Bool
    /// The panel folder given with `--panel`, if any.
    let panel: URL?

    /// The panel folder: `--panel`, or `examples/panel` beside the served rules folder.
    func folder(_ snapshot: RuleSnapshot) -> URL? {
        if let panel { return panel }
        return snapshot.engine.rulesFolder?.deletingLastPathComponent().appendingPathComponent("examples/panel")
    }

    /// The panel's profile files (`.yaml`, `.yml`, `.json`), by name.
    func clientNames(_ snapshot: RuleSnapshot) -> [String] {
        guard let folder = folder(snapshot), let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { !$0.hasPrefix(".") && [".yaml", ".yml", ".json"].contains(where: $0.hasSuffix) }.sorted()
    }
}
