import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import Testing

/// The playground's endpoints: a rule file's edited text is checked as `regimen check` checks
/// it and planned with as if it were on disk, in memory only, within the service's limits.
// Serialized: each case loads the whole rule set once or twice; run side by side, the property's
// 44 cases would crowd out the other service suites, whose requests have a time budget.
@Suite(.serialized) struct PlaygroundTests {
    typealias Support = ServiceTestSupport

    static let file = "rules/training-volume.yaml"
    static var served: String {
        get throws { try String(contentsOf: Support.root.appendingPathComponent(file), encoding: .utf8) }
    }

    /// `served` with the value of `key:` replaced by `value`, and where that value starts.
    static func editing(_ text: String, key: String, to value: String) throws -> (text: String, line: Int, column: Int) {
        let marker = "\n\(key): "
        let start = try #require(text.range(of: marker)).upperBound
        let end = text[start...].firstIndex(of: "\n") ?? text.endIndex
        let before = text[..<start]
        let line = before.filter { $0 == "\n" }.count + 1
        let column = before.distance(from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex, to: before.endIndex) + 1
        return (String(before) + value + String(text[end...]), line, column)
    }

    static func body(_ fields: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: [UInt8](try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])))
    }

    /// A JSON value as text with sorted keys, to compare values parsed from different texts.
    static func canonical(_ value: Any?) throws -> String {
        guard let value else { return "null" }
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try Support.value(response) as? [String: Any], "\(Support.text(response))")
    }

    // MARK: - Check

    @Test func brokenTextGetsEveryProblemLocatedInOnePassAndTheServedTextNone() async throws {
        let served = try Self.served
        let first = try Self.editing(served, key: "target_position", to: "halfway")
        let second = try Self.editing(first.text, key: "default_experience", to: "[novice")
        let server = try Support.server()
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/playground/check", method: .post, headers: Support.json,
                                     body: try Self.body(["path": Self.file, "text": served])) { response in
                #expect(response.status == .ok)
                let body = try Self.object(response)
                #expect(body["ok"] as? Bool == true)
                #expect((body["diagnostics"] as? [Any])?.isEmpty == true, "\(body)")
            }
            // A type error: located at the value, with the key and the value named.
            try await client.execute(uri: "/v1/playground/check", method: .post, headers: Support.json,
                                     body: try Self.body(["path": Self.file, "text": first.text])) { response in
                #expect(response.status == .ok)
                let body = try Self.object(response)
                #expect(body["ok"] as? Bool == false)
                let diagnostics = try #require(body["diagnostics"] as? [[String: Any]])
                let located = diagnostics.filter { $0["location"] as? String == "\(Self.file):\(first.line):\(first.column)" }
                #expect(located.count == 1, "\(diagnostics)")
                let message = located.first?["message"] as? String ?? ""
                #expect(message.contains("target_position") && message.contains("halfway"), "\(message)")
                #expect(located.first?["severity"] as? String == "error")
                #expect(located.first?["text"] as? String == "\(Self.file):\(first.line):\(first.column): error: \(message)")
            }
            // A YAML syntax error stops the file (its type errors are not reached, as in regimen
            // check); it is located in the file, at or after the unclosed bracket.
            try await client.execute(uri: "/v1/playground/check", method: .post, headers: Support.json,
                                     body: try Self.body(["path": Self.file, "text": second.text])) { response in
                let diagnostics = try #require(try Self.object(response)["diagnostics"] as? [[String: Any]])
                let ids = diagnostics.compactMap { $0["id"] as? String }
                #expect(ids.contains("yaml.syntax"), "\(ids)")
                #expect(diagnostics.contains { $0["id"] as? String == "yaml.syntax" && $0["file"] as? String == Self.file && ($0["line"] as? Int ?? 0) >= second.line },
                        "\(diagnostics)")
            }
        }
    }

    @Test func checkFindsEveryErrorOfAFileThatStillParses() async throws {
        // Two type errors in one YAML document: both are reported, each at its place.
        let served = try Self.served
        let first = try Self.editing(served, key: "target_position", to: "halfway")
        let second = try Self.editing(first.text, key: "default_experience", to: "expert")
        let server = try Support.server()
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/playground/check", method: .post, headers: Support.json,
                                     body: try Self.body(["path": Self.file, "text": second.text])) { response in
                let diagnostics = try #require(try Self.object(response)["diagnostics"] as? [[String: Any]])
                let lines = Set(diagnostics.compactMap { $0["line"] as? Int })
                #expect(lines.contains(first.line) && lines.contains(second.line), "\(diagnostics)")
            }
        }
    }

    // MARK: - Plan

    /// The engine of a copy of the rules with `text` written to `file`: what the edit would
    /// give if it were saved and served.
    static func engineWithEditOnDisk(_ text: String) throws -> RegimenEngine {
        let copy = try Support.copyOfRules()
        try Data(text.utf8).write(to: copy.appendingPathComponent(file))
        return try RegimenEngine(rules: copy.appendingPathComponent("rules"), catalogs: copy.appendingPathComponent("catalogs"))
    }

    @Test func aPlanWithAnEditedNumberIsTheEditOnDiskAndItsChangesAreImpactsWording() async throws {
        let edit = try Self.editing(try Self.served, key: "target_position", to: "1")
        let server = try Support.server()
        let name = "client-001.yaml"
        let profile = try Data(contentsOf: Support.root.appendingPathComponent("examples/panel/\(name)"))
        let onDisk = try Self.engineWithEditOnDisk(edit.text)
        let expected = PlanImpact.compare(base: server.store.current.engine, new: onDisk, panel: [PlanImpact.Client(name: name, profile: profile)])
        let expectedSummaries = expected.changed.first?.changes.map(\.summary) ?? []
        #expect(!expectedSummaries.isEmpty)
        let servedPlan = try Self.canonical(try JSONSerialization.jsonObject(with: Data(try server.store.current.engine.generatePlan(profile).json().utf8)))
        let editedPlan = try Self.canonical(try JSONSerialization.jsonObject(with: Data(try onDisk.generatePlan(profile).json().utf8)))
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/playground/plan", method: .post, headers: Support.json,
                                     body: try Self.body(["path": Self.file, "text": edit.text, "client": name])) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let body = try Self.object(response)
                #expect(body["changed"] as? Bool == true)
                let changes = try #require(body["changes"] as? [[String: Any]])
                #expect(changes.compactMap { $0["summary"] as? String } == expectedSummaries)
                let served = try Self.canonical((body["served"] as? [String: Any])?["plan"])
                let edited = try Self.canonical((body["edited"] as? [String: Any])?["plan"])
                #expect(served == servedPlan, "the served plan is /v1/plans' plan")
                #expect(edited == editedPlan, "the edited plan is the plan with the edit saved")
                #expect(served != edited)
            }
            // The same edit for an inline profile.
            let inline = try #require(try Support.value(try await client.execute(
                uri: "/v1/playground/plan", method: .post, headers: Support.json,
                body: try Self.body(["path": Self.file, "text": edit.text, "profile": ["sex": "female", "schedule_days": 3]]))) as? [String: Any])
            #expect(inline["client"] as? String == "profile")
            #expect(inline["changed"] as? Bool == true)
        }
        // Nothing served changed: the files, the revision, the plans.
        #expect(try Self.served == (try String(contentsOf: Support.root.appendingPathComponent(Self.file), encoding: .utf8)))
        #expect(try !Self.served.contains("target_position: 1\n"))
        #expect(try server.store.current.engine.generatePlan(profile).json() == (try RegimenEngine(rules: Support.root.appendingPathComponent("rules")).generatePlan(profile).json()))
    }

    /// The compare table's block rows are placed as the changes name them (issue 30 item 5): a
    /// muscle added mid-list to the upper day adds one block there, named in the changes; the
    /// upper-day blocks after it that kept their exercise and dose stay unchanged rows (placed
    /// by position, each would have shown as changed).
    @Test func theBlockRowsAreAlignedAsTheChangesNameThem() async throws {
        let path = "catalogs/plan-templates.yaml"
        let served = try String(contentsOf: Support.root.appendingPathComponent(path), encoding: .utf8)
        let old = "    focus: Upper body\n    muscles: [chest, back, shoulders, triceps, biceps]"
        #expect(served.contains(old))
        let text = served.replacingOccurrences(of: old, with: "    focus: Upper body\n    muscles: [chest, back, core, shoulders, triceps, biceps]")
        let server = try Support.server()
        try await server.application(.private).test(.router) { client in
            let body = try #require(try Support.value(try await client.execute(
                uri: "/v1/playground/plan", method: .post, headers: Support.json,
                body: try Self.body(["path": path, "text": text, "profile": ["sex": "female", "schedule_days": 4, "equipment": "full_gym"]]))) as? [String: Any])
            let measures = (body["changes"] as? [[String: Any]] ?? []).compactMap { $0["measure"] as? String }
            let rows = try #require(body["blocks"] as? [[String: Any]])
            let upper = rows.filter { ($0["place"] as? String)?.contains("(Upper body)") == true }
            let added = try #require(upper.firstIndex { $0["served"] is NSNull && $0["edited"] is String }, "\(upper)")
            #expect(upper[(added + 1)...].contains { ($0["served"] as? String) == ($0["edited"] as? String) }, "\(upper)")
            for row in rows where (row["served"] as? String) != (row["edited"] as? String) {
                let place = try #require(row["place"] as? String)
                #expect(measures.contains { $0 == place || $0.hasPrefix(place + ", ") }, "\(place) is not named in \(measures)")
            }
        }
    }

    @Test func rulesThatDoNotLoadAnswer422AtTheirPlace() async throws {
        let edit = try Self.editing(try Self.served, key: "target_position", to: "halfway")
        let server = try Support.server()
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/playground/plan", method: .post, headers: Support.json,
                                     body: try Self.body(["path": Self.file, "text": edit.text, "client": "client-001.yaml"])) { response in
                #expect(response.status == .unprocessableContent)
                let problems = try #require(try Self.object(response)["problems"] as? [[String: Any]])
                #expect(problems.contains { $0["path"] as? String == "\(Self.file):\(edit.line):\(edit.column)" }, "\(problems)")
            }
        }
    }

    @Test func badRequestsAreRefusedWithTheirField() async throws {
        let server = try Support.server()
        let text = try Self.served
        let cases = try ([

            (["text": text], .unprocessableContent, "path"),
            (["path": Self.file], .unprocessableContent, "text"),
            (["path": Self.file, "text": 3], .unprocessableContent, "text"),
            (["path": Self.file, "text": text, "extra": true], .unprocessableContent, "extra"),
            (["path": "rules/missing.yaml", "text": text], .notFound, "path"),
            (["path": "../Package.swift", "text": text], .notFound, "path"),
            (["path": "rules/security/coach-app/firestore.rules", "text": text], .unprocessableContent, "path"),
        ] as [([String: Any], HTTPResponse.Status, String)]).map { (try Self.body($0.0), $0.0.keys.sorted(), $0.1, $0.2) }
        let planCases = try ([
            (["path": Self.file, "text": text], .unprocessableContent),
            (["path": Self.file, "text": text, "client": "client-001.yaml", "profile": ["sex": "male"]], .unprocessableContent),
            (["path": Self.file, "text": text, "client": "../minimal.yaml"], .notFound),
            (["path": Self.file, "text": text, "client": 7], .unprocessableContent),
            (["path": Self.file, "text": text, "profile": ["sex": "robot", "schedule_days": 3]], .unprocessableContent),
        ] as [([String: Any], HTTPResponse.Status)]).map { (try Self.body($0.0), $0.0.keys.sorted(), $0.1) }
        try await server.application(.private).test(.router) { client in
            for (body, keys, status, field) in cases {
                try await client.execute(uri: "/v1/playground/check", method: .post, headers: Support.json, body: body) { response in
                    #expect(response.status == status, "\(keys): \(Support.text(response))")
                    let problems = try #require(try Self.object(response)["problems"] as? [[String: Any]])
                    #expect(problems.contains { $0["path"] as? String == field }, "\(problems)")
                }
            }
            for (body, keys, status) in planCases {
                try await client.execute(uri: "/v1/playground/plan", method: .post, headers: Support.json, body: body) { response in
                    #expect(response.status == status, "\(keys): \(Support.text(response))")
                }
            }
        }
    }

    @Test func aBodyOverTheLimitIs413() async throws {
        let server = try Support.server(Support.configuration(maximumBodyBytes: 4096))
        let text = try Self.served + String(repeating: "# padding\n", count: 1000)
        try await server.application(.private).test(.router) { client in
            for path in ["/v1/playground/check", "/v1/playground/plan", "/v1/playground/impact"] {
                try await client.execute(uri: path, method: .post, headers: Support.json,
                                         body: try Self.body(["path": Self.file, "text": text, "client": "client-001.yaml"])) { response in
                    #expect(response.status == .contentTooLarge, "\(path)")
                }
            }
        }
    }

    @Test func answersAreTheSameForTheSameRequest() async throws {
        let edit = try Self.editing(try Self.served, key: "target_position", to: "0.9")
        let broken = try Self.editing(try Self.served, key: "target_position", to: "[")
        let server = try Support.server()
        try await server.application(.private).test(.router) { client in
            for (path, fields) in [
                ("/v1/playground/check", ["path": Self.file, "text": broken.text]),
                ("/v1/playground/plan", ["path": Self.file, "text": edit.text, "client": "client-007.yaml"]),
            ] as [(String, [String: Any])] {
                var answers: [String] = []
                for _ in 0..<3 {
                    answers.append(try await client.execute(uri: path, method: .post, headers: Support.json, body: try Self.body(fields)) { Support.text($0) })
                }
                #expect(Set(answers).count == 1, "\(path)")
            }
        }
    }

    /// Texts a caller could send as a rule file: each gets an answer (diagnostics), never a trap
    /// or a stall. A stall would hang the test until its time limit, a generous one: how fast
    /// the answers come depends on the machine, and speed is the benchmarks' business.
    @Test(.timeLimit(.minutes(10))) func hostileTextsGetDiagnosticsNeverATrapOrAStall() async throws {
        let laughs = (1...9).map { level in "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]" }
        let texts = [
            "", "\u{0}", "kind: training_volume\nversion: 99\n", "kind: [", String(repeating: "[", count: 20_000),
            String(repeating: "a: ", count: 5_000) + "1", "l0: &l0 [x]\n" + laughs.joined(separator: "\n"),
            "kind: training_volume\nkind: training_volume\n", String(repeating: "x", count: 200_000), "\t\tkind:\n\t- 1",
            "kind: training_volume\nversion: 1\nbands: {rows: [{when: \"" + String(repeating: "(", count: 5_000) + "\", sets: 8-12}]}\n",
        ]
        let server = try Support.server()
        try await server.application(.private).test(.router) { client in
            for text in texts {
                for path in ["/v1/playground/check", "/v1/playground/plan"] {
                    let fields: [String: Any] = path.hasSuffix("plan") ? ["path": Self.file, "text": text, "client": "client-001.yaml"] : ["path": Self.file, "text": text]
                    try await client.execute(uri: path, method: .post, headers: Support.json, body: try Self.body(fields)) { response in
                        #expect([.ok, .badRequest, .unprocessableContent].contains(response.status), "\(path) \(text.prefix(30)): \(response.status)")
                        let body = try Self.object(response)
                        if path.hasSuffix("check"), response.status == .ok {
                            #expect(body["ok"] as? Bool == false, "\(text.prefix(30))")
                        } else if response.status != .ok {
                            #expect(!((body["problems"] as? [Any]) ?? []).isEmpty, "\(text.prefix(30))")
                        }
                    }
                }
            }
        }
    }

    // MARK: - Panel

    /// A panel folder with the first `count` clients of examples/panel.
    static func smallPanel(_ count: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-panel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 1...count {
            let name = String(format: "client-%03d.yaml", index)
            try FileManager.default.copyItem(at: Support.root.appendingPathComponent("examples/panel/\(name)"), to: folder.appendingPathComponent(name))
        }
        return folder
    }

    @Test func theWholePanelIsGroupedAsRegimenImpactGroupsIt() async throws {
        let panel = try Self.smallPanel(4)
        var configuration = Support.configuration()
        configuration.panel = panel
        let server = try Support.server(configuration)
        let edit = try Self.editing(try Self.served, key: "target_position", to: "1")
        let clients = try (1...4).map { index in
            let name = String(format: "client-%03d.yaml", index)
            return PlanImpact.Client(name: name, profile: try Data(contentsOf: panel.appendingPathComponent(name)))
        }
        let expected = PlanImpact.compare(base: server.store.current.engine, new: try Self.engineWithEditOnDisk(edit.text), panel: clients)
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/playground/panel", method: .get) { response in
                let body = try Self.object(response)
                #expect(body["clients"] as? [String] == clients.map(\.name))
            }
            try await client.execute(uri: "/v1/playground/impact", method: .post, headers: Support.json,
                                     body: try Self.body(["path": Self.file, "text": edit.text])) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
                let body = try Self.object(response)
                #expect(body["clients"] as? Int == 4)
                #expect(body["changed"] as? Int == expected.changed.count)
                let groups = try #require(body["groups"] as? [[String: Any]])
                #expect(groups.compactMap { $0["summary"] as? String } == expected.groups.map(\.summary))
                let text = try #require(body["text"] as? String)
                #expect(text == expected.text(title: "Impact of the edited \(Self.file) against the served rules on 4 clients"))
            }
        }
    }

    // MARK: - Property: the served text changes nothing

    /// Every served rules or catalogs YAML file, for the property below.
    static let servedFiles: [String] = {
        let manager = FileManager.default
        var files: [String] = []
        for folder in ["rules", "catalogs"] {
            let base = Support.root.appendingPathComponent(folder)
            guard let enumerator = manager.enumerator(atPath: base.path) else { continue }
            for case let path as String in enumerator where path.hasSuffix(".yaml") || path.hasSuffix(".yml") {
                files.append("\(folder)/\(path)")
            }
        }
        return files.sorted()
    }()

    static let sharedServer: RegimenServer? = try? Support.server()

    /// For every served file: its own unchanged text checks clean, and planning with it changes
    /// nothing for a grid of panel clients (each file takes a different pair, so the grid covers
    /// the panel's variety across files).
    @Test(arguments: servedFiles.enumerated().map { $0 })
    func theServedTextOfEveryFileChecksCleanAndChangesNoPlan(_ index: Int, _ file: String) async throws {
        let server = try #require(Self.sharedServer)
        let text = try String(contentsOf: Support.root.appendingPathComponent(file), encoding: .utf8)
        let names = [index * 11 % 240 + 1, (index * 11 + 120) % 240 + 1].map { String(format: "client-%03d.yaml", $0) }
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/playground/check", method: .post, headers: Support.json,
                                     body: try Self.body(["path": file, "text": text])) { response in
                #expect(response.status == .ok, "\(file): \(Support.text(response))")
                let body = try Self.object(response)
                #expect(body["ok"] as? Bool == true && (body["diagnostics"] as? [Any])?.isEmpty == true, "\(file): \(body["diagnostics"] ?? "")")
            }
            for name in names {
                try await client.execute(uri: "/v1/playground/plan", method: .post, headers: Support.json,
                                         body: try Self.body(["path": file, "text": text, "client": name])) { response in
                    #expect(response.status == .ok, "\(file) \(name): \(Support.text(response))")
                    let body = try Self.object(response)
                    #expect(body["changed"] as? Bool == false && (body["changes"] as? [Any])?.isEmpty == true, "\(file) \(name): \(body["changes"] ?? "")")
                    let served = body["served"] as? [String: Any], edited = body["edited"] as? [String: Any]
                    #expect(try Self.canonical(served?["plan"]) == (try Self.canonical(edited?["plan"])), "\(file) \(name)")
                }
            }
        }
    }
}
