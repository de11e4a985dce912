@testable import RegimenAnalysis
@testable import RegimenLanguage
@testable import RegimenSecurity
import RegimenTestSupport
import Testing
import Foundation
import FoundationEssentials

/// `rules diff appendix-a.rules corrected.rules`: every shipped test case whose expected decision
/// differs between the two test files is covered by a reported difference in the same direction,
/// on a path shape and method that case is an instance of, with a counterexample the test runner
/// confirms.
@Suite struct WorkoutTrackerDiffTests {
    @Test func everyChangedExpectationIsAReportedDifference() throws {
        guard let analyzer = SolverSupport.analyzer(timeout: 30) else { return }
        let old = try SolverSupport.bundled("rules/security/workout-tracker/appendix-a.rules")
        let new = try SolverSupport.bundled("rules/security/workout-tracker/corrected.rules")
        let entries = PolicyComparison.diff(old, new, analyzer: analyzer)
        for entry in entries {
            for verdict in [entry.first, entry.second].compactMap({ $0 }) {
                if let counterexample = verdict.counterexample {
                    #expect(try SolverSupport.passes(counterexample, against: new), "\(entry.shape)")
                }
            }
        }
        let oldSuite = try SecurityTestSuite.load(file: RepositoryRoot.appending("rules/security/workout-tracker/appendix-a.tests.yaml").path)
        let newSuite = try SecurityTestSuite.load(file: RepositoryRoot.appending("rules/security/workout-tracker/corrected.tests.yaml").path)
        let compiled = try CompiledPolicy(old)
        var changed = 0
        // The files mark the same request 'BUG: …' in one and 'FIXED: …' in the other.
        func plain(_ name: String) -> String {
            guard let colon = name.range(of: ": "), name[..<colon.lowerBound].allSatisfy(\.isUppercase) else { return name }
            return String(name[colon.upperBound...])
        }
        for oldCase in oldSuite.cases {
            guard let newCase = newSuite.cases.first(where: { plain($0.name) == plain(oldCase.name) }), newCase.expectAllow != oldCase.expectAllow else { continue }
            changed += 1
            var store = oldSuite.documents
            for (path, data) in oldCase.documents { store[path] = data }
            let decision = compiled.decide(oldCase.request, store: store)
            let segments = Array(oldCase.request.operation.path.segments.dropFirst(3))
            let covering = entries.filter { entry in
                entry.shape.method.rawValue == decision.method?.rawValue && entry.shape.segments.count == segments.count
                    && zip(entry.shape.segments, segments).allSatisfy { shapeSegment, segment in
                        if case .literal(let s) = shapeSegment { return s == segment }
                        return true
                    }
            }
            var found = covering.contains { entry in
                (newCase.expectAllow ? entry.first : entry.second)?.counterexample != nil
            }
            // A query that ran out of time on a loaded machine is asked again with more time
            // (an answer, not a timing, is what the property is about).
            if !found, let patient = SolverSupport.analyzer(timeout: 120) {
                found = covering.contains { entry in
                    let (allows, denies) = patient.equivalent(old, new, entry.shape)
                    return (newCase.expectAllow ? allows : denies).counterexample != nil
                }
            }
            #expect(found, "case '\(oldCase.name)' (\(decision.method?.rawValue ?? "?") \(segments.joined(separator: "/"))): no confirmed difference reported")
        }
        #expect(changed > 0)
        print("workout-tracker diff: \(changed) shipped cases change expectation; \(entries.count) path/method pairs compared")
    }
}
