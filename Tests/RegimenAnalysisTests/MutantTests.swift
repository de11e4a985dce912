import Foundation
@testable import RegimenAnalysis
@testable import RegimenLanguage
@testable import RegimenSecurity
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
        let environment = ProcessInfo.processInfo.environment
        // REGIMEN_MUTANTS=all: every mutant; every:N: every Nth, in the fixed order (a spread
        // sample of every policy and kind, for before → after comparisons).
        let stride = environment["REGIMEN_MUTANTS"].flatMap { $0 == "all" ? 1 : $0.hasPrefix("every:") ? Int($0.dropFirst(6)) : nil }
        let everything = stride != nil
        // REGIMEN_MUTANT_TIMEOUT: seconds per solver query in the full run (a loaded machine
        // inflates them; the script reports which unknowns a longer limit resolves).
        let timeout = everything ? (environment["REGIMEN_MUTANT_TIMEOUT"].flatMap(Double.init) ?? 10) : 5
        guard let analyzer = SolverSupport.analyzer(timeout: timeout) else { return }
        var generator = SeededGenerator(seed: 37)
        var candidates: [(SecurityPolicy, PolicyMutant, [ProofCheck.Probe])] = []
        // The differential's generated requests, when the script wrote them.
        let generated = try environment["REGIMEN_MUTANT_REQUESTS"].map(ProofCheck.generatedProbes(in:)) ?? [:]
        for (rules, tests) in Self.policies {
            let policy = try SolverSupport.bundled(rules)
            let suite = try SecurityTestSuite.load(file: RepositoryRoot.appending(tests).path)
            var probes = ProofCheck.probes(suite, variations: everything ? 20 : 3, &generator)
            probes += generated[RepositoryRoot.appending(rules).standardizedFileURL.path] ?? []
            if !generated.isEmpty { print("\(rules): \(probes.count) requests for the no-false-proof check") }
            for mutant in PolicyMutants.all(policy) { candidates.append((policy, mutant, probes)) }
        }
        let sample = stride.map { step in candidates.enumerated().filter { $0.offset % max(1, step) == 0 }.map(\.element) }
            ?? Array(candidates.shuffled(using: &generator).prefix(8))
        // A cap on the solver time of the sample (not a speed assertion: past it, no new mutant
        // is started and the count says how many ran).
        let cap: TimeInterval = everything ? .infinity : 120
        let started = Date()
        var counts: [Outcome: Int] = [:]
        var unknownConstructs: [String] = []
        var checkedPairs = 0, checkedRequests = 0
        for (number, (policy, mutant, probes)) in sample.enumerated() {
            if Date().timeIntervalSince(started) > cap { break }
            let mutantStarted = Date()
            guard (try? CompiledPolicy(mutant.policy)) != nil else {
                counts[.invalid, default: 0] += 1
                if everything { print("mutant \(number + 1)/\(sample.count) invalid: \(mutant.description)") }
                continue
            }
            // Shape by shape, stopping at the first confirmed difference (a mutant is caught once).
            var verdicts: [Verdict] = []
            var undecidedShape = ""
            let shapes = PolicyComparison.diffShapes(policy, mutant.policy)
            var newlyAllowsNothing = true, newlyDeniesNothing = true
            for shape in shapes {
                let (allows, denies) = analyzer.equivalent(policy, mutant.policy, shape)
                verdicts += [allows, denies]
                if allows.counterexample != nil || denies.counterexample != nil { break }
                newlyAllowsNothing = newlyAllowsNothing && allows.isProved
                newlyDeniesNothing = newlyDeniesNothing && denies.isProved
                if undecidedShape.isEmpty, !allows.isProved || !denies.isProved { undecidedShape = "\(shape): " }
            }
            // No false proofs: what was proved (equivalence, or one direction) holds on every
            // request tried.
            if !verdicts.contains(where: { $0.counterexample != nil }), newlyAllowsNothing || newlyDeniesNothing {
                let check = ProofCheck(shapes: shapes)
                let (violations, covered) = check.violations(try CompiledPolicy(policy), try CompiledPolicy(mutant.policy), aImpliesB: newlyDeniesNothing, bImpliesA: newlyAllowsNothing, probes)
                #expect(violations.isEmpty, "\(mutant.description): proved (newly allows nothing: \(newlyAllowsNothing), newly denies nothing: \(newlyDeniesNothing)) but these requests differ: \(violations.prefix(5))")
                checkedPairs += 1
                checkedRequests += covered
            }
            for verdict in verdicts {
                if let counterexample = verdict.counterexample {
                    #expect(try SolverSupport.passes(counterexample, against: mutant.policy), "\(mutant.description)")
                }
            }
            // REGIMEN_COUNTEREXAMPLE_DIR: the mutant and its counterexamples as a test file, for
            // the emulator (`.ci/run` replays them with differential.py).
            // Only requests whose decision does not hang on the request's time: the emulator
            // decides with its own clock, which a test case cannot set.
            let found = try verdicts.compactMap(\.counterexample).filter { try Self.decidesAtAnyTime($0, mutant.policy) }
            if let folder = environment["REGIMEN_COUNTEREXAMPLE_DIR"], !found.isEmpty {
                try Self.write(found, of: mutant, number: number + 1, to: folder)
            }
            let outcome: Outcome
            if verdicts.contains(where: { $0.counterexample != nil }) {
                outcome = .killed
            } else if verdicts.allSatisfy(\.isProved) {
                outcome = .equivalent
            } else {
                outcome = .unknown
                let named = verdicts.compactMap { verdict -> String? in
                    if case .possible(_, let abstractions) = verdict { return abstractions.map(\.description).joined(separator: "; ") }
                    if case .unknown(let reason) = verdict { return reason }
                    return nil
                }
                unknownConstructs.append("\(mutant.description): \(undecidedShape)\(named.first ?? "")")
            }
            counts[outcome, default: 0] += 1
            if everything {
                let seconds = String(format: "%.1f", Date().timeIntervalSince(mutantStarted))
                let detail = outcome == .unknown ? " — \(unknownConstructs.last ?? "")" : ""
                print("mutant \(number + 1)/\(sample.count) \(outcome.rawValue) \(seconds) s: \(mutant.description)\(detail)")
            }
        }
        let decided = (counts[.killed] ?? 0) + (counts[.equivalent] ?? 0)
        let total = decided + (counts[.unknown] ?? 0)
        let rate = total == 0 ? 0 : Double(decided) / Double(total) * 100
        print("mutants: \(total) analysed of \(sample.count) (\(candidates.count) generated): \(counts[.killed] ?? 0) different (confirmed), \(counts[.equivalent] ?? 0) proved equivalent, \(counts[.unknown] ?? 0) unknown, \(counts[.invalid] ?? 0) not compilable; caught \(String(format: "%.1f", rate))%")
        for line in unknownConstructs { print("  unknown: \(line)") }
        print("no-false-proof check: \(checkedPairs) proved pairs (equivalent or one direction), \(checkedRequests) covered requests decided as proved")
        #expect(total > 0)
    }

    /// `mutant-N.rules` (the mutant in native syntax) and `mutant-N.tests.yaml` (its
    /// counterexample, expecting the mutant's decision).
    /// Whether the counterexample's expectation holds at other request times too (a day and a
    /// century later).
    static func decidesAtAnyTime(_ counterexample: Counterexample, _ policy: SecurityPolicy) throws -> Bool {
        for other in ["2031-05-17T12:34:56Z", "2126-01-01T00:00:00Z"] {
            let lines = counterexample.testCase.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("    time: ") ? "    time: \(other)" : String(line)
            }
            var moved = counterexample
            moved.testCase = lines.joined(separator: "\n")
            guard try SolverSupport.passes(moved, against: policy) else { return false }
        }
        return true
    }

    static func write(_ counterexamples: [Counterexample], of mutant: PolicyMutant, number: Int, to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PolicyPrinter.native(mutant.policy).write(toFile: "\(folder)/mutant-\(number).rules", atomically: true, encoding: .utf8)
        let tests = "kind: security_tests\nversion: 1\nrules: mutant-\(number).rules\n# \(mutant.description.replacingOccurrences(of: "\n", with: " "))\ncases:\n" + counterexamples.map(\.testCase).joined()
        try tests.write(toFile: "\(folder)/mutant-\(number).tests.yaml", atomically: true, encoding: .utf8)
    }
}
