import Foundation
import RegimenTestSupport
import Testing

/// One `regimen` run whose whole output (status, standard output, standard error) is kept as a
/// golden file, so a refactoring that changes any byte of any command's output on the shipped
/// examples shows up as a failing case naming the first changed line.
struct CommandGoldenCase: CustomTestStringConvertible, Sendable {
    /// The golden's file name under `Tests/Goldens/commands/`, without `.txt`.
    let name: String
    /// The arguments after `regimen`; `$SCRATCH` stands for the case's scratch folder.
    let arguments: [String]
    /// Files made before the run: scratch-relative path → the arguments of a run whose standard
    /// output fills it (how `adapt` gets a plan without a checked-in plan file).
    var prepare: [(file: String, arguments: [String])] = []

    var testDescription: String { name }
}

/// Every shipped example through the commands that read it, in text and JSON.
enum CommandGoldenCases {
    static let root = RepositoryRoot.url

    /// Files of a repository folder with one of the extensions, sorted, as repository-relative paths.
    static func files(in folder: String, extensions: Set<String>, recursive: Bool = false) -> [String] {
        let base = root.appendingPathComponent(folder)
        var found: [String] = []
        if recursive {
            let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                let relative = url.path.dropFirst(base.path.count + 1)
                if extensions.contains(url.pathExtension) { found.append("\(folder)/\(relative)") }
            }
        } else {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
            found = names.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension) }.map { "\(folder)/\($0)" }
        }
        return found.sorted()
    }

    /// A file's path as a case-name fragment: `examples/minimal.yaml` → `minimal`.
    static func stem(_ path: String, dropping prefix: String) -> String {
        var trimmed = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        for suffix in [".tests.yaml", ".yaml", ".json", ".rules"] where trimmed.hasSuffix(suffix) {
            trimmed = String(trimmed.dropLast(suffix.count))
            break
        }
        return trimmed.replacingOccurrences(of: "/", with: "-")
    }

    /// The profiles among the examples (the indexes request is a profile too, the seed's own shape).
    static var profiles: [String] { files(in: "examples", extensions: ["yaml", "json"]) }

    static var checkIns: [String] { files(in: "examples/checkins", extensions: ["yaml", "json"]) }

    static var securityTests: [String] {
        files(in: "rules/security", extensions: ["yaml"], recursive: true).filter { $0.hasSuffix(".tests.yaml") }
    }

    static var policies: [String] {
        files(in: "rules/security", extensions: ["rules", "yaml"], recursive: true).filter { !$0.hasSuffix(".tests.yaml") }
    }

    static var all: [CommandGoldenCase] {
        var cases: [CommandGoldenCase] = []
        let profiles = profiles
        for profile in profiles {
            let name = stem(profile, dropping: "examples/")
            for command in ["plan", "indexes", "nutrition", "supplements"] {
                cases.append(CommandGoldenCase(name: "\(command)-\(name)", arguments: [command, profile]))
                cases.append(CommandGoldenCase(name: "\(command)-\(name)-json", arguments: [command, profile, "--format", "json"]))
            }
            cases.append(CommandGoldenCase(name: "plan-\(name)-explain", arguments: ["plan", profile, "--explain"]))
            for checkIns in checkIns {
                let checkName = stem(checkIns, dropping: "examples/checkins/")
                let prepare = [(file: "plan.json", arguments: ["plan", profile, "--format", "json"])]
                cases.append(CommandGoldenCase(name: "adapt-\(name)-\(checkName)", arguments: ["adapt", "$SCRATCH/plan.json", checkIns], prepare: prepare))
                cases.append(CommandGoldenCase(
                    name: "adapt-\(name)-\(checkName)-json", arguments: ["adapt", "$SCRATCH/plan.json", checkIns, "--format", "json"], prepare: prepare))
            }
        }
        // Each profile against the next: every pair of neighbours differs in several inputs.
        for (old, new) in zip(profiles, profiles.dropFirst() + profiles.prefix(1)) {
            let name = "diff-\(stem(old, dropping: "examples/"))-to-\(stem(new, dropping: "examples/"))"
            cases.append(CommandGoldenCase(name: name, arguments: ["diff", old, new]))
            cases.append(CommandGoldenCase(name: name + "-json", arguments: ["diff", old, new, "--format", "json"]))
        }
        for goal in ["fat_loss", "general_health", "stress_recovery"] {
            cases.append(CommandGoldenCase(name: "supplements-complete-goal-\(goal)", arguments: ["supplements", "examples/complete.yaml", "--goal", goal]))
        }
        cases.append(CommandGoldenCase(name: "one-rep-max", arguments: ["one-rep-max", "--load", "100", "--reps", "5"]))
        cases.append(CommandGoldenCase(name: "one-rep-max-json", arguments: ["one-rep-max", "--load", "100", "--reps", "5", "--format", "json"]))
        cases += trackerCases + securityCases
        cases.append(CommandGoldenCase(name: "check", arguments: ["check"]))
        cases.append(CommandGoldenCase(name: "eval-arithmetic", arguments: ["eval", "[1, 2.5, 'a'].size() + 2 * 3"]))
        cases.append(CommandGoldenCase(name: "eval-error", arguments: ["eval", "1 + foo * 2"]))
        return cases
    }

    static var trackerCases: [CommandGoldenCase] {
        var cases: [CommandGoldenCase] = []
        for tree in ["examples/tracker/program.json", "examples/tracker/invalid-program.yaml"] {
            let name = stem(tree, dropping: "examples/tracker/")
            cases.append(CommandGoldenCase(name: "validate-\(name)", arguments: ["validate", tree]))
            cases.append(CommandGoldenCase(name: "validate-\(name)-json", arguments: ["validate", tree, "--format", "json"]))
            cases.append(CommandGoldenCase(name: "analytics-\(name)", arguments: ["analytics", tree]))
            cases.append(CommandGoldenCase(name: "export-\(name)-json", arguments: ["export", tree]))
            cases.append(CommandGoldenCase(name: "export-\(name)-csv", arguments: ["export", tree, "--to", "csv"]))
            cases.append(CommandGoldenCase(
                name: "duplicate-\(name)-week",
                arguments: ["duplicate", tree, "--week", "week1", "--user", "alex", "--now", "2026-02-01T00:00:00Z", "--seed", "7"]))
            cases.append(CommandGoldenCase(
                name: "duplicate-\(name)-week-json",
                arguments: ["duplicate", tree, "--week", "week1", "--user", "alex", "--now", "2026-02-01T00:00:00Z", "--seed", "7", "--format", "json"]))
        }
        let log = "examples/tracker/completion-log.json"
        cases.append(CommandGoldenCase(name: "progress-completion-log", arguments: ["progress", log]))
        cases.append(CommandGoldenCase(name: "progress-completion-log-json", arguments: ["progress", log, "--format", "json"]))
        cases.append(CommandGoldenCase(name: "progress-completion-log-day-20", arguments: ["progress", log, "--today", "20"]))
        let daily = "examples/tracker/daily-log.yaml"
        let now = ["--now", "2026-02-10T00:00:00Z"]
        cases.append(CommandGoldenCase(name: "daily-log", arguments: ["daily-log", daily] + now))
        cases.append(CommandGoldenCase(name: "daily-log-json", arguments: ["daily-log", daily, "--format", "json"] + now))
        cases.append(CommandGoldenCase(name: "daily-log-new-york", arguments: ["daily-log", daily, "--timezone", "America/New_York"] + now))
        cases.append(CommandGoldenCase(name: "daily-log-seed-002", arguments: ["daily-log", daily, "--formula", "seed_002"] + now))
        for intensity in ["light", "moderate", "vigorous"] {
            cases.append(CommandGoldenCase(name: "burn-running-\(intensity)", arguments: ["burn", "running", "--minutes", "30", "--intensity", intensity]))
        }
        cases.append(CommandGoldenCase(name: "burn-running-json", arguments: ["burn", "running", "--minutes", "45", "--intensity", "moderate", "--weight", "82", "--format", "json"]))
        cases.append(CommandGoldenCase(name: "burn-list", arguments: ["burn", "--list"]))
        cases.append(CommandGoldenCase(name: "burn-list-json", arguments: ["burn", "--list", "--format", "json"]))
        for goal in ["strength", "lean_mass", "fat_loss", "recomp"] {
            cases.append(CommandGoldenCase(name: "periodize-\(goal)", arguments: ["periodize", "--weeks", "12", "--goal", goal]))
        }
        cases.append(CommandGoldenCase(name: "periodize-strength-json", arguments: ["periodize", "--weeks", "8", "--goal", "strength", "--format", "json"]))
        cases.append(CommandGoldenCase(
            name: "periodize-ramp", arguments: ["periodize", "--weeks", "10", "--goal", "strength", "--start-intensity", "0.65", "--end-intensity", "0.85"]))
        for effort in ["recovery", "standard", "push_it"] {
            cases.append(CommandGoldenCase(name: "periodize-effort-\(effort)", arguments: ["periodize", "--effort", effort]))
        }
        cases.append(CommandGoldenCase(name: "select-chest", arguments: ["select", "--muscle", "chest", "--top", "8"]))
        cases.append(CommandGoldenCase(name: "select-chest-json", arguments: ["select", "--muscle", "chest", "--top", "5", "--format", "json"]))
        cases.append(CommandGoldenCase(name: "indexes-check", arguments: ["indexes-check"]))
        return cases
    }

    static var securityCases: [CommandGoldenCase] {
        var cases: [CommandGoldenCase] = []
        for file in securityTests {
            let name = stem(file, dropping: "rules/security/")
            cases.append(CommandGoldenCase(name: "test-\(name)", arguments: ["test", file]))
            cases.append(CommandGoldenCase(name: "test-\(name)-json", arguments: ["test", file, "--format", "json"]))
            cases.append(CommandGoldenCase(name: "test-\(name)-junit", arguments: ["test", file, "--format", "junit"]))
            cases.append(CommandGoldenCase(name: "test-\(name)-coverage", arguments: ["test", file, "--coverage", "--coverage-output", "$SCRATCH/coverage"]))
        }
        // Plan tests: the shipped suite for the coaching rules, text, JSON, JUnit and coverage.
        let planTests = "rules/tests/plan-tests-training.yaml"
        cases.append(CommandGoldenCase(name: "test-plan-tests-training", arguments: ["test", planTests]))
        cases.append(CommandGoldenCase(name: "test-plan-tests-training-json", arguments: ["test", planTests, "--format", "json"]))
        cases.append(CommandGoldenCase(name: "test-plan-tests-training-junit", arguments: ["test", planTests, "--format", "junit"]))
        cases.append(CommandGoldenCase(
            name: "test-plan-tests-coverage",
            arguments: ["test", "rules/tests/plan-tests-adaptation.yaml", "rules/tests/plan-tests-nutrition.yaml", "rules/tests/plan-tests-supplements.yaml",
                        planTests, "--coverage", "--coverage-output", "$SCRATCH/coverage"]))
        for policy in policies {
            let name = stem(policy, dropping: "rules/security/")
            cases.append(CommandGoldenCase(name: "audit-\(name)", arguments: ["audit", policy]))
            cases.append(CommandGoldenCase(name: "convert-\(name)", arguments: ["rules", "convert", policy]))
        }
        let tracker = "rules/security/workout-tracker/corrected.rules"
        let alice = #"{"uid": "alice"}"#
        let requests: [(String, [String])] = [
            ("authorize-owner-get", ["--rules", tracker, "--auth", alice, "--op", "get", "--path", "users/alice"]),
            ("authorize-stranger-get", ["--rules", tracker, "--auth", #"{"uid": "bob"}"#, "--op", "get", "--path", "users/alice", "--explain"]),
            ("authorize-signed-out", ["--rules", tracker, "--op", "get", "--path", "users/alice"]),
            ("authorize-create-program", ["--rules", tracker, "--auth", alice, "--op", "create", "--path", "users/alice/programs/p2",
                                          "--data", #"{"name": "Push", "userId": "alice", "createdAt": {"$timestamp": "2026-01-05T08:00:00Z"}}"#]),
            ("authorize-create-bad-name", ["--rules", tracker, "--auth", alice, "--op", "create", "--path", "users/alice/programs/p2",
                                           "--data", #"{"name": 5, "userId": "alice"}"#, "--explain"]),
            ("authorize-list", ["--rules", tracker, "--auth", alice, "--op", "list", "--path", "users/alice/programs",
                                "--query", #"{"limit": 10, "where": [["userId", "==", "alice"]]}"#]),
            ("authorize-appendix-a", ["--rules", "rules/security/workout-tracker/appendix-a.rules", "--auth", alice, "--op", "get", "--path", "users/alice"]),
            ("authorize-storage-upload", ["--rules", "rules/security/trainer-student/storage.rules", "--auth", alice, "--op", "upload",
                                          "--path", "workouts/alice/plan.pdf", "--size", "1000", "--content-type", "application/pdf", "--explain"]),
        ]
        for (name, arguments) in requests {
            cases.append(CommandGoldenCase(name: name, arguments: ["authorize"] + arguments))
        }
        return cases
    }
}

@Suite("command output matches the goldens")
struct CommandGoldenTests {
    static let cases = CommandGoldenCases.all

    @Test("every command on every shipped example prints what its golden says", arguments: cases)
    func commandMatchesGolden(_ goldenCase: CommandGoldenCase) throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let root = RepositoryRoot.url
        func resolve(_ arguments: [String]) -> [String] {
            arguments.map { $0.replacingOccurrences(of: "$SCRATCH", with: scratch.url.path) }
        }
        for step in goldenCase.prepare {
            let made = runRegimen(resolve(step.arguments), in: root)
            #expect(made.status == 0, "preparing \(step.file): \(made.standardError)")
            try scratch.write(made.standardOutput, to: step.file)
        }
        let run = runRegimen(resolve(goldenCase.arguments), in: root)
        let text = Self.transcript(of: goldenCase.arguments, run, scratch: scratch.url.path, root: root.path)
        let mismatch = GoldenFile("commands/\(goldenCase.name).txt").check(text)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test("every golden file belongs to a case (a removed case leaves no stale golden)")
    func noOrphanGoldens() throws {
        let folder = GoldenFile.folder.appendingPathComponent("commands")
        let names = Set(Self.cases.map { "\($0.name).txt" })
        #expect(names.count == Self.cases.count, "two cases share a golden name")
        guard !GoldenFile.isRecording else {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !names.contains(file) {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
            }
            return
        }
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(files.subtracting(names).sorted() == [])
    }

    /// The run as one text: the command line, the status and both streams, with the scratch and
    /// repository folders replaced by placeholders so the golden is the same on every machine.
    static func transcript(of arguments: [String], _ run: CommandRun, scratch: String, root: String) -> String {
        func placeholders(_ text: String) -> String {
            text.replacingOccurrences(of: scratch, with: "$SCRATCH").replacingOccurrences(of: root, with: "$ROOT")
        }
        return """
        $ regimen \(arguments.joined(separator: " "))
        exit status: \(run.status)
        --- standard output
        \(placeholders(run.standardOutput))
        --- standard error
        \(placeholders(run.standardError))
        """
    }
}
