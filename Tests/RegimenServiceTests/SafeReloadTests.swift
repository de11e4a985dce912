import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import RegimenTestSupport
import Synchronization
import Testing

/// A reload serves only a complete, settled set: a file cut short is refused (it does not
/// load, or it drops more rows than allowed), a save in two steps is never served half-way, a
/// failure is reported once and cleared by the next success, and only rule-set files are listed.
@Suite struct SafeReloadTests {
    typealias Support = ServiceTestSupport

    private static func server(_ folder: URL, maximumRowLoss: Double = 0.2) throws -> RegimenServer {
        try Support.server(Support.configuration(rules: folder.appendingPathComponent("rules"), maximumRowLoss: maximumRowLoss))
    }

    /// `catalogs/ingredients.yaml` with only its first `rows` ingredients: still valid YAML.
    private static func ingredients(_ folder: URL, keeping rows: Int) throws -> (full: String, cut: String) {
        let full = try String(contentsOf: folder.appendingPathComponent("catalogs/ingredients.yaml"), encoding: .utf8)
        var lines: [Substring] = []
        var seen = 0
        for line in full.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  - id:") { seen += 1 }
            if seen > rows { break }
            lines.append(line)
        }
        return (full, lines.joined(separator: "\n") + "\n")
    }

    @Test func aTableCutByMoreThanTheAllowedShareIsRefusedUnlessAllowed() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.server(folder)
        let served = server.store.current
        let table = "catalogs/ingredients.yaml: ingredients"
        let rows = try #require(served.rowCounts[table])
        let file = folder.appendingPathComponent("catalogs/ingredients.yaml")
        try Self.ingredients(folder, keeping: rows / 2).cut.write(to: file, atomically: true, encoding: .utf8)
        let refused = await server.reloader.reload(reason: "test")
        guard case .failed(_, let diagnostics) = refused else {
            Issue.record("a catalog cut in half was served: \(refused)")
            return
        }
        #expect(diagnostics.contains { $0.contains("reload.row-loss") || $0.contains(table) }, "\(diagnostics)")
        #expect(server.store.current.revision == served.revision)
        // The operator says the cut is meant.
        let allowed = await server.reloader.reload(force: true, allowRowLoss: true, reason: "test")
        guard case .loaded = allowed else {
            Issue.record("an allowed cut was not served: \(allowed)")
            return
        }
        #expect(server.store.current.rowCounts[table] == rows / 2)
        #expect(server.store.lastFailure == nil)
    }

    @Test func aFileSavedInTwoStepsIsNeverServedHalfWritten() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Row loss allowed, so only the settle interval stands between the half file and service.
        let server = try Self.server(folder, maximumRowLoss: 1)
        let file = folder.appendingPathComponent("catalogs/ingredients.yaml")
        let (full, half) = try Self.ingredients(folder, keeping: 40)
        let final = full + "# edited\n"
        try half.write(to: file, atomically: true, encoding: .utf8)
        // The writer finishes during the first settle interval.
        let finished = Atomic<Bool>(false)
        await server.reloader.setSettleWait { _ in
            if !finished.exchange(true, ordering: .relaxed) { try? final.write(to: file, atomically: true, encoding: .utf8) }
        }
        let outcome = await server.reloader.reload(reason: "poll")
        guard case .loaded = outcome else {
            Issue.record("the finished save was not served: \(outcome)")
            return
        }
        #expect(server.store.current.rowCounts["catalogs/ingredients.yaml: ingredients"] == (full.components(separatedBy: "\n  - id:").count - 1))
    }

    @Test func aFailedReloadIsTriedAgainOnlyWhenAFileChangesAndItsDiagnosticsClearOnSuccess() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.server(folder)
        let goals = folder.appendingPathComponent("rules/goals.yaml")
        let original = try Data(contentsOf: goals)
        try (String(decoding: original, as: UTF8.self) + "\nbroken: [unclosed\n").write(to: goals, atomically: true, encoding: .utf8)
        for _ in 0..<3 { await server.reloader.reload(reason: "poll") }
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(Support.text(response).contains(#"regimen_reloads_total{outcome="failure"} 1"#), "\(Support.text(response))")
            }
            try await client.execute(uri: "/readyz", method: .get) { response in
                let ready = try #require(try Support.value(response) as? [String: Any])
                #expect(response.status == .ok)
                #expect(ready["status"] as? String == "ready-stale")
                #expect(ready["revision"] as? String == server.store.current.revision)
                #expect(ready["age_seconds"] is Int)
                #expect(ready["last_failed_reload"] is [String: Any])
            }
            // The edit reverted: the served bytes again, and nothing has failed any more.
            try original.write(to: goals)
            await server.reloader.reload(reason: "poll")
            #expect(server.store.lastFailure == nil)
            try await client.execute(uri: "/readyz", method: .get) { response in
                let ready = try #require(try Support.value(response) as? [String: Any])
                #expect(ready["status"] as? String == "ready")
                #expect(ready["last_failed_reload"] is NSNull)
            }
        }
    }

    @Test func aDeletedRulesFolderIsReportedOnceWithRelativePaths() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.server(folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("rules"))
        for _ in 0..<3 { await server.reloader.reload(reason: "poll") }
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(Support.text(response).contains(#"regimen_reloads_total{outcome="failure"} 1"#))
            }
            for path in ["/v1/rules", "/readyz"] {
                try await client.execute(uri: path, method: .get) { response in
                    let text = Support.text(response)
                    #expect(text.contains("last_failed_reload"))
                    #expect(!text.contains(folder.path), "\(path) shows where the service's files live: \(text)")
                    let info = try #require(try Support.value(response) as? [String: Any])
                    #expect(info["last_failed_reload"] is [String: Any], "\(path)")
                }
            }
        }
    }

    @Test func onlyRuleSetFilesAreListedOrServed() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "a coach's private notes\n".write(to: folder.appendingPathComponent("rules/notes.txt"), atomically: true, encoding: .utf8)
        try "kind: goals\n".write(to: folder.appendingPathComponent("rules/goals.yaml.bak"), atomically: true, encoding: .utf8)
        let server = try Self.server(folder)
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/rules", method: .get) { response in
                let info = try #require(try Support.value(response) as? [String: Any])
                let paths = try #require(info["files"] as? [[String: Any]]).compactMap { $0["path"] as? String }
                #expect(paths.contains("rules/goals.yaml"))
                #expect(!paths.contains("rules/notes.txt"))
                #expect(!paths.contains("rules/goals.yaml.bak"))
            }
            for path in ["rules/notes.txt", "rules/goals.yaml.bak"] {
                try await client.execute(uri: "/v1/playground/file?path=\(path)", method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                }
            }
        }
    }

    /// For seeded cut points of every rules and catalogs YAML file: the reload either refuses
    /// (each diagnostic located, or the row-loss refusal) or serves a set that loads (and so
    /// checks) and keeps at least 80% of every table's rows.
    @Test func everyTruncatedFileIsRefusedOrServedWhole() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.server(folder)
        let original = server.store.current.rowCounts
        let files = ["rules", "catalogs"].flatMap { name in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(name).path)) ?? [])
                .filter { $0.hasSuffix(".yaml") }.map { "\(name)/\($0)" }
        }.sorted()
        var generator = SeededGenerator(seed: 34)
        var refused = 0, served = 0
        for _ in 0..<12 {
            let path = try #require(files.randomElement(using: &generator))
            let url = folder.appendingPathComponent(path)
            let bytes = try Data(contentsOf: url)
            let cut = Int.random(in: 0..<bytes.count, using: &generator)
            try bytes.prefix(cut).write(to: url)
            let outcome = await server.reloader.reload(force: true, reason: "test")
            switch outcome {
            case .failed(_, let diagnostics):
                refused += 1
                // A file whose `kind:` line was cut is reported by the kind now missing (the
                // rule loader does not locate that one); every other refusal names its place.
                let explained = diagnostics.contains { diagnostic in
                    diagnostic.range(of: #"^[^ ]+\.yaml:\d+:\d+"#, options: .regularExpression) != nil
                        || diagnostic.contains("would go from") || diagnostic.contains("no rule file of kind")
                }
                #expect(explained, "\(path) cut at \(cut): \(diagnostics)")
            case .loaded, .unchanged:
                served += 1
                for (table, rows) in original {
                    let now = server.store.current.rowCounts[table] ?? 0
                    #expect(Double(now) >= Double(rows) * 0.8, "\(path) cut at \(cut) served \(table) with \(now) of \(rows) rows")
                }
            }
            try bytes.write(to: url)
            let restored = await server.reloader.reload(force: true, allowRowLoss: true, reason: "test")
            #expect(restored != .failed(revision: nil, diagnostics: []))
            #expect(server.store.current.rowCounts == original, "\(path) restored")
        }
        #expect(refused + served == 12)
    }
}
