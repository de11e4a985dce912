import ArgumentParser
import Foundation
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// README: "Exit codes: 0 success, 1 a rule, test or evaluation failure, 2 a usage or input
/// error. Errors go to standard error." Every subcommand, with bad arguments and bad input files,
/// must exit 2, name the option or field at fault, and print nothing on standard output.
@Suite("Every command: exit 2 for usage and input errors")
struct ExitCodeTableTests {
    static let repository: URL = RepositoryRoot.url

    /// Bad input files, written once into a scratch directory.
    static let files: [String: String] = [
        "list.json": "[1, 2]",
        "broken.yaml": "a: [1, 2\n",
        "food.json": #"{"foods": [{"name": "toast", "calories": "lots", "timestamp": "2026-01-01T10:00:00Z"}]}"#,
        "syntax.rules": "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{db}/documents {\n    match /x/{id} {\n      allow read: if request.auth == ;\n    }\n  }\n}\n",
        "empty.pdf": "",
    ]

    /// Each row: arguments (`$D` is the scratch directory) and a text the error must contain.
    static let cases: [(arguments: [String], mentions: String)] = [
        (["check", "--rules", "$D/missing"], "rules directory"),
        (["explain-kind", "no_such_kind"], "no_such_kind"),
        (["schema", "no_such_kind"], "no_such_kind"),
        (["eval", "1", "--bogus"], "--bogus"),
        (["eval", "x", "--vars", "$D/list.json"], "list.json"),
        (["bench", "--bogus"], "--bogus"),
        (["serve", "--bogus"], "--bogus"),
        (["serve", "--rules", "$D/missing"], "missing"),
        (["serve", "--port", "70000"], "--port must be 0–65535"),
        (["serve", "--policies", "$D/missing"], "--policies: no folder"),
        (["serve", "--max-body", "0"], "--max-body must be a positive number"),
        (["serve", "--otel-endpoint", "127.0.0.1:4318"], "--otel-endpoint must be an http:// or https:// URL"),
        (["serve", "--admin-token-file", "$D/missing-token"], "missing-token"),
        (["serve", "--firestore-emulator", "127.0.0.1:8089"], "live documents need --firestore-project"),
        (["serve", "--firestore-url", "https://firestore.googleapis.com", "--firestore-project", "p"], "--firestore-url needs --firestore-credentials"),
        (["serve", "--firestore-emulator", "127.0.0.1:8089", "--firestore-project", "p", "--documents", "rules"], "exclude each other"),
        (["serve", "--firestore-credentials", "$D/list.json", "--firestore-url", "https://f", "--firestore-project", "p"], "list.json"),
        (["plan", "$D/list.json"], "profile"),
        (["indexes", "$D/list.json"], "profile"),
        (["nutrition", "$D/broken.yaml"], "broken.yaml"),
        (["adapt", "$D/list.json", "$D/list.json"], "list.json"),
        (["diff", "$D/list.json", "$D/list.json"], "profile"),
        (["impact", "--base", "rules"], "panel"),
        (["impact", "--base", "rules", "$D/missing"], "missing"),
        (["impact", "--base", "$D/missing", "$D/list.json"], "missing"),
        (["impact", "--base", "git:--upload-pack=x", "$D/list.json"], "git revision"),
        (["supplements", "$D/list.json"], "profile"),
        (["test", "$D/list.json"], "list.json"),
        (["authorize", "--rules", "rules/security/workout-tracker/corrected.rules", "--op", "create", "--path", "users/a/programs/p"], "--data"),
        (["authorize", "--rules", "rules/security/workout-tracker/corrected.rules", "--op", "create", "--path", "users/a/programs/p",
          "--data", #"{"name": "#], "--data"),
        (["authorize", "--rules", "rules/security/workout-tracker/corrected.rules", "--op", "create", "--path", "users/a/programs/p",
          "--data", #"{"createdAt": {"$timestamp": "yesterday"}}"#], "--data"),
        (["authorize", "--rules", "rules/security/workout-tracker/corrected.rules", "--op", "fetch", "--path", "users/a"], "fetch"),
        (["rules", "convert", "$D/list.json"], "service"),
        (["audit", "$D/syntax.rules"], "syntax.rules:5:"),
        (["bench-security", "--bogus"], "--bogus"),
        (["validate", "$D/list.json"], "programs"),
        (["validate", "$D/broken.yaml"], "broken.yaml"),
        (["validate", "$D/missing.json"], "missing.json"),
        (["duplicate", "examples/tracker/program.json", "--week", "nope", "--user", "alex"], "nope"),
        (["duplicate", "$D/list.json", "--week", "w1"], "programs"),
        (["duplicate", "examples/tracker/program.json", "--week", "week1", "--seed", "-1"], "--seed"),
        (["analytics", "$D/list.json"], "programs"),
        (["export", "examples/tracker/program.json", "--week", "nope"], "--week"),
        (["export", "$D/list.json"], "programs"),
        (["progress", "$D/list.json"], "completion log"),
        (["progress", "examples/tracker/completion-log.json", "--today", "-2"], "today"),
        (["upload-check", "$D/missing.pdf"], "missing.pdf"),
        (["burn"], "activity"),
        (["burn", "running", "--minutes", "-5", "--intensity", "moderate"], "minutes"),
        (["burn", "running", "--minutes", "10", "--intensity", "flat-out"], "intensity"),
        (["burn", "running", "--minutes", "10", "--intensity", "moderate", "--formula", "guess"], "--formula"),
        (["daily-log", "$D/food.json", "--now", "2026-02-01T00:00:00Z"], "calories must be a number"),
        (["daily-log", "$D/list.json"], "daily log"),
        (["daily-log", "examples/tracker/daily-log.yaml", "--timezone", "Mars/Olympus"], "--timezone"),
        (["periodize", "--weeks", "8", "--goal", "x"], "goal"),
        (["periodize", "--weeks", "-3", "--goal", "strength"], "-3"),
        (["periodize", "--effort", "max"], "--effort"),
        (["periodize", "--weeks", "8", "--goal", "strength", "--week", "9"], "--week"),
        (["periodize", "--weeks", "8", "--goal", "strength", "--start-intensity", "1.5", "--end-intensity", "0.9"], "--start-intensity"),
        (["periodize", "--weeks", "8", "--goal", "strength", "--start-intensity", "0.6"], "--end-intensity"),
        (["select", "--muscle", "chst"], "--muscle"),
        (["indexes-check", "--indexes", "$D/list.json"], "indexes"),
        (["indexes-check", "--queries", "$D/broken.yaml"], "broken.yaml"),
        (["select", "--chosen", "no_such_lift"], "--chosen"),
        (["one-rep-max", "--load", "-5", "--reps", "5"], "--load"),
        (["one-rep-max", "--load", "100", "--reps", "31"], "--reps"),
        (["one-rep-max", "--load", "100"], "--reps"),
        // A negative number is a value, not the next option: it is refused for its range.
        (["one-rep-max", "--load", "100", "--reps", "-2"], "--reps: -2"),
        (["authorize", "--rules", "rules/security/trainer-student/storage.rules", "--op", "create", "--path", "workout-pdfs/t1/w1/workout.pdf",
          "--size", "-1", "--content-type", "application/pdf"], "--size: an upload has 0 bytes or more"),
        (["bench", "--samples", "-1"], "--samples: must be 1 or more"),
        // Storage has no document data: a Firestore verb is named as the mistake, not a missing --data.
        (["authorize", "--rules", "rules/security/trainer-student/storage.rules", "--auth", #"{"uid": "t1"}"#, "--op", "create",
          "--path", "b/bkt/o/workout-pdfs/t1/w1/workout.pdf", "--size", "100", "--content-type", "application/pdf"], "Storage cases use upload"),
        (["bench", "--operations", "-3"], "--operations: must be 0 or more"),
        (["bench-security", "--iterations", "-1"], "--iterations: must be 1 or more"),
        (["bench-security", "--iterations", "0"], "--iterations: must be 1 or more"),
    ]

    @Test("every subcommand appears in the table")
    func everySubcommandCovered() {
        let names = Set(Self.cases.map { $0.arguments[0] })
        let subcommands = RegimenCommand.configuration.subcommands.map { $0._commandName }
        #expect(subcommands.filter { !names.contains($0) } == [])
    }

    @Test("bad arguments and bad input files exit 2, name the field, print nothing on stdout", arguments: 0..<cases.count)
    func badInput(index: Int) throws {
        let scratch = try ScratchDirectory(Self.files)
        defer { scratch.cleanUp() }
        let (arguments, mentions) = Self.cases[index]
        let resolved = arguments.map { $0.replacingOccurrences(of: "$D", with: scratch.url.path) }
        let run = runRegimen(resolved, in: Self.repository)
        #expect(run.status == 2, "\(arguments): status \(run.status), stderr: \(run.standardError)")
        #expect(run.standardError.contains(mentions), "\(arguments): stderr does not mention '\(mentions)': \(run.standardError)")
        #expect(run.standardOutput == "", "\(arguments): stdout: \(run.standardOutput)")
        // Every row gives each option its value; "Missing value" would misread one (a negative number).
        #expect(!run.standardError.contains("Missing value"), "\(arguments): \(run.standardError)")
    }
}

/// ArgumentParser wraps discussion texts to the terminal; a hard line break inside a paragraph
/// is wrapped again and splits a sentence. Paragraphs are separated by a blank line.
@Suite("Help texts")
struct HelpTextTests {
    static func allCommands(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap { allCommands($0) }
    }

    @Test("no discussion text breaks a line inside a paragraph")
    func noHardLineBreaks() {
        for command in Self.allCommands(RegimenCommand.self) {
            let paragraphs = command.configuration.discussion.components(separatedBy: "\n\n")
            let broken = paragraphs.filter { $0.trimmingCharacters(in: .newlines).contains("\n") }
            #expect(broken == [], "\(command._commandName): \(broken)")
        }
    }
}
