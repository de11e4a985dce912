import ArgumentParser
import Foundation
import RegimenLanguage
import RegimenSecurity

/// `regimen test FILE...`: runs auditors' security test files and reports every case.
public struct SecurityTestCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run security test files (kind: security_tests) against the policies they name.",
        discussion: """
        Prints one line per case (PASS name, or FAIL name — expected X, got Y: reason) and closes with \
        'N passed, N failed'. Exits 1 when a case failed, 2 when a file or policy could not be loaded.
        """
    )

    public enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        case text, json, junit
    }

    @Argument(help: "Test files (YAML, kind: security_tests).")
    var files: [String]

    @Flag(help: "Report how often each allow statement and function was evaluated; write HTML and LCOV.")
    var coverage = false

    @Option(help: "Where --coverage writes its HTML pages and lcov.info.")
    var coverageOutput = ".regimen-coverage"

    @Option(help: "Output format: text, json or junit.")
    var format: Format = .text

    @Flag(help: "With --format json: include each case's request and documents (typed JSON), for replaying elsewhere.")
    var withRequests = false

    public init() {}

    public func run() throws {
        var results: [SecurityTestFileResult] = []
        var recorders: [String: CoverageRecorder] = [:]
        var policies: [String: CompiledPolicy] = [:]
        var loadFailed = false
        for file in files {
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
                results.append(runner.run(coverage: recorder))
            } catch {
                CommandContext.current.standardError.write(error.description + "\n")
                loadFailed = true
            }
        }
        var output = ""
        switch format {
        case .text:
            let report = SecurityTestReport.text(results)
            var lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            let closing = lines.popLast() ?? ""
            output = lines.map { $0 + "\n" }.joined()
            if coverage { output += coverageText(recorders) }
            output += closing + "\n"
        case .json: output = SecurityTestReport.json(results, requests: withRequests)
        case .junit: output = SecurityTestReport.junit(results)
        }
        // When no file could be read there is no result to print, only the errors.
        if !results.isEmpty || !loadFailed { CommandContext.current.standardOutput.write(output) }
        if coverage { try writeCoverageFiles(recorders) }
        if loadFailed { throw CommandFailure.usage }
        if results.contains(where: { $0.failed > 0 }) { throw CommandFailure.failed }
    }

    private func coverageText(_ recorders: [String: CoverageRecorder]) -> String {
        recorders.keys.sorted().compactMap { recorders[$0] }.map { CoverageReport($0).text() }.joined()
    }

    private func writeCoverageFiles(_ recorders: [String: CoverageRecorder]) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: coverageOutput, withIntermediateDirectories: true)
            var lcov = ""
            for key in recorders.keys.sorted() {
                guard let recorder = recorders[key] else { continue }
                let report = CoverageReport(recorder)
                let name = (key as NSString).lastPathComponent + ".html"
                try report.html().write(toFile: (coverageOutput as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
                lcov += report.lcov()
            }
            try lcov.write(toFile: (coverageOutput as NSString).appendingPathComponent("lcov.info"), atomically: true, encoding: .utf8)
            CommandContext.current.standardError.write("coverage written to \(coverageOutput)/ (HTML per policy, lcov.info)\n")
        } catch {
            CommandContext.current.standardError.write("error: cannot write coverage to \(coverageOutput): \(error.localizedDescription)\n")
            throw CommandFailure.usage
        }
    }
}
