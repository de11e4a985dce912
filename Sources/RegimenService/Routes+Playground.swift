import Foundation
import Hummingbird
import RegimenKit
import Synchronization

extension ServiceRoutes {
    /// The playground's endpoints: tools for coaches and auditors that read the served rules'
    /// text and evaluate text a caller sends as rules. They are registered only when the
    /// playground is on (``ServiceConfiguration/playgroundEnabled``); off, they answer 404 as any
    /// unknown route does. Every playground-style route is added here, behind the one gate.
    func addPlayground(to router: Router<ServiceContext>) {
        guard playground.enabled else { return }
        addSimulator(to: router)
        addAnalysis(to: router)
        route(router, .get, "/v1/playground/file") { request, context in
            let snapshot = try Self.snapshot(context)
            let file = try Self.servedFile(request, snapshot)
            return Self.json(.map([
                "path": .string(file.path), "kind": .string(file.kind), "revision": .string(snapshot.revision),
                "text": .string(try Self.servedText(file, snapshot)),
            ]))
        }
        heavy(router, "/v1/playground/check") { request, token in
            let snapshot = request.snapshot
            let body = try Self.playgroundBody(request, allowed: [])
            try token.checkpoint()
            let (diagnostics, engine) = snapshot.engine.check(body.edit)
            // The page plans with the text it just checked: that plan reuses this engine.
            if let engine { playground.editedEngines.keep(engine, for: body.edit, of: snapshot) }
            let errors = diagnostics.filter { $0.severity == .error }.count
            return Self.json(.map([
                "path": .string(body.file.path), "ok": .bool(errors == 0), "errors": .int(Int64(errors)),
                "warnings": .int(Int64(diagnostics.count - errors)), "diagnostics": .list(diagnostics.map(Self.diagnosticValue)),
            ]))
        }
        heavy(router, "/v1/playground/plan") { request, token in
            let snapshot = request.snapshot
            let body = try Self.playgroundBody(request, allowed: ["client", "profile"])
            let client = try playground.client(body.fields, snapshot)
            // The profile must be one the served rules read; its problems are the caller's (422).
            _ = try Self.engine { () throws(RegimenError) in try snapshot.engine.profile(from: client.profile, name: client.name) }
            try token.checkpoint()
            let edited = try playground.editedEngines.engine(for: body.edit, of: snapshot)
            try token.checkpoint()
            let (served, changed, changes, blocks) = PlanImpact.compare(base: snapshot.engine, new: edited, client: client)
            func side(_ plan: Result<GeneratedPlan, RegimenError>) -> Value {
                switch plan {
                case .success(let plan): .map(["plan": plan.contractValue, "error": .null])
                case .failure(let error): .map(["plan": .null, "error": ServiceError(error).value["problems"] ?? .null])
                }
            }
            return Self.json(.map([
                "path": .string(body.file.path), "client": .string(client.name),
                "served": side(served), "edited": side(changed),
                "changed": .bool(!changes.isEmpty), "changes": .list(changes.map(\.contractValue)),
                // Every block of both plans, aligned and placed as the changes place them, for
                // the page's compare table (a block added early does not shift the later ones).
                "blocks": .list(blocks.map { row in
                    .map(["place": .string(row.place), "served": row.before.map(Value.string) ?? .null, "edited": row.after.map(Value.string) ?? .null])
                }),
            ]))
        }
        heavy(router, "/v1/playground/impact") { request, token in
            let snapshot = request.snapshot
            let body = try Self.playgroundBody(request, allowed: [])
            let clients = try playground.panel(snapshot)
            try token.checkpoint()
            let edited = try playground.editedEngines.engine(for: body.edit, of: snapshot)
            // Stopped between clients once the budget runs out: its thread is free at once.
            guard let impact = PlanImpact.compare(base: snapshot.engine, new: edited, panel: clients, proceed: token.proceed) else {
                throw WorkCancelled()
            }
            guard case .map(var fields) = impact.contractValue else { return Self.json(impact.contractValue) }
            fields["path"] = .string(body.file.path)
            // Worded as `regimen impact` prints it, for a coach to paste into a review.
            fields["text"] = .string(impact.text(title: "Impact of the edited \(body.file.path) against the served rules on \(clients.count) clients"))
            return Self.json(.map(fields))
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

    /// A playground body: `path` (a served rules or catalogs YAML file) and `text` (its edited
    /// text), plus the `allowed` keys; every problem is reported at once (422).
    private static func playgroundBody(_ request: BodyRequest, allowed: Set<String>)
        throws(ServiceError) -> (file: RuleFile, edit: RuleEdit, fields: Value.Map)
    {
        let snapshot = request.snapshot
        let value = try request.document()
        guard case .map(let fields) = value else {
            throw ServiceError(.unprocessableContent, "playground.body", "the body must be {\"path\": FILE, \"text\": TEXT}", path: "<body>")
        }
        var problems: [ServiceError.Problem] = []
        var strings: [String: String] = [:]
        for key in ["path", "text"] {
            switch fields[key] {
            case .string(let text)?: strings[key] = text
            case nil: problems.append(.init(id: "playground.body", message: key == "path" ? "'path' is required: a file of GET /v1/rules" : "'text' is required: the file's edited text", path: key))
            case _?: problems.append(.init(id: "playground.body", message: "'\(key)' must be a string", path: key))
            }
        }
        for key in fields.keys.sorted() where !["path", "text"].contains(key) && !allowed.contains(key) {
            let known = (["path", "text"] + allowed.sorted()).map { "'\($0)'" }.joined(separator: ", ")
            problems.append(.init(id: "playground.body", message: "unknown key '\(key)'; the body has \(known)", path: key))
        }
        guard problems.isEmpty, let path = strings["path"], let text = strings["text"] else { throw ServiceError(.unprocessableContent, problems: problems) }
        guard let file = snapshot.files.first(where: { $0.path == path }) else {
            throw ServiceError(.notFound, "playground.file", "'\(path)' is not a file of the served rules; GET /v1/rules lists them", path: "path")
        }
        guard let url = Self.servedURL(file, snapshot), ["yaml", "yml"].contains(url.pathExtension) else {
            throw ServiceError(.unprocessableContent, "playground.file", "'\(path)' is not a rules or catalogs YAML file; the playground edits those", path: "path")
        }
        return (file, RuleEdit(path: snapshot.engine.displayPath(for: url), text: text), fields)
    }

    /// A diagnostic as `regimen check --format json` reports it, with its `file:line:col` and
    /// the line `regimen check` prints.
    static func diagnosticValue(_ diagnostic: Diagnostic) -> Value {
        .map([
            "id": .string(diagnostic.id), "severity": .string(diagnostic.severity.rawValue), "message": .string(diagnostic.message),
            "file": diagnostic.location.map { .string($0.file) } ?? .null,
            "line": diagnostic.location.map { .int(Int64($0.line)) } ?? .null,
            "column": diagnostic.location.map { .int(Int64($0.column)) } ?? .null,
            "location": diagnostic.location.map { .string($0.description) } ?? .null,
            "notes": .list(diagnostic.notes.map(Value.string)), "text": .string(diagnostic.description),
        ])
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

    /// Where a served file is, when it is under the rules or the catalogs folder (the files the
    /// playground edits; documents are not rules).
    static func servedURL(_ file: RuleFile, _ snapshot: RuleSnapshot) -> URL? {
        for folder in [snapshot.engine.rulesFolder, snapshot.engine.catalogsFolder].compactMap({ $0?.standardizedFileURL }) {
            let url = folder.deletingLastPathComponent().appendingPathComponent(file.path).standardizedFileURL
            if url.path.hasPrefix(folder.path + "/"), FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }

    /// A served file's text as it is on disk now.
    static func servedText(_ file: RuleFile, _ snapshot: RuleSnapshot) throws(ServiceError) -> String {
        guard let url = servedURL(file, snapshot), let data = FileManager.default.contents(atPath: url.path) else {
            throw ServiceError(.notFound, "playground.file", "'\(file.path)' is not a rules or catalogs file the playground can edit", path: "path")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ServiceError(.unprocessableContent, "playground.encoding", "'\(file.path)' is not UTF-8 text", path: "path")
        }
        return text
    }
}

/// The playground's gate, its panel of client profiles, and the engines of recent edits.
struct PlaygroundSettings: Sendable {
    /// Whether the playground's routes exist.
    let enabled: Bool
    /// The panel folder given with `--panel`, if any.
    let panel: URL?
    /// The simulator's solver and its query timeout.
    var analysis = AnalysisSettings(solver: "z3", queryTimeout: .seconds(2))
    let editedEngines = EditedEngines()

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

    /// The whole panel, in name order, as `regimen impact` reads a folder.
    func panel(_ snapshot: RuleSnapshot) throws(ServiceError) -> [PlanImpact.Client] {
        let names = clientNames(snapshot)
        guard let folder = folder(snapshot), !names.isEmpty else {
            throw ServiceError(.notFound, "playground.panel", "the service has no panel of client profiles (regimen serve --panel DIR)")
        }
        var clients: [PlanImpact.Client] = []
        for name in names {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            clients.append(PlanImpact.Client(name: name, profile: data))
        }
        return clients
    }

    /// The client a plan request names: `client`, a panel profile by file name, or `profile`,
    /// a profile given inline (exactly one of them).
    func client(_ fields: Value.Map, _ snapshot: RuleSnapshot) throws(ServiceError) -> PlanImpact.Client {
        switch (fields["client"], fields["profile"]) {
        case (.string(let name)?, nil):
            guard clientNames(snapshot).contains(name), let folder = folder(snapshot),
                  let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            else {
                throw ServiceError(.notFound, "playground.client", "'\(name)' is not a client of the panel; GET /v1/playground/panel lists them", path: "client")
            }
            return PlanImpact.Client(name: name, profile: data)
        case (nil, .map?):
            return PlanImpact.Client(name: "profile", profile: Data((fields["profile"] ?? .null).jsonString().utf8))
        case (nil, nil), (_?, _?):
            throw ServiceError(.unprocessableContent, "playground.client", "give one of 'client' (a panel profile's file name) or 'profile' (a profile)", path: "client")
        case (_?, nil):
            throw ServiceError(.unprocessableContent, "playground.client", "'client' must be a panel profile's file name", path: "client")
        case (nil, _?):
            throw ServiceError(.unprocessableContent, "playground.client", "'profile' must be a profile (a map of its fields)", path: "profile")
        }
    }
}

/// The planners of the last few edits, so that the plan the page asks for right after a check
/// of the same text does not load the rules again. An entry is valid only for the snapshot it
/// was made from; a reload makes every entry stale.
final class EditedEngines: Sendable {
    private struct Entry: Sendable {
        let revision: String
        let edit: RuleEdit
        let engine: RegimenEngine
    }

    /// A page checks, then plans with, one text at a time; a few entries serve a few pages.
    private static let capacity = 4
    private let entries = Mutex<[Entry]>([])

    func keep(_ engine: RegimenEngine, for edit: RuleEdit, of snapshot: RuleSnapshot) {
        entries.withLock { entries in
            entries.removeAll { $0.revision == snapshot.revision && $0.edit == edit }
            entries.insert(Entry(revision: snapshot.revision, edit: edit, engine: engine), at: 0)
            if entries.count > Self.capacity { entries.removeLast(entries.count - Self.capacity) }
        }
    }

    /// The planner with `edit` in place of its file: a kept one, or loaded now (and kept).
    /// - Throws: the edited rules' problems (422), when they do not load.
    func engine(for edit: RuleEdit, of snapshot: RuleSnapshot) throws(ServiceError) -> RegimenEngine {
        let kept = entries.withLock { entries in entries.first { $0.revision == snapshot.revision && $0.edit == edit }?.engine }
        if let kept { return kept }
        let engine = try ServiceRoutes.engine { () throws(RegimenError) in try snapshot.engine.replacing(edit) }
        keep(engine, for: edit, of: snapshot)
        return engine
    }
}
