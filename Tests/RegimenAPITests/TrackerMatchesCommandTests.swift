import Foundation
@testable import RegimenKit
import Testing

/// The tracker functions through the engine print what `regimen validate`, `analytics`,
/// `export` and `periodize` print, on every tracker tree in examples/tracker/.
@Suite struct TrackerMatchesCommandTests {
    static let regimen = EngineMatchesCommandTests.regimen
    static let trees = ["examples/tracker/program.json", "examples/tracker/invalid-program.yaml"]

    @Test(arguments: trees) func validateAnalyticsAndExport(_ path: String) throws {
        let engine = try ReadmeExamplesTests.loaded()
        let tree = try engine.trackerTree(from: Data(contentsOf: ReadmeExamplesTests.root.appendingPathComponent(path)), name: path)
        let report = try engine.validate(tree)
        let validate = Self.regimen(["validate", path, "--format", "json"])
        #expect(validate.output == report.json())
        #expect(validate.status == (report.errorCount == 0 ? 0 : 1))

        let analytics = Self.regimen(["analytics", path])
        #expect(analytics.output == (try engine.analytics(tree)).json())

        #expect(Self.regimen(["export", path]).output == tree.json())
        let csv = tree.csv()
        #expect(Self.regimen(["export", path, "--to", "csv"]).output == csv)
        // The CSV reads back into the same tree.
        #expect(try engine.trackerTree(fromCSV: csv).json() == tree.json())
    }

    @Test func theValidExampleIsValidAndTheInvalidOneIsNot() throws {
        let engine = try ReadmeExamplesTests.loaded()
        func report(_ path: String) throws -> TrackerValidationReport {
            try engine.validate(engine.trackerTree(from: Data(contentsOf: ReadmeExamplesTests.root.appendingPathComponent(path)), name: path))
        }
        #expect(try report(Self.trees[0]).errorCount == 0)
        #expect(try report(Self.trees[1]).errorCount > 0)
    }

