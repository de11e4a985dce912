import Foundation
@testable import RegimenKit
@testable import RegimenLanguage
@testable import RegimenRules
import RegimenTestSupport
import Testing
@testable import RegimenCommands

/// Plan tests (`kind: plan_tests`): the shipped suite passes and reaches every coaching rule, and
/// the runner's verdicts hold for any plan, not only the shipped examples.
@Suite(.serialized) struct PlanTestsTests {
    static let engine: RegimenEngine? = try? RegimenEngine.bundled(from: RepositoryRoot.url)

    static var suiteFiles: [String] {
        let folder = RepositoryRoot.appending("rules/tests")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("plan-tests-") && $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The shipped suite: every case passes and together they reach every coaching rule (100%);
    /// a rule added without a case, or a case that stops reaching its rule, fails here.
    @Test func theShippedSuitePassesAndCoversEveryCoachingRule() throws {
        let engine = try #require(Self.engine)
        let runner = PlanTestRunner(engine: engine)
        var coverage: CoachingCoverage? = CoachingCoverage(inventory: runner.inventory)
        #expect(Self.suiteFiles.count >= 4)
        var cases = 0
        for file in Self.suiteFiles {
            let result = try runner.run(PlanTestRunner.load(file: file), file: file, coverage: &coverage)
            for failed in result.results where !failed.passed {
                Issue.record("\(file): \(failed.name): \(failed.failures.map(\.line).joined(separator: "; "))")
            }
            cases += result.results.count
        }
        let report = try CoachingCoverageReport(#require(coverage))
        #expect(cases >= 70)
        #expect(report.covered.total >= 97, "the inventory lost rules: \(report.covered.total)")
        #expect(report.covered.covered == report.covered.total, "never covered: \(coverage?.uncovered.map(\.id) ?? [])")
    }

    /// Coverage evaluates a table's rows with the inputs its section declares, the ones the
    /// loader compiles and gap-checks them against: so for every combination of enumerated input
    /// values (every experience, every movement), some row of every table holds. A table whose
    /// rows coverage could not compile, or whose inputs drifted from the decoder's, fails here.
    @Test func everyEnumeratedInputReachesARowOfEveryTable() throws {
        let engine = try #require(Self.engine)
        let inventory = PlanTestRunner(engine: engine).inventory
        var tables = 0
        for kind in RegimenRuleKinds.all {
            for section in kind.ruleSections where !section.inputs.isEmpty {
                let domains = section.inputs.map { input in (input.type.values ?? []).map { (input.name, Value.string($0)) } }
                guard domains.allSatisfy({ !$0.isEmpty }) else { continue }
                tables += 1
                var combinations: [[String: Value]] = [[:]]
                for domain in domains {
                    combinations = combinations.flatMap { partial in domain.map { partial.merging([$0.0: $0.1]) { $1 } } }
                }
                for inputs in combinations {
                    #expect(!inventory.rows(of: section, holdingFor: inputs).isEmpty, "\(section.name) for \(inputs)")
                }
            }
        }
        // training_volume.bands, training_selection.levels and training_session_limits.limits (the
        // rest table also reads a modifier, a word of the rules, not an enumeration).
        #expect(tables == 3)
    }

    /// The coverage report lists every rule exactly once (text and LCOV), and rule ids are unique.
    @Test func theCoverageReportListsEveryRuleOnce() throws {
        let engine = try #require(Self.engine)
        let inventory = PlanTestRunner(engine: engine).inventory
        let ids = inventory.rules.map(\.id)
        #expect(Set(ids).count == ids.count)
        var coverage = CoachingCoverage(inventory: inventory)
        coverage.record(Set(ids.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)))
        let text = CoachingCoverageReport(coverage).text()
        let listed = text.split(separator: "\n").filter { $0.hasSuffix(" case") || $0.hasSuffix(" cases") }
        #expect(listed.count == ids.count)
        for id in ids {
            #expect(listed.filter { $0.contains(" \(id) — ") }.count == 1, "\(id)")
        }
        let never = text.components(separatedBy: "  never covered:\n").last ?? ""
        #expect(never.split(separator: "\n").count == coverage.uncovered.count)
        let lcov = CoachingCoverageReport(coverage).lcov()
        let daLines = lcov.split(separator: "\n").filter { $0.hasPrefix("DA:") }
        #expect(daLines.count == Set(inventory.rules.map { "\($0.location.file):\($0.location.line)" }).count)
    }

    /// Profiles over a grid of days, experience, goal, equipment, injuries and diets.
    static func profiles(count: Int) -> [String] {
        var generator = SeededGenerator(seed: 20)
        let goals = ["lean_mass", "fat_loss", "strength", "recomp"]
        let experiences = ["novice", "intermediate", "advanced"]
        let equipment = ["full_gym", "dumbbells_only", "bands_only", "bodyweight_only"]
        let injuries = ["[]", "[knee]", "[shoulder, low_back]"]
        let diets = ["[]", "[vegan]", "[gluten, egg]"]
        return (0..<count).map { index in
            """
            sex: \(index % 2 == 0 ? "female" : "male")
            schedule_days: \(Int.random(in: 1...7, using: &generator))
            age: \(Int.random(in: 16...70, using: &generator))
            weight_kg: \(Int.random(in: 50...120, using: &generator))
            height_cm: \(Int.random(in: 150...200, using: &generator))
            experience: \(experiences.randomElement(using: &generator) ?? "novice")
            goal: \(goals.randomElement(using: &generator) ?? "lean_mass")
            equipment: \(equipment.randomElement(using: &generator) ?? "full_gym")
            injuries: \(injuries.randomElement(using: &generator) ?? "[]")
            exclusions: \(diets.randomElement(using: &generator) ?? "[]")
            """
        }
    }

    /// Expectations written from a plan's own values: `key: value` lines, flow-style.
    static func expectations(for plan: GeneratedPlan, advice: SupplementAdvice) -> [(key: String, yaml: String, perturbed: String?)] {
        let value = plan.contractValue.roundedForPeople
        let training = value["training"]
        var out: [(String, String, String?)] = []
        let split = training?["split"]?["id"]?.stringValue ?? ""
        out.append(("split", "split: \(split)", "split: not_\(split)"))
        for key in ["training_days", "recovery_days"] {
            let number = training?["split"]?[key]?.numberValue ?? 0
            out.append((key, "\(key): \(NumberText.tenths(number))", "\(key): \(NumberText.tenths(number + 10))"))
        }
        for row in training?["weekly_sets"]?.listValue ?? [] {
            guard let muscle = row["muscle"]?.stringValue, let planned = row["planned"]?.numberValue else { continue }
            out.append(("weekly_sets.\(muscle)", "weekly_sets: {\(muscle): \(NumberText.tenths(planned))}",
                        "weekly_sets: {\(muscle): \(NumberText.tenths(planned + 1))-\(NumberText.tenths(planned + 30))}"))
        }
        for volume in plan.training.volume {
            let band = "\(volume.band.lowerBound)-\(volume.band.upperBound)"
            out.append(("weekly_band.\(volume.muscle)", "weekly_band: {\(volume.muscle): \(band)}",
                        "weekly_band: {\(volume.muscle): \(volume.band.lowerBound + 1)-\(volume.band.upperBound + 1)}"))
        }
        let kcal = value["kcal"]?.numberValue ?? 0
        out.append(("kcal", "kcal: \(NumberText.tenths(kcal))", "kcal: '<= \(NumberText.tenths(kcal - 50))'"))
        for macro in ["protein_g", "carb_g", "fat_g"] {
            let grams = value["macros"]?[macro]?.numberValue ?? 0
            out.append(("macros.\(macro)", "macros: {\(macro): \(NumberText.tenths(grams))}", "macros: {\(macro): '>= \(NumberText.tenths(grams + 5))'}"))
        }
        let meals = value["ingredients"]?["meals"]?.listValue ?? []
        out.append(("meals_per_day", "meals_per_day: \(meals.count)", "meals_per_day: \(meals.count + 3)"))
        for (category, key) in [("protein", "protein_opts"), ("carb", "carb_opts"), ("veg", "veg_opts"), ("fat", "fat_opts")] where !meals.isEmpty {
            let counts = meals.map { $0[key]?.listValue?.count ?? 0 }
            let low = counts.min() ?? 0, high = counts.max() ?? 0
            out.append(("meal_options.\(category)", "meal_options: {\(category): \(low)-\(high)}", "meal_options: {\(category): \(high + 1)-\(high + 9)}"))
        }
        var exercises: [String] = []
        for workout in value["workouts"]?.listValue ?? [] {
            for block in workout["blocks"]?.listValue ?? [] {
                if let id = block["exerciseId"]?.stringValue, !exercises.contains(id) { exercises.append(id) }
            }
        }
        if let first = exercises.first {
            out.append(("exercises", "exercises: [\(exercises.joined(separator: ", "))]", "exercises: {exclude: [\(first)]}"))
        }
        let shortlist = advice.shortlist.map(\.id)
        if let first = shortlist.first {
            out.append(("supplements", "supplements: [\(shortlist.joined(separator: ", "))]", "supplements: {exclude: [\(first)]}"))
        }
        let leftOut = advice.leftOut.map(\.id)
        if let first = leftOut.first {
            out.append(("left_out", "left_out: [\(leftOut.joined(separator: ", "))]", "left_out: {exclude: [\(first)]}"))
        }
        return out
    }

    /// A plan test written from a plan's own values passes; moving any one expected value outside
    /// what the plan has fails that case, naming exactly that key.
    @Test func expectationsFromThePlanPassAndPerturbedOnesFailNamingTheirKey() throws {
        let engine = try #require(Self.engine)
        let runner = PlanTestRunner(engine: engine)
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        var checkedKeys = 0
        for (index, profileText) in Self.profiles(count: 24).enumerated() {
            let profile = try engine.profile(from: profileText, name: "profile-\(index).yaml")
            guard let plan = try? engine.generatePlan(profile), let advice = try? engine.supplements(for: profile) else { continue }
            try scratch.write(profileText, to: "profile-\(index).yaml")
            let expectations = Self.expectations(for: plan, advice: advice)
            var file = "kind: plan_tests\nversion: 1\ncases:\n"
            file += "  - name: own values\n    profile: profile-\(index).yaml\n    expect:\n"
            // Keys holding a mapping (weekly_sets, macros, …) are merged into one mapping each.
            var merged: [String: [String]] = [:]
            var order: [String] = []
            for expectation in expectations {
                let parts = expectation.yaml.split(separator: ":", maxSplits: 1).map(String.init)
                let top = parts[0]
                if merged[top] == nil { order.append(top) }
                merged[top, default: []].append(parts[1].trimmingCharacters(in: .whitespaces))
            }
            for top in order {
                let values = merged[top] ?? []
                if values.count == 1 {
                    file += "      \(top): \(values[0])\n"
                } else {
                    let inner = values.map { $0.dropFirst().dropLast() }.joined(separator: ", ")
                    file += "      \(top): {\(inner)}\n"
                }
            }
            for (number, expectation) in expectations.enumerated() {
                guard let perturbed = expectation.perturbed else { continue }
                file += "  - name: perturbed \(number)\n    profile: profile-\(index).yaml\n    expect:\n      \(perturbed)\n"
            }
            let path = scratch.path("plan-tests-\(index).yaml")
            try scratch.write(file, to: "plan-tests-\(index).yaml")
            var none: CoachingCoverage?
            let result = try runner.run(PlanTestRunner.load(file: path), file: path, coverage: &none)
            let own = try #require(result.results.first)
            #expect(own.passed, "profile \(index): \(own.failures.map(\.line))")
            for (number, expectation) in expectations.enumerated() where expectation.perturbed != nil {
                let perturbed = try #require(result.results.first { $0.name == "perturbed \(number)" })
                #expect(perturbed.failures.map(\.key) == [expectation.key], "profile \(index): \(expectation.perturbed ?? "")")
                checkedKeys += 1
            }
        }
        #expect(checkedKeys > 24 * 20)
    }

    /// Every problem of a broken plan-test file is reported in one pass, each at file:line:col;
    /// exit 2, nothing on standard output.
    @Test func aBrokenFileReportsEveryProblemWithItsLocation() throws {
        let scratch = try ScratchFolder([
            "plan-tests-broken.yaml": """
            kind: plan_tests
            version: 1
            cases:
              - name: one
                profile: {sex: female, schedule_days: 3}
                expect: {kcal: 2000-1000, wekly_sets: {chest: 10}}
              - name: two
                expect: {split: full_body_3}
                assert: ["plan.kcal +"]
              - name: one
                profile: missing-profile.yaml
                expect: {split: full_body_3}
            """,
        ])
        defer { scratch.cleanUp() }
        let run = runRegimen(["test", scratch.path("plan-tests-broken.yaml")], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        let lines = run.standardError.split(separator: "\n").filter { $0.contains(": error:") }
        for line in ["6:20", "6:31", "7:5", "9:"] {
            let expected = scratch.path("plan-tests-broken.yaml") + ":" + line
            #expect(lines.contains { $0.hasPrefix(expected) }, "no error at \(expected) in:\n\(run.standardError)")
        }
        #expect(run.standardError.contains("duplicate"), "\(run.standardError)")
    }

    /// A failing expectation prints expected vs actual and the rule that produced the value;
    /// exit 1; the counts line as for security tests; output identical from run to run.
    @Test func aFailureNamesTheRuleAndTheOutputIsDeterministic() throws {
        let scratch = try ScratchFolder([
            "plan-tests-novice.yaml": """
            kind: plan_tests
            version: 1
            cases:
              - name: novice band
                profile: {sex: female, schedule_days: 3, experience: novice}
                expect: {weekly_band: {chest: 12-16}, split: full_body_3}
              - name: passes
                profile: {sex: female, schedule_days: 3}
                expect: {training_days: 3}
            """,
        ])
        defer { scratch.cleanUp() }
        let arguments = ["test", scratch.path("plan-tests-novice.yaml"), "--rules", RepositoryRoot.url.path]
        let run = runRegimen(arguments, in: scratch.url)
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("FAIL novice band — weekly_band.chest: expected 12-16, got 8-12 (rule: training_volume.bands.rows[0] at "))
        #expect(run.standardOutput.contains("rules/training-volume.yaml:"))
        #expect(run.standardOutput.hasSuffix("PASS passes\n1 passed, 1 failed\n"))
        for format in [[], ["--format", "json"], ["--format", "junit"]] {
            let first = runRegimen(arguments + format, in: scratch.url)
            let second = runRegimen(arguments + format, in: scratch.url)
            #expect(first.standardOutput == second.standardOutput)
            #expect(!first.standardOutput.isEmpty)
        }
    }

    /// One run of plan tests and security tests together: one counts line for both.
    @Test func planAndSecurityTestsRunTogether() {
        let run = runRegimen(["test", "rules/tests/plan-tests-supplements.yaml", "rules/security/planner/firestore.tests.yaml"], in: RepositoryRoot.url)
        #expect(run.status == 0, "\(run.standardError)")
        let last = run.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        let security = runRegimen(["test", "rules/security/planner/firestore.tests.yaml"], in: RepositoryRoot.url)
        let securityPassed = Int(security.standardOutput.split(separator: "\n").last?.split(separator: " ").first ?? "") ?? 0
        #expect(last == "\(securityPassed + 9) passed, 0 failed")
    }
}
