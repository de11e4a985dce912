import ArgumentParser
import Foundation
import RegimenKit

/// `regimen test FILE...`: runs plan tests (`kind: plan_tests`, against the planner's rules) and
/// security tests (`kind: security_tests`, against the policies they name) and reports every case.
struct SecurityTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run plan tests (kind: plan_tests) and security tests (kind: security_tests).",
        discussion: """
        Prints one line per case (PASS name, or FAIL name — what was expected, what came out and, for \
        plan tests, the rule that produced it) and closes with 'N passed, N failed'. Plan tests run \
        against --rules (default: the repository's own). Exits 1 when a case failed or the rules do \
        not load, 2 when a file, profile or policy could not be read.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        case text, json, junit
    }

    @Argument(help: "Test files (YAML, kind: plan_tests or kind: security_tests).")
    var files: [String]

    @Flag(help: "Report which rules the cases reached (allow statements and functions of policies, coaching rules of plan tests); write HTML and LCOV.")
    var coverage = false

    @Option(help: "Where --coverage writes its HTML pages and lcov.info.")
    var coverageOutput = ".regimen-coverage"

    @Option(help: "Output format: text, json or junit.")
    var format: Format = .text

    @Flag(help: "With --format json: include each security case's request and documents (typed JSON), for replaying elsewhere.")
    var withRequests = false

    @OptionGroup var sources: RuleSourceOptions

    init() {}

    /// One file's results, in the order the files were named.
    enum FileResults {
        case security(SecurityTestFileResult)
        case plan(PlanTestFileResult)

        var failed: Int {
            switch self {
            case .security(let file): file.failed
            case .plan(let file): file.failed
            }
        }
    }

    package func run() throws {
        let context = CommandContext.current
        var results: [FileResults] = []
        var security = SecurityTestSession(coverage: coverage)
        var planRunner: PlanTestRunner?
        var coaching: CoachingCoverage?
        var loadFailed = false
        var rulesFailed = false
        var runnerTried = false
        for file in files {
            if PlanTestsFile.declares(file: file) {
                // The file's own problems first: they are reported even when the rules are not found.
                let suite: PlanTestsFile
                do { suite = try PlanTestRunner.load(file: file) } catch {
                    DiagnosticPrinter.print(error.diagnostics, to: context.standardError)
                    loadFailed = true
                    continue
                }
                if planRunner == nil, !runnerTried {
                    runnerTried = true
                    do throws(CommandFailure) {
                        planRunner = try loadRunner(in: context)
                    } catch {
                        if error.status == CommandExit.usage { loadFailed = true } else { rulesFailed = true }
                        continue
                    }
                    if coverage, let planRunner { coaching = CoachingCoverage(inventory: planRunner.inventory) }
                }
                guard let runner = planRunner else { continue }
                do {
                    results.append(.plan(try runner.run(suite, file: file, coverage: &coaching)))
                } catch {
                    DiagnosticPrinter.print(error.diagnostics, to: context.standardError)
                    loadFailed = true
                }
                continue
            }
            do {
                results.append(.security(try security.run(file: file)))
            } catch {
                context.standardError.write(DiagnosticPrinter.lines(error.diagnostics) + "\n")
                loadFailed = true
            }
        }
        var output = ""
        switch format {
        case .text:
            output = results.map(Self.textLines).joined()
            if coverage {
                output += security.coverage.map { $0.report.text() }.joined()
                if let coaching { output += CoachingCoverageReport(coaching).text() }
            }
            output += Self.closing(results)
        case .json:
            if withRequests {
                output = SecurityTestReport.json(results.compactMap { if case .security(let file) = $0 { file } else { nil } }, requests: true)
            } else {
                output = Self.json(results)
            }
        case .junit: output = Self.junit(results)
        }
        // When no file could be read there is no result to print, only the errors.
        if !results.isEmpty || !(loadFailed || rulesFailed) { context.standardOutput.write(output) }
        if coverage { try writeCoverageFiles(security.coverage, coaching: coaching) }
        if loadFailed { throw CommandFailure.usage }
        if rulesFailed || results.contains(where: { $0.failed > 0 }) { throw CommandFailure.failed }
    }

    private func loadRunner(in context: CommandContext) throws(CommandFailure) -> PlanTestRunner {
        PlanTestRunner(engine: try EngineInput.engine(sources, in: context))
    }

    static func textLines(_ file: FileResults) -> String {
        switch file {
        case .security(let file):
            return file.results.map { $0.line + "\n" }.joined()
        case .plan(let file):
            var out = ""
            for result in file.results {
                guard let first = result.failures.first else {
                    out += "PASS \(result.name)\n"
                    continue
                }
                out += "FAIL \(result.name) — \(first.line)\n"
                for failure in result.failures.dropFirst() { out += "     \(failure.line)\n" }
            }
            return out
        }
    }

    static func closing(_ results: [FileResults]) -> String {
        var passed = 0, failed = 0
        for file in results {
            switch file {
            case .security(let file): passed += file.passed; failed += file.failed
            case .plan(let file): passed += file.passed; failed += file.failed
            }
        }
        return "\(passed) passed, \(failed) failed\n"
    }

    /// Every case of every file as JSON: security cases as `regimen test` always wrote them, plan
    /// cases with their failures (key, expected, actual, rules).
    static func json(_ results: [FileResults]) -> String {
        var cases: [Value] = []
        var passed = 0, failed = 0
        for file in results {
            switch file {
            case .security(let file):
                for result in file.results { cases.append(SecurityTestReport.caseJSON(result, file: file.file)) }
                passed += file.passed
                failed += file.failed
            case .plan(let file):
                for result in file.results {
                    var fields: Value.Map = [
                        "file": .string(file.file), "name": .string(result.name), "line": .int(Int64(result.location.line)),
                        "passed": .bool(result.passed),
                    ]
                    if !result.passed {
                        fields["failures"] = .list(result.failures.map { failure in
                            .map([
                                "key": .string(failure.key), "expected": .string(failure.expected), "actual": .string(failure.actual),
                                "rules": .list(failure.rules.map(Value.string)),
                            ])
                        })
                    }
                    cases.append(.map(fields))
                }
                passed += file.passed
                failed += file.failed
            }
        }
        let summary: Value.Map = ["cases": .list(cases), "passed": .int(Int64(passed)), "failed": .int(Int64(failed))]
        return Value.map(summary).jsonString(pretty: true) + "\n"
    }

    static func junit(_ results: [FileResults]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        var total = 0, failed = 0
        for file in results {
            switch file {
            case .security(let file): total += file.results.count; failed += file.failed
            case .plan(let file): total += file.results.count; failed += file.failed
            }
        }
        out += "<testsuites tests=\"\(total)\" failures=\"\(failed)\">\n"
        for file in results {
            switch file {
            case .security(let file):
                out += SecurityTestReport.junitSuite(file)
            case .plan(let file):
                out += file.junitSuite
            }
        }
        return out + "</testsuites>\n"
    }

    private func writeCoverageFiles(_ policies: [PolicyCoverage], coaching: CoachingCoverage?) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: coverageOutput, withIntermediateDirectories: true)
            var lcov = ""
            for policy in policies {
                // Titled by where the tests ran from, as the reader typed the paths, not by an absolute path.
                let title = policy.title(relativeTo: CommandContext.current.currentDirectory.path)
                try policy.report.html(title: title).write(toFile: (coverageOutput as NSString).appendingPathComponent(policy.pageName), atomically: true, encoding: .utf8)
                lcov += policy.report.lcov()
            }
            if let coaching {
                let report = CoachingCoverageReport(coaching)
                try report.html().write(toFile: (coverageOutput as NSString).appendingPathComponent("coaching-rules.html"), atomically: true, encoding: .utf8)
                lcov += report.lcov()
            }
            try lcov.write(toFile: (coverageOutput as NSString).appendingPathComponent("lcov.info"), atomically: true, encoding: .utf8)
            let pages = coaching == nil ? "HTML per policy" : policies.isEmpty ? "coaching-rules.html" : "HTML per policy, coaching-rules.html"
            CommandContext.current.standardError.write("coverage written to \(coverageOutput)/ (\(pages), lcov.info)\n")
        } catch {
            CommandContext.current.standardError.write("error: cannot write coverage to \(coverageOutput): \(error.localizedDescription)\n")
            throw CommandFailure.usage
        }
    }
}
