import Foundation
import RegimenAnalysis
import RegimenLanguage
import RegimenSecurity
import RegimenTestSupport
import Testing

/// Mutants of the bundled Firestore policies: each is reported different with a confirmed
/// counterexample, or proved equivalent (and then no request tried shows a difference), or
/// left unknown with the construct named. `swift test` runs a seeded sample under a solver-time
/// cap; `scripts/analysis-mutants.sh` runs them all (`REGIMEN_MUTANTS=all`) and reports the rate.
@Suite struct MutantTests {
    static let policies = [
        ("rules/security/workout-tracker/appendix-a.rules", "rules/security/workout-tracker/appendix-a.tests.yaml"),
        ("rules/security/workout-tracker/corrected.rules", "rules/security/workout-tracker/corrected.tests.yaml"),
        ("rules/security/coach-app/firestore.rules", "rules/security/coach-app/firestore.tests.yaml"),
        ("rules/security/trainer-student/firestore.rules", "rules/security/trainer-student/firestore.tests.yaml"),
        ("rules/security/planner/firestore.yaml", "rules/security/planner/firestore.tests.yaml"),
    ]

    enum Outcome: String { case killed, equivalent, unknown, invalid }

    @Test func mutantsAreCaughtSoundly() throws {
        let everything = ProcessInfo.processInfo.environment["REGIMEN_MUTANTS"] == "all"
        guard let analyzer = SolverSupport.analyzer(timeout: everything ? 10 : 5) else { return }
        var generator = SeededGenerator(seed: 37)
        var candidates: [(SecurityPolicy, PolicyMutant, SecurityTestSuite)] = []
        for (rules, tests) in Self.policies {
            let policy = try SolverSupport.bundled(rules)
            let suite = try SecurityTestSuite.load(file: RepositoryRoot.appending(tests).path)
            for mutant in PolicyMutants.all(policy) { candidates.append((policy, mutant, suite)) }
        }
        let sample = everything ? candidates : Array(candidates.shuffled(using: &generator).prefix(8))
        // A cap on the solver time of the sample (not a speed assertion: past it, no new mutant
        // is started and the count says how many ran).
        let cap: TimeInterval = everything ? .infinity : 120
        let started = Date()
        var counts: [Outcome: Int] = [:]
        var unknownConstructs: [String] = []
        for (policy, mutant, suite) in sample {
            if Date().timeIntervalSince(started) > cap { break }
            guard (try? CompiledPolicy(mutant.policy)) != nil else {
                counts[.invalid, default: 0] += 1
                continue
            }
            // Shape by shape, stopping at the first confirmed difference (a mutant is caught once).
            var verdicts: [Verdict] = []
            for shape in PolicyComparison.diffShapes(policy, mutant.policy) {
                let (allows, denies) = analyzer.equivalent(policy, mutant.policy, shape)
                verdicts += [allows, denies]
                if allows.counterexample != nil || denies.counterexample != nil { break }
            }
            for verdict in verdicts {
                if let counterexample = verdict.counterexample {
                    #expect(try SolverSupport.passes(counterexample, against: mutant.policy), "\(mutant.description)")
                }
            }
            let outcome: Outcome
            if verdicts.contains(where: { $0.counterexample != nil }) {
                outcome = .killed
            } else if verdicts.allSatisfy(\.isProved) {
                outcome = .equivalent
                try expectNoDifference(policy, mutant, suite, &generator)
            } else {
                outcome = .unknown
                let named = verdicts.compactMap { verdict -> String? in
                    if case .possible(_, let abstractions) = verdict { return abstractions.map(\.description).joined(separator: "; ") }
                    if case .unknown(let reason) = verdict { return reason }
                    return nil
                }
                unknownConstructs.append("\(mutant.description): \(named.first ?? "")")
            }
            counts[outcome, default: 0] += 1
        }
        let decided = (counts[.killed] ?? 0) + (counts[.equivalent] ?? 0)
        let total = decided + (counts[.unknown] ?? 0)
        let rate = total == 0 ? 0 : Double(decided) / Double(total) * 100
        print("mutants: \(total) analysed of \(sample.count) (\(candidates.count) generated): \(counts[.killed] ?? 0) different (confirmed), \(counts[.equivalent] ?? 0) proved equivalent, \(counts[.unknown] ?? 0) unknown, \(counts[.invalid] ?? 0) not compilable; caught \(String(format: "%.1f", rate))%")
        for line in unknownConstructs { print("  unknown: \(line)") }
        #expect(total > 0)
    }

    /// A mutant proved equivalent decides every shipped case, and random variations of its
    /// auth, exactly as the original.
    func expectNoDifference(_ policy: SecurityPolicy, _ mutant: PolicyMutant, _ suite: SecurityTestSuite, _ generator: inout SeededGenerator) throws {
        let original = try CompiledPolicy(policy)
        let mutated = try CompiledPolicy(mutant.policy)
        let identities: [AuthContext?] = [nil, AuthContext(uid: "alice"), AuthContext(uid: "bob"), AuthContext(uid: "support", token: ["admin": .bool(true)]),
                                          AuthContext(uid: "alice", token: ["role": .string("trainer"), "gymId": .string("g1")])]
        for testCase in suite.cases {
            var store = suite.documents
            for (path, data) in testCase.documents { store[path] = data }
            var requests = [testCase.request]
            for _ in 0..<3 {
                let auth = identities[Int.random(in: 0..<identities.count, using: &generator)]
                requests.append(SecurityRequest(auth: auth, operation: testCase.request.operation, time: testCase.request.time))
            }
            for request in requests {
                let a = original.decide(request, store: store).allowed
                let b = mutated.decide(request, store: store).allowed
                #expect(a == b, "\(mutant.description) was proved equivalent but '\(testCase.name)' differs")
            }
        }
    }
}