    @Test(arguments: [(12, "strength", nil), (8, "fat_loss", nil), (16, "lean_mass", (0.65, 0.85))] as [(Int, String, (Double, Double)?)])
    func periodize(_ weeks: Int, _ goal: String, _ ramp: (Double, Double)?) throws {
        let plan = try ReadmeExamplesTests.loaded().periodize(weeks: weeks, goal: goal, ramp: ramp.map { (start: $0.0, end: $0.1) })
        var arguments = ["periodize", "--weeks", String(weeks), "--goal", goal, "--format", "json"]
        if let ramp { arguments += ["--start-intensity", String(ramp.0), "--end-intensity", String(ramp.1)] }
        let run = Self.regimen(arguments)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == plan.json())
    }

    /// The completion log example as it is, on another day, and without its `today` (the
    /// present gives it).
    @Test(arguments: [[], ["--today", "12"], ["--now", "2026-02-12T09:00:00Z"]])
    func progress(_ options: [String]) throws {
        let path = "examples/tracker/completion-log.json"
        var log = try String(contentsOf: ReadmeExamplesTests.root.appendingPathComponent(path), encoding: .utf8)
        let present = try #require(Timestamp(iso8601: "2026-02-12T09:00:00Z"))
        var file = path
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-api-log-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: scratch) }
        if options.first == "--now" {
            log = log.replacingOccurrences(of: ",\n  \"today\": 10", with: "")
            #expect(!log.contains("today"))
            try log.write(to: scratch, atomically: true, encoding: .utf8)
            file = scratch.path
        }
        let today = options.first == "--today" ? Int(options[1]) : nil
        let progress = try ReadmeExamplesTests.loaded().progress(Data(log.utf8), name: file, today: today, present: present)
        let run = Self.regimen(["progress", file, "--format", "json"] + options)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == progress.json())
        if options.first == "--now" { #expect(progress.totalDays > 0) }
    }

    @Test(arguments: [("running", 35, "vigorous", 82.0, nil), ("yoga", 30, "light", 60.0, "seed_002"), ("weight_training", 50, "moderate", 95.5, nil)]
          as [(String, Int, String, Double, String?)])
    func burn(_ activity: String, _ minutes: Int, _ intensity: String, _ weight: Double, _ formula: String?) throws {
        let result = try ReadmeExamplesTests.loaded().burn(activity: activity, minutes: minutes, intensity: intensity, weightKg: weight, formula: formula)
        var arguments = ["burn", activity, "--minutes", String(minutes), "--intensity", intensity, "--weight", String(weight), "--format", "json"]
        if let formula { arguments += ["--formula", formula] }
        let run = Self.regimen(arguments)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == result.json())
        #expect(result.kcal > 0)
    }

    /// The daily-log example by UTC days and by New York's, and with the seed's formula.
    @Test(arguments: [[], ["--timezone", "America/New_York"], ["--formula", "seed_002"]])
    func dailyLog(_ options: [String]) throws {
        let path = "examples/tracker/daily-log.yaml"
        let present = try #require(Timestamp(iso8601: "2026-02-05T00:00:00Z"))
        let zone = options.first == "--timezone" ? try #require(TimeZone(identifier: options[1])) : try #require(TimeZone(secondsFromGMT: 0))
        let totals = try ReadmeExamplesTests.loaded().dailyLog(
            Data(contentsOf: ReadmeExamplesTests.root.appendingPathComponent(path)), name: path, present: present, timeZone: zone,
            formula: options.first == "--formula" ? options[1] : nil)
        let run = Self.regimen(["daily-log", path, "--now", "2026-02-05T00:00:00Z", "--format", "json"] + options)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == totals.json())
        #expect(!totals.days.isEmpty)
    }

    /// Each level of examples/tracker/program.json copied, with the command's ids and writes.
    @Test(arguments: [(TrackerLevel.program, "ppl"), (.week, "week1"), (.workout, "push1"), (.exercise, "bench1")])
    func duplicate(_ level: TrackerLevel, _ id: String) throws {
        let engine = try ReadmeExamplesTests.loaded()
        let path = "examples/tracker/program.json"
        let tree = try engine.trackerTree(from: Data(contentsOf: ReadmeExamplesTests.root.appendingPathComponent(path)), name: path)
        let now = "2026-02-04T12:00:00Z"
        let result = try engine.duplicate(level, id: id, in: tree, user: "alex", now: try #require(Timestamp(iso8601: now)), seed: 7)
        let run = Self.regimen(["duplicate", path, "--\(level.rawValue)", id, "--user", "alex", "--now", now, "--seed", "7", "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == result.json())
        #expect(result.idMap.count >= 1)
        // Another user's tree is refused, as the command refuses it (status 1).
        let time = try #require(Timestamp(iso8601: now))
        do {
            _ = try engine.duplicate(level, id: id, in: tree, user: "mallory", now: time)
            Issue.record("a copy of another user's documents was made")
        } catch {
            #expect(!error.isInputError)
            let refused = Self.regimen(["duplicate", path, "--\(level.rawValue)", id, "--user", "mallory", "--now", now])
            #expect(refused.status == 1)
            #expect(refused.error == error.description + "\n")
        }
    }

    @Test func badTreesAndOptionsAreTypedErrors() throws {
        let engine = try ReadmeExamplesTests.loaded()
        do {
            _ = try engine.trackerTree(from: Data("programs: [\n".utf8), name: "tree.yaml")
            Issue.record("an unclosed list was read")
        } catch {
            #expect(error.code == .request)
            // Located in the tree's own file, line and column: data, not text to parse back.
            #expect(!error.diagnostics.isEmpty)
            #expect(error.diagnostics.allSatisfy { $0.location?.file == "tree.yaml" }, "\(error.diagnostics)")
        }
        // A day completed after today: the same problems, line for line, as the command's.
        let path = "examples/tracker/completion-log.json"
        let present = try #require(Timestamp(iso8601: "2026-02-12T09:00:00Z"))
        let log = try Data(contentsOf: ReadmeExamplesTests.root.appendingPathComponent(path))
        do {
            _ = try engine.progress(log, name: path, today: 5, present: present)
            Issue.record("a completed day after today was accepted")
        } catch {
            let run = Self.regimen(["progress", path, "--today", "5"])
            #expect(run.status == 2)
            #expect(run.error == error.description + "\n")
        }
        do {
            _ = try engine.periodize(weeks: 12, goal: "flying")
            Issue.record("an unknown goal was accepted")
        } catch {
            #expect(error.code == .option)
            #expect(error.isInputError)
        }
    }
}
