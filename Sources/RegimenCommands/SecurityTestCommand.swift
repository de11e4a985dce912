import ArgumentParser
import Foundation
import RegimenLanguage
import RegimenKit
import RegimenRules
import RegimenSecurity

/// `regimen test FILE...`: runs plan tests (`kind: plan_tests`, against the planner's rules) and
/// security tests (`kind: security_tests`, against the policies they name) and reports every case.
package struct SecurityTestCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run plan tests (kind: plan_tests) and security tests (kind: security_tests).",
        discussion: """
        Prints one line per case (PASS name, or FAIL name — what was expected, what came out and, for \
        plan tests, the rule that produced it) and closes with 'N passed, N failed'. Plan tests run \
        against --rules (default: the repository's own). Exits 1 when a case failed or the rules do \
        not load, 2 when a file, profile or policy could not be read.
        """
    )

    package enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
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

    package init() {}

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
        var recorders: [String: CoverageRecorder] = [:]
        var policies: [String: CompiledPolicy] = [:]
        var planRunner: PlanTestRunner?
        var coaching: CoachingCoverage?
        var loadFailed = false
        var rulesFailed = false
        var runnerTried = false
        for file in files {
            if Self.isPlanTests(file) {
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
                let suite = try SecurityTestSuite.load(file: file)
                let key = suite.policy.origin.file
                let policy: CompiledPolicy
                if let cached = policies[key] { policy = cached } else {
                    policy = try CompiledPolicy(suite.policy)
                    policies[key] = policy
                }
                let runner = SecurityTestRunner(suite: suite, policy: policy)
                var recorder: CoverageRecorder?
                if coverage {
                    recorder = recorders[key] ?? CoverageRecorder(policy: policy)
                    recorders[key] = recorder
                }
                results.append(.security(runner.run(coverage: recorder)))
            } catch {
                context.standardError.write(error.description + "\n")
                loadFailed = true
            }
        }
        var output = ""
        switch format {
        case .text:
            output = results.map(Self.textLines).joined()
            if coverage {
                output += coverageText(recorders)
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
        if coverage { try writeCoverageFiles(recorders, coaching: coaching) }
        if loadFailed { throw CommandFailure.usage }
        if rulesFailed || results.contains(where: { $0.failed > 0 }) { throw CommandFailure.failed }
    }

    /// Whether `file` declares `kind: plan_tests` (an unreadable file is left to the security
    /// reader, which reports it).
    static func isPlanTests(_ file: String) -> Bool {
        guard let text = try? InputFile.read(path: file) else { return false }
        let document = YAMLReader.read(text, file: file).document
        return document?["kind"]?.scalar?.text == PlanTestsFile.kind
    }

    private func loadRunner(in context: CommandContext) throws(CommandFailure) -> PlanTestRunner {
        let located = try sources.locate(in: context)
        do {
            return PlanTestRunner(engine: try RegimenEngine(sources: located))
        } catch {
            DiagnosticPrinter.print(error.diagnostics, to: context.standardError)
            throw error.isInputError ? .usage : .failed
        }
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
        func xml(_ text: String) -> String { MarkupText.escaped(text) }
        for file in results {
            switch file {
            case .security(let file):
                out += SecurityTestReport.junitSuite(file)
            case .plan(let file):
                out += "  <testsuite name=\"\(xml(file.file))\" tests=\"\(file.results.count)\" failures=\"\(file.failed)\">\n"
                for result in file.results {
                    out += "    <testcase classname=\"\(xml(file.file))\" name=\"\(xml(result.name))\""
                    if let first = result.failures.first {
                        let body = result.failures.map(\.line).joined(separator: "\n")
                        out += ">\n      <failure message=\"\(xml(first.key)): expected \(xml(first.expected))\">\(xml(body))</failure>\n    </testcase>\n"
                    } else {
                        out += "/>\n"
                    }
                }
                out += "  </testsuite>\n"
            }
        }
        return out + "</testsuites>\n"
    }

    private func coverageText(_ recorders: [String: CoverageRecorder]) -> String {
        recorders.keys.sorted().compactMap { recorders[$0] }.map { CoverageReport($0).text() }.joined()
    }

    private func writeCoverageFiles(_ recorders: [String: CoverageRecorder], coaching: CoachingCoverage?) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: coverageOutput, withIntermediateDirectories: true)
            var lcov = ""
            for key in recorders.keys.sorted() {
                guard let recorder = recorders[key] else { continue }
                let report = CoverageReport(recorder)
                let name = (key as NSString).lastPathComponent + ".html"
                // Titled by where the tests ran from, as the reader typed the paths, not by an absolute path.
                let title = CoverageReport.relativePath(recorder.policy.policy.origin.file, to: CommandContext.current.currentDirectory.path)
                try report.html(title: title).write(toFile: (coverageOutput as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
                lcov += report.lcov()
            }
            if let coaching {
                let report = CoachingCoverageReport(coaching)
                try report.html().write(toFile: (coverageOutput as NSString).appendingPathComponent("coaching-rules.html"), atomically: true, encoding: .utf8)
                lcov += report.lcov()
            }
            try lcov.write(toFile: (coverageOutput as NSString).appendingPathComponent("lcov.info"), atomically: true, encoding: .utf8)
            let pages = coaching == nil ? "HTML per policy" : recorders.isEmpty ? "coaching-rules.html" : "HTML per policy, coaching-rules.html"
            CommandContext.current.standardError.write("coverage written to \(coverageOutput)/ (\(pages), lcov.info)\n")
        } catch {
            CommandContext.current.standardError.write("error: cannot write coverage to \(coverageOutput): \(error.localizedDescription)\n")
            throw CommandFailure.usage
        }
    }
}
