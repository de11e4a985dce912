import Foundation
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// The repository root, where `rules/`, `catalogs/` and `examples/` live.
private let repositoryRoot = RepositoryRoot.url

private func regimen(_ arguments: [String]) -> CommandRun { runRegimen(arguments, in: repositoryRoot) }

@Suite("Tracking commands")
struct TrackingCommandTests {
    @Test("validate accepts the example program")
    func validateClean() {
        let run = regimen(["validate", "examples/tracker/program.json"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "ok: 12 documents, no violations\n")
    }

    /// Each violation at the line and column of its field's value (else of its document) in the
    /// tree file, then its document path (issue 33: tracker errors had no line:column).
    @Test("validate reports every violation with its location and document path and exits 1")
    func validateInvalid() {
        let run = regimen(["validate", "examples/tracker/invalid-program.yaml"])
        #expect(run.status == 1)
        let file = "examples/tracker/invalid-program.yaml"
        #expect(run.standardOutput == """
            \(file):14:24: users/alex/programs/ppl/weeks/week1/workouts/push1: error: 'dayOfWeek' must be at most 7, not 9
            \(file):22:21: users/alex/programs/ppl/weeks/week1/workouts/push1/exercises/bench1/sets/s1: error: a set needs at least one of reps, duration, distance
            \(file):22:21: users/alex/programs/ppl/weeks/week1/workouts/push1/exercises/bench1/sets/s1: error: a strength set needs 'reps'
            \(file):22:52: users/alex/programs/ppl/weeks/week1/workouts/push1/exercises/bench1/sets/s1: error: 'weight' must be at least 0, not -20
            \(file):23:63: users/alex/programs/ppl/weeks/week1/workouts/push1/exercises/bench1/sets/s2: warning: 'duration' is not used by strength exercises
            \(file):23:75: users/alex/programs/ppl/weeks/week1/workouts/push1/exercises/bench1/sets/s2: error: 'userId' must be the owner's id 'alex' (the user of the path), not 'mallory'
            \(file):25:16: users/alex/programs/ppl/weeks/week2: error: week order 1 is already used by week week1
            \(file):28:11: users/alex/programs/ppl2: error: program name 'push pull legs ' is already used by program ppl
            invalid: 8 documents, 7 errors, 1 warning

            """)
    }

    /// A tree that cannot be read names each problem's line and column too.
    @Test("validate locates structural problems of the tree file")
    func validateLocatesStructuralProblems() throws {
        let folder = try ScratchFolder(["tree.yaml": "userId: alex\nprograms:\n  - id: p1\n    weeks: 5\n  - name: no id\n"])
        defer { folder.cleanUp() }
        let run = runRegimen(["validate", folder.url.appendingPathComponent("tree.yaml").path], in: repositoryRoot)
        #expect(run.status == 2)
        let path = folder.url.appendingPathComponent("tree.yaml").path
        #expect(run.standardError.contains("\(path):4:12: users/alex/programs/p1/weeks: error: 'weeks' must be a list, not int"), "\(run.standardError)")
        #expect(run.standardError.contains("\(path):5:5: users/alex/programs[1]: error: a program needs an 'id'"), "\(run.standardError)")
    }

    @Test("duplicate prints the id map, batches and audit; the same --now gives the same ids")
    func duplicate() {
        let arguments = ["duplicate", "examples/tracker/program.json", "--week", "week1", "--user", "alex", "--now", "2026-02-04T12:00:00Z"]
        let run = regimen(arguments)
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasSuffix(": 11 documents in 1 batch (11)") == true)
        #expect(lines.count == 13)
        #expect(lines.last?.hasPrefix("audit: {\"batches\":1,\"documents\":11,\"event\":\"duplicate\",\"level\":\"week\",\"newWeekId\":") == true)
        #expect(regimen(arguments).standardOutput == run.standardOutput)
    }

    @Test("duplicate refuses another user's tree (the message in words, without the callable code)")
    func duplicateDenied() {
        let run = regimen(["duplicate", "examples/tracker/program.json", "--week", "week1", "--user", "eve", "--now", "2026-02-04T12:00:00Z"])
        #expect(run.status == 1)
        #expect(run.standardError == "error: user 'eve' may only duplicate their own documents\n")
    }

    @Test("duplicate needs exactly one source")
    func duplicateUsage() {
        let run = regimen(["duplicate", "examples/tracker/program.json", "--week", "week1", "--workout", "push1"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("name exactly one of --week, --workout, --exercise, --program"))
    }

    @Test("burn uses the ACSM formula by default and the seed's on request")
    func burn() {
        let acsm = regimen(["burn", "running", "--minutes", "30", "--intensity", "vigorous"])
        #expect(acsm.status == 0)
        #expect(acsm.standardOutput == """
            360 kcal: Running, 6 mph (10 min/mile), vigorous, MET 9.8, 30 min, 70 kg, formula acsm
            Compendium 2011 row 12050: running, 6 mph (10 min/mile) (9.8 MET)

            """)
        let seed = regimen(["burn", "running", "--minutes", "30", "--intensity", "vigorous", "--formula", "seed_002"])
        #expect(seed.standardOutput.hasPrefix("103 kcal: "))
    }

    @Test("burn at a level a single-row activity has no row for uses the fallback and says so; numbers print as people write them")
    func burnFallback() {
        let run = regimen(["burn", "walking_slow", "--minutes", "30", "--intensity", "moderate"])
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            129 kcal: Walking, slow (2.0 mph), moderate, MET 3.5, 30 min, 70 kg, formula acsm
            Compendium 2011 row 17152: walking, 2.0 mph, level, slow pace, firm surface (2.8 MET)
            note: no Compendium row for walking_slow at moderate; MET 2.8 of row 17152 (light) scaled by 1 / 0.8 and kept within moderate's MET 3-5.9 gives 3.5 (fallback of rules/calorie-burn.yaml)

            """)
        let refused = regimen(["burn", "hiking", "--minutes", "30", "--intensity", "light"])
        #expect(refused.status == 2)
        #expect(refused.standardError == "error: intensity: hiking has Compendium rows for moderate, vigorous only, not light\n")
    }

