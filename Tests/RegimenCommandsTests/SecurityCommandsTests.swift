import Foundation
import RegimenTestSupport
import Testing

/// What one in-process run of `regimen` printed, under the names these tests use.
private struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

private let repository = RepositoryRoot.url

/// Runs `regimen ARGUMENTS` in-process from the repository root, as a user in a checkout would.
private func run(_ arguments: [String]) throws -> Run {
    let result = runRegimen(arguments, in: repository)
    return Run(status: result.status, stdout: result.standardOutput, stderr: result.standardError)
}

@Suite("regimen security commands")
struct SecurityCommandsTests {
    @Test("regimen test prints one line per case and closes with the counts")
    func testPasses() throws {
        let result = try run(["test", "rules/security/trainer-student/storage.tests.yaml"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 20)
        #expect(lines.first == "PASS trainer uploads a PDF")
        #expect(lines.last == "19 passed, 0 failed")
    }

    @Test("a failing case says what was expected, what came out and why; exit 1")
    func testFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("t.tests.yaml")
        try """
        kind: security_tests
        version: 1
        rules: \(repository.path)/rules/security/workout-tracker/appendix-a.rules
        cases:
          - {name: stranger reads, auth: {uid: bob}, get: users/alice, expect: allow}
          - {name: owner reads, auth: {uid: alice}, get: users/alice, expect: allow}
        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try run(["test", file.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("FAIL stranger reads — expected allow, got deny: 'allow read' at "))
        #expect(lines[0].contains("errored: Property admin is undefined on object."))
        #expect(lines[1] == "PASS owner reads")
        #expect(lines.last == "1 passed, 1 failed")
    }

    @Test("a broken test file is reported with its location; exit 2")
    func testBrokenFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.tests.yaml")
        try """
        kind: security_tests
        version: 1
        rules: \(repository.path)/rules/security/workout-tracker/appendix-a.rules
        cases:
          - {name: typo, auth: {uid: bob}, get: users/alice, expct: allow}
        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try run(["test", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.tests.yaml:5:5: error: case 'typo': needs 'expect: allow' or 'expect: deny'"))
        #expect(result.stderr.contains("bad.tests.yaml:5:54: error: case 'typo': unknown key 'expct' (did you mean 'expect'?)"))
    }

    @Test("--format junit and json")
    func formats() throws {
        let junit = try run(["test", "--format", "junit", "rules/security/trainer-student/storage.tests.yaml"])
        #expect(junit.stdout.contains("<testsuite name=\"rules/security/trainer-student/storage.tests.yaml\" tests=\"19\" failures=\"0\">"))
        let json = try run(["test", "--format", "json", "rules/security/trainer-student/storage.tests.yaml"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["passed"] as? Int == 19)
    }

    @Test("--coverage reports counts and writes HTML and LCOV")
    func coverage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-cov-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try run(["test", "--coverage", "--coverage-output", directory.path, "rules/security/trainer-student/storage.tests.yaml"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("statements: 3/3 (100%)"))
        #expect(result.stdout.contains("every statement and function was evaluated"))
        let lcov = try String(contentsOf: directory.appendingPathComponent("lcov.info"), encoding: .utf8)
        #expect(lcov.contains("SF:rules/security/trainer-student/storage.rules"))
        #expect(lcov.contains("FNDA:18,isTrainer@15"))
        let html = try String(contentsOf: directory.appendingPathComponent("storage.rules.html"), encoding: .utf8)
        #expect(html.contains("allow read: evaluated 4: true 2, false 2, error 0"))
        // Every sub-expression is marked with its figures; the page is titled by the relative path.
        #expect(html.contains("<title>Coverage: rules/security/trainer-student/storage.rules</title>"))
        #expect(html.contains("title=\"request.auth.uid == trainerId (15:61–15:90): evaluated 16: true 11, false 5, error 0\""))
    }

    @Test("--coverage titles each page by the policy's path relative to where the tests ran, given an absolute path")
    func coverageTitleIsRelative() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-cov-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let absolute = repository.appendingPathComponent("rules/security/trainer-student/storage.tests.yaml").path
        let result = try run(["test", "--coverage", "--coverage-output", directory.path, absolute])
        #expect(result.status == 0)
        let html = try String(contentsOf: directory.appendingPathComponent("storage.rules.html"), encoding: .utf8)
        #expect(html.contains("<title>Coverage: rules/security/trainer-student/storage.rules</title>"))
        #expect(!html.contains(repository.path))
    }

    @Test("regimen authorize answers one question and explains a deny")
    func authorize() throws {
        let allow = try run(["authorize", "--rules", "rules/security/workout-tracker/appendix-a.rules", "--auth", "{\"uid\": \"alice\"}", "--op", "get", "--path", "users/alice"])
        #expect(allow.status == 0)
        #expect(allow.stdout.hasPrefix("allow get /databases/(default)/documents/users/alice\n  granted by 'allow read' at rules/security/workout-tracker/appendix-a.rules:18:7"))
        let deny = try run([
            "authorize", "--rules", "rules/security/workout-tracker/corrected.rules", "--auth", "{\"uid\": \"alice\"}", "--op", "create",
            "--path", "users/alice/programs/p2", "--data", "{\"name\": 5, \"userId\": \"alice\"}", "--explain",
        ])
        #expect(deny.status == 1)
        #expect(deny.stdout.contains("allow create at rules/security/workout-tracker/corrected.rules:76:9 [database='(default)', userId='alice', programId='p2']: false"))
        #expect(deny.stdout.contains("because 'data.get('name', null) is string' (rules/security/workout-tracker/corrected.rules:46:14) was false [data.get('name', null) = 5] in validProgram(request.resource.data) → requiredName(data)"))
    }

    @Test("authorize reads {\"$timestamp\": …} in --data as a timestamp; a plain string stays a string")
    func authorizeTimestamps() throws {
        let base = ["authorize", "--rules", "rules/security/workout-tracker/corrected.rules", "--auth", "{\"uid\": \"alice\"}",
                    "--op", "create", "--path", "users/alice/programs/p9", "--data"]
        let tagged = try run(base + ["{\"name\": \"Push\", \"userId\": \"alice\", \"createdAt\": {\"$timestamp\": \"2026-01-05T08:00:00Z\"}}"])
        #expect(tagged.status == 0, "\(tagged.stdout)\(tagged.stderr)")
        let plain = try run(base + ["{\"name\": \"Push\", \"userId\": \"alice\", \"createdAt\": \"2026-01-05T08:00:00Z\"}"])
        #expect(plain.status == 1)
        let missing = try run(Array(base.dropLast()))
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--data is required for 'create'"))
        #expect(!missing.stderr.contains("<command line>"))
    }

    @Test("regimen audit on a policy with a syntax error prints the error and no clean summary")
    func auditSyntaxError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-audit-\(UUID().uuidString).rules")
        defer { try? FileManager.default.removeItem(at: file) }
        try "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{db}/documents {\n    match /x/{id} {\n      allow read: if request.auth == ;\n    }\n  }\n}\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try run(["audit", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(":5:37: error: expected an expression"))
        #expect(!result.stdout.contains("0 errors, 0 warnings"))
    }

    @Test("regimen audit reports Appendix A's mistakes and exits 1; the corrected policy is clean")
    func audit() throws {
        let appendix = try run(["audit", "rules/security/workout-tracker/appendix-a.rules"])
        #expect(appendix.status == 1)
        #expect(appendix.stdout.hasSuffix("32 errors, 0 warnings\n"))
        let corrected = try run(["audit", "rules/security/workout-tracker/corrected.rules"])
        #expect(corrected.status == 0)
        #expect(corrected.stdout == "0 errors, 0 warnings\n")
    }

    @Test("regimen rules convert turns .rules into YAML and YAML into .rules")
    func convert() throws {
        let yaml = try run(["rules", "convert", "rules/security/trainer-student/storage.rules"])
        #expect(yaml.status == 0)
        #expect(yaml.stdout.hasPrefix("kind: security_rules\nversion: 1\nrules_version: \"2\"\nservice: firebase.storage\n"))
        let native = try run(["rules", "convert", "rules/security/planner/firestore.yaml"])
        #expect(native.stdout.hasPrefix("rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n"))
    }
}
