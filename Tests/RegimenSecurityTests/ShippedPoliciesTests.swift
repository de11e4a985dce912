import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

@Suite("Shipped policies and their test files")
struct ShippedPoliciesTests {
    @Test("there is a test file for every shipped policy")
    func everyPolicyHasTests() {
        let names = shippedTestFiles.map { ($0 as NSString).lastPathComponent }
        #expect(shippedTestFiles.count == 6, "found \(names)")
    }

    @Test("every case of every shipped test file passes", arguments: shippedTestFiles)
    func casesPass(file: String) throws {
        let suite = try SecurityTestSuite.load(file: file)
        let result = try SecurityTestRunner(suite: suite).run()
        #expect(!result.results.isEmpty)
        for failure in result.results where !failure.passed { Issue.record("\(failure.line)") }
    }

    @Test("every allow statement and function of every shipped policy is exercised", arguments: shippedTestFiles)
    func fullStatementCoverage(file: String) throws {
        let report = try coverageOfShippedTests(file).report
        #expect(report.statementsCovered.covered == report.statementsCovered.total, "\(report.text())")
        #expect(report.functionsCovered.covered == report.functionsCovered.total, "\(report.text())")
    }

    @Test("converting a policy to the other syntax and back keeps every decision", arguments: shippedTestFiles)
    func conversionKeepsDecisions(file: String) throws {
        let suite = try SecurityTestSuite.load(file: file)
        let original = try CompiledPolicy(suite.policy)
        let converted: SecurityPolicy
        switch suite.policy.origin.syntax {
        case .native: converted = try YAMLPolicyReader.parse(PolicyPrinter.yaml(suite.policy), file: "converted.yaml")
        case .yaml: converted = try RulesFileParser.parse(PolicyPrinter.native(suite.policy), file: "converted.rules")
        }
        let roundTrip: SecurityPolicy
        switch converted.origin.syntax {
        case .native: roundTrip = try YAMLPolicyReader.parse(PolicyPrinter.yaml(converted), file: "round-trip.yaml")
        case .yaml: roundTrip = try RulesFileParser.parse(PolicyPrinter.native(converted), file: "round-trip.rules")
        }
        for policy in [try CompiledPolicy(converted), try CompiledPolicy(roundTrip)] {
            #expect(policy.allows.count == original.allows.count)
            for testCase in suite.cases {
                var documents = suite.documents
                for (path, data) in testCase.documents { documents[path] = data }
                let expected = original.decide(testCase.request, store: documents)
                let actual = policy.decide(testCase.request, store: documents)
                #expect(actual.allowed == expected.allowed, "\(testCase.name)")
                #expect(actual.grantedBy?.methods == expected.grantedBy?.methods, "\(testCase.name)")
            }
        }
    }

    @Test("Appendix A loads verbatim from the seed")
    func appendixAIsVerbatim() throws {
        // shared/ sits beside the repository (CI) or two levels up (a worktree under wt/).
        let seeds = [repositoryRoot + "/../shared/seeds", repositoryRoot + "/../../shared/seeds"]
            .first { FileManager.default.fileExists(atPath: $0) } ?? ""
        let shipped = try String(contentsOfFile: repositoryRoot + "/rules/security/workout-tracker/appendix-a.rules", encoding: .utf8)
        let policy = try RulesFileParser.parse(shipped, file: "appendix-a.rules")
        #expect(policy.allAllows.count == 24)
        #expect(policy.allFunctions.count == 11)
        if let names = try? FileManager.default.contentsOfDirectory(atPath: seeds), let seed = names.first(where: { $0.hasPrefix("000_") }) {
            let text = try String(contentsOfFile: seeds + "/" + seed, encoding: .utf8)
            #expect(text.contains(shipped.trimmingCharacters(in: .newlines)))
        }
    }
}

import Foundation