    @Test("burn reports every invalid input with its own message")
    func burnInvalid() {
        let run = regimen(["burn", "runing", "--minutes", "0", "--intensity", "hard"])
        #expect(run.status == 2)
        #expect(run.standardError == """
            error: unknown activity 'runing'; did you mean 'running'?
            error: minutes must be at least 1 minute, got 0
            error: intensity must be one of light, moderate, vigorous, got 'hard'

            """)
    }

    @Test("burn --list filters the activity library")
    func burnList() {
        let run = regimen(["burn", "--list", "--category", "flexibility"])
        #expect(run.status == 0)
        #expect(run.standardOutput.split(separator: "\n").count == 5)
        #expect(run.standardOutput.contains("flexibility\tyoga\tlight 02150 2.5, moderate 02160 4\tYoga"))
    }

    @Test("daily-log totals per day")
    func dailyLog() {
        let run = regimen(["daily-log", "examples/tracker/daily-log.yaml", "--now", "2026-02-05T00:00:00Z"])
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            2026-02-03: consumed 1890 kcal, burned 743 kcal, net 1147 kcal (surplus)
              running 35 min vigorous: 492 kcal
              weight_training 50 min moderate: 251 kcal
            2026-02-04: consumed 180 kcal, burned 108 kcal, net 72 kcal (surplus)
              yoga 30 min light: 108 kcal

            """)
    }

    @Test("daily-log --timezone groups by the local date and --formula picks the burn formula")
    func dailyLogZoneAndFormula() {
        // 19:30Z on the 3rd is 04:30 on the 4th in Tokyo; 08:00Z on the 4th is 17:00 there.
        let run = regimen(["daily-log", "examples/tracker/daily-log.yaml", "--now", "2026-02-05T00:00:00Z", "--timezone", "Asia/Tokyo",
                           "--formula", "seed_002"])
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            2026-02-03: consumed 1200 kcal, burned 141 kcal, net 1059 kcal (surplus)
              running 35 min vigorous: 141 kcal
            2026-02-04: consumed 870 kcal, burned 103 kcal, net 767 kcal (surplus)
              weight_training 50 min moderate: 72 kcal
              yoga 30 min light: 31 kcal

            """)
    }

    @Test("daily-log rejects entries after --now")
    func dailyLogFuture() {
        let run = regimen(["daily-log", "examples/tracker/daily-log.yaml", "--now", "2026-02-03T12:00:00Z"])
        #expect(run.status == 2)
        // Placed at the entry (line 4, after `  - `), named by its field, as the engine reports it.
        #expect(run.standardError == """
            examples/tracker/daily-log.yaml:4:5: error: foods[1]: timestamp 2026-02-03T13:00:00Z is in the future (now is 2026-02-03T12:00:00Z)
            examples/tracker/daily-log.yaml:5:5: error: foods[2]: timestamp 2026-02-03T19:30:00Z is in the future (now is 2026-02-03T12:00:00Z)
            examples/tracker/daily-log.yaml:6:5: error: foods[3]: timestamp 2026-02-04T08:00:00Z is in the future (now is 2026-02-03T12:00:00Z)
            examples/tracker/daily-log.yaml:9:5: error: workouts[1]: timestamp 2026-02-03T18:00:00Z is in the future (now is 2026-02-03T12:00:00Z)
            examples/tracker/daily-log.yaml:10:5: error: workouts[2]: timestamp 2026-02-04T07:00:00Z is in the future (now is 2026-02-03T12:00:00Z)

            """)
    }

    @Test("progress takes today from startDate and --now, so a day still to come is refused")
    func progressFutureDay() throws {
        let scratch = try ScratchDirectory(["log.json": #"{"workoutId": "w", "studentId": "s1", "durationWeeks": 2, "startDate": "2026-02-02", "completedDays": [1, 2, 3, 9]}"#])
        defer { scratch.cleanUp() }
        let early = runRegimen(["progress", "log.json", "--now", "2026-02-05T10:00:00Z", "--rules", ExitCodeTableTests.repository.appendingPathComponent("rules").path,
                                "--catalogs", ExitCodeTableTests.repository.appendingPathComponent("catalogs").path], in: scratch.url)
        #expect(early.status == 2)
        #expect(early.standardOutput == "")
        // Named by its key and placed at it, as the engine reports it.
        #expect(early.standardError == "log.json:1:103: error: completedDays: completed day 9 lies after today (day 4); a day is completed on or after it comes\n")
        let later = runRegimen(["progress", "log.json", "--now", "2026-02-12T10:00:00Z", "--format", "json",
                                "--rules", ExitCodeTableTests.repository.appendingPathComponent("rules").path,
                                "--catalogs", ExitCodeTableTests.repository.appendingPathComponent("catalogs").path], in: scratch.url)
        #expect(later.status == 0)
        #expect(later.standardOutput.contains("\"lastActivityAt\" : \"2026-02-10T00:00:00Z\""))
        #expect(later.standardOutput.contains("\"studentId\" : \"s1\""))
    }

    @Test("progress prints completion and streaks")
    func progress() {
        let run = regimen(["progress", "examples/tracker/completion-log.json"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "workout hypertrophy-pdf-1, student s1: 8 of 28 days (28.6%)\ncurrent streak: 5, longest streak: 5\n")
    }

    @Test("periodize prints one week of a plan")
    func periodizeWeek() {
        let run = regimen(["periodize", "--weeks", "12", "--goal", "strength", "--week", "10"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "week 10: peak intensity 0.85 RPE 8-10 compound 3x3 peak isolation 3x8 heavy\n")
        let bad = regimen(["periodize", "--weeks", "12", "--goal", "bulk"])
        #expect(bad.status == 2)
        #expect(bad.standardError == "error: --goal: unknown goal 'bulk'; expected one of fat_loss, lean_mass, recomp, strength\n")
    }

    @Test("export to CSV and back to JSON gives the JSON export")
    func exportRoundTrip() throws {
        let csv = regimen(["export", "examples/tracker/program.json", "--to", "csv"])
        #expect(csv.status == 0)
        let scratch = try ScratchDirectory(["program.csv": csv.standardOutput])
        defer { scratch.cleanUp() }
        let back = runRegimen(["export", scratch.url.appendingPathComponent("program.csv").path, "--to", "json",
                               "--rules", repositoryRoot.path], in: scratch.url)
        let json = regimen(["export", "examples/tracker/program.json", "--to", "json"])
        #expect(back.status == 0)
        #expect(back.standardOutput == json.standardOutput)
    }

    @Test("upload-check accepts a PDF and rejects a renamed image")
    func uploadCheck() throws {
        let scratch = try ScratchDirectory(["plan.pdf": "%PDF-1.7\nbody", "photo.pdf": "\u{89}PNG....."])
        defer { scratch.cleanUp() }
        let ok = runRegimen(["upload-check", "plan.pdf", "--content-type", "application/pdf", "--rules", repositoryRoot.path], in: scratch.url)
        #expect(ok.status == 0)
        #expect(ok.standardOutput == "ok: plan.pdf (13 bytes) can be uploaded\n")
        let bad = runRegimen(["upload-check", "photo.pdf", "--content-type", "image/png", "--rules", repositoryRoot.path], in: scratch.url)
        #expect(bad.status == 1)
        #expect(bad.standardError == """
            photo.pdf: error: the file does not start with the PDF signature '%PDF-'
            photo.pdf: error: content type 'image/png' is not allowed; upload application/pdf (compared exactly, as the Storage rule does)

            """)
    }
}

@Suite("Tracking commands: single workouts")
struct SingleWorkoutCommandTests {
    @Test("periodize --effort prints a single workout's targets")
    func effort() {
        let run = runRegimen(["periodize", "--effort", "push_it"], in: URL(fileURLWithPath: #filePath).deletingLastPathComponent())
        #expect(run.status == 0)
        #expect(run.standardOutput == "push_it (High intensity day): intensity 0.8 RPE 8-10 compound 3x3 peak isolation 3x8 heavy\n")
    }
}
