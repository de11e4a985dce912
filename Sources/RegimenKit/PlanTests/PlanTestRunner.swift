import Foundation
import RegimenCoaching
import RegimenLanguage
import RegimenRules

/// One expectation that did not hold: what was expected, what the plan had, and the rules
/// (`id at file:line`) that produced the value, where the plan records them.
package struct PlanTestFailure: Sendable, Hashable {
    package var key: String
    package var expected: String
    package var actual: String
    package var rules: [String]

    /// `weekly_sets.chest: expected 12-16, got 10 (rule: training_volume.bands.rows[1] at rules/training-volume.yaml:33)`.
    package var line: String {
        "\(key): expected \(expected), got \(actual)" + (rules.isEmpty ? "" : " (rule: \(rules.joined(separator: "; ")))")
    }
}

/// The outcome of one plan-test case.
package struct PlanTestResult: Sendable, Hashable {
    package var name: String
    package var location: SourceLocation
    package var failures: [PlanTestFailure]
    package var passed: Bool { failures.isEmpty }
}

/// The results of one plan-test file.
package struct PlanTestFileResult: Sendable {
    package var file: String
    package var results: [PlanTestResult]
    package var passed: Int { results.filter(\.passed).count }
    package var failed: Int { results.count - passed }
}

/// Everything one case produced, as the expectations and `assert:` read it.
package struct PlanTestOutcome: Sendable {
    package var generated: GeneratedPlan
    package var plan: Value
    var supplements: SupplementAdvice
    var adapted: AdaptationResult?
    package var diff: ProfileDiff?
    package var profile: Profile
    var profileValue: Value
}

/// Reads plan-test files and runs their cases through the engine's front door
/// (``RegimenEngine/generatePlan(_:split:)``, ``RegimenEngine/adaptPlan(_:)``,
/// ``RegimenEngine/diff(old:new:)``, ``RegimenEngine/supplements(for:goal:)``).
package struct PlanTestRunner: Sendable {
    package let engine: RegimenEngine
    /// The engine's coaching rules, for provenance and coverage.
    package let inventory: CoachingRuleInventory

    package init(engine: RegimenEngine) {
        self.engine = engine
        inventory = CoachingRuleInventory(sources: engine.sources)
    }

    /// Reads a `kind: plan_tests` file.
    /// - Throws: ``DiagnosticsError`` with every problem of the file, each located.
    package static func load(file: String) throws(DiagnosticsError) -> PlanTestsFile {
        let text = try InputFile.read(path: file)
        let result = RuleSetLoader(kinds: [PlanTestsFile.self]).load(files: [(file, text)])
        let ruleSet = try result.get()
        guard let suite = ruleSet.first(PlanTestsFile.self) else {
            throw DiagnosticsError([.error("tests.kind", "expected 'kind: plan_tests'", at: SourceLocation(file: file, line: 1, column: 1))])
        }
        return suite
    }

    /// A case's inputs, read and checked.
    private struct Inputs {
        var profile: Profile
        var profileValue: Value
        var previous: Profile?
        var checkIns: AdaptationInput?
        var plan: Value?
    }

    /// Runs every case of `suite`. The inputs of every case are read first, so a broken profile or
    /// check-in file is reported with all the others before anything runs.
    /// - Parameter coverage: receives the rules each case reached, when given.
    /// - Throws: ``DiagnosticsError`` listing every unreadable input.
    package func run(_ suite: PlanTestsFile, file: String, coverage: inout CoachingCoverage?) throws(DiagnosticsError) -> PlanTestFileResult {
        var problems: [Diagnostic] = []
        var prepared: [Inputs?] = []
        for testCase in suite.cases {
            prepared.append(inputs(of: testCase, problems: &problems))
        }
        if !problems.isEmpty { throw DiagnosticsError(problems) }
        var results: [PlanTestResult] = []
        for (testCase, inputs) in zip(suite.cases, prepared) {
            guard let inputs else { continue }
            results.append(run(testCase, inputs: inputs, coverage: &coverage))
        }
        return PlanTestFileResult(file: file, results: results)
    }

    private func inputs(of testCase: PlanTestCase, problems: inout [Diagnostic]) -> Inputs? {
        func node(_ input: PlanTestCase.Input) -> LocatedNode? {
            switch input {
            case .inline(let node): return node
            case .file(let path, let location):
                let text: String
                do { text = try InputFile.read(path: path) } catch {
                    problems.append(.error("tests.input", "cannot read \(path): \(error.diagnostics.first?.message ?? "unreadable")", at: location))
                    return nil
                }
                let read = YAMLReader.read(text, file: path)
                problems.append(contentsOf: read.diagnostics)
                guard let document = read.document else {
                    if read.diagnostics.isEmpty { problems.append(.error("tests.input", "\(path) is empty", at: location)) }
                    return nil
                }
                return document
            }
        }
        func where_(_ input: PlanTestCase.Input) -> SourceLocation {
            switch input {
            case .inline(let node): node.location
            case .file(_, let location): location
            }
        }
        func profile(_ input: PlanTestCase.Input) -> (Profile, Value)? {
            guard let document = node(input) else { return nil }
            do {
                return (try engine.planner.nutrition.profileDecoder.decode(document), document.value())
            } catch {
                problems.append(contentsOf: error.problems.map { problem in
                    var diagnostic = problem.diagnostic
                    if diagnostic.location == nil { diagnostic.location = where_(input) }
                    return diagnostic
                })
                return nil
            }
        }
        let current = profile(testCase.profile)
        let previous = testCase.previousProfile.flatMap(profile)
        var checkIns: AdaptationInput?
        if let input = testCase.checkIns, let document = node(input) {
            do { checkIns = try AdaptationInputDecoder.decode(document) } catch {
                problems.append(contentsOf: error.diagnostics.map { problem in
                    var diagnostic = problem
                    if diagnostic.location == nil { diagnostic.location = where_(input) }
                    return diagnostic
                })
            }
        }
        let plan = testCase.plan.flatMap(node).map { $0.value() }
        guard let current, testCase.previousProfile == nil || previous != nil, testCase.checkIns == nil || checkIns != nil,
              testCase.plan == nil || plan != nil else { return nil }
        return Inputs(profile: current.0, profileValue: current.1, previous: previous?.0, checkIns: checkIns, plan: plan)
    }

    private func run(_ testCase: PlanTestCase, inputs: Inputs, coverage: inout CoachingCoverage?) -> PlanTestResult {
        func refused(_ what: String, _ error: RegimenError) -> PlanTestResult {
            let message = error.description.split(separator: "\n").first.map(String.init) ?? "refused"
            return PlanTestResult(name: testCase.name, location: testCase.location, failures: [
                PlanTestFailure(key: what, expected: "a result", actual: "refused: \(message)", rules: []),
            ])
        }
        let generated: GeneratedPlan
        let advice: SupplementAdvice
        do { generated = try engine.generatePlan(inputs.profile, split: testCase.split) } catch { return refused("plan", error) }
        do { advice = try engine.supplements(for: inputs.profile, goal: testCase.supplementGoal) } catch { return refused("supplements", error) }
        var adapted: AdaptationResult?
        if let checkIns = inputs.checkIns {
            let request = AdaptPlanRequest(plan: inputs.plan ?? generated.contractValue, input: checkIns, name: testCase.name)
            do { adapted = try engine.adaptPlan(request) } catch { return refused("adapt", error) }
        }
        var diff: ProfileDiff?
        if let previous = inputs.previous {
            do { diff = try engine.diff(old: previous, new: inputs.profile) } catch { return refused("diff", error) }
        }
        let outcome = PlanTestOutcome(
            generated: generated, plan: (adapted?.patchedPlan ?? generated.contractValue).roundedForPeople, supplements: advice,
            adapted: adapted, diff: diff, profile: inputs.profile, profileValue: inputs.profileValue)
        coverage?.record(reached(by: outcome))
        var failures: [PlanTestFailure] = []
        for expectation in testCase.expectations {
            if let failure = check(expectation, outcome) { failures.append(failure) }
        }
        let bindings: [String: Value] = [
            "plan": outcome.plan, "generated": generated.contractValue.roundedForPeople,
            "supplements": advice.contractValue.roundedForPeople,
            "adapted": adapted.map { $0.contractValue.roundedForPeople } ?? .null,
            "diff": diff.map { $0.contractValue.roundedForPeople } ?? .null,
            "profile": inputs.profileValue,
        ].merging(Self.derived(from: outcome.plan)) { first, _ in first }
        for assertion in testCase.assertions {
            let key = "assert `\(assertion.text)` (\(assertion.location))"
            do {
                let value = try assertion.expression.evaluate(bindings)
                if value != .bool(true) {
                    failures.append(PlanTestFailure(key: key, expected: "true", actual: value.jsonString(pretty: false), rules: []))
                }
            } catch {
                failures.append(PlanTestFailure(key: key, expected: "true", actual: "error: \(error.message)", rules: []))
            }
        }
        return PlanTestResult(name: testCase.name, location: testCase.location, failures: failures)
    }

    /// The shortcuts `assert:` may read besides the results themselves (the rules language has
    /// no comprehensions, so the plan's nested lists are flattened here).
    static func derived(from plan: Value) -> [String: Value] {
        var weekly = Value.Map()
        for row in plan["training"]?["weekly_sets"]?.listValue ?? [] {
            if let muscle = row["muscle"]?.stringValue { weekly[muscle] = row }
        }
        var blocks: [Value] = []
        var exercises: [Value] = []
        var reps: [Value] = []
        for workout in plan["workouts"]?.listValue ?? [] {
            for block in workout["blocks"]?.listValue ?? [] {
                blocks.append(block)
                if let id = block["exerciseId"], !exercises.contains(id) { exercises.append(id) }
                if let prescription = block["reps"], !reps.contains(prescription) { reps.append(prescription) }
            }
        }
        return ["weekly": .map(weekly), "blocks": .list(blocks), "exercises": .list(exercises), "reps": .list(reps),
                "meals": .list(plan["ingredients"]?["meals"]?.listValue ?? [])]
    }

    // MARK: - Provenance and coverage

    /// `id at file:line`, for a failure's rule list.
    private func cite(_ rule: CoachingRule) -> String { "\(rule.id) at \(rule.location.file):\(rule.location.line)" }

    private func cite(_ reference: RuleReference) -> String {
        reference.location.map { "\(reference.rule) at \($0.file):\($0.line)" } ?? reference.rule
    }

    /// Every coaching rule the case reached: the rules the plan records as its sources, the rows
    /// its inputs selected, the supplement cautions that applied, the adaptation rules that fired
    /// and the auto-adjust rows of the changed fields.
    package func reached(by outcome: PlanTestOutcome) -> Set<String> {
        var ids = Set<String>()
        let week = outcome.generated.training
        ids.insert(week.split.source.rule)
        for workout in week.workouts {
            ids.formUnion(workout.sources.map(\.rule))
            for block in workout.blocks { ids.formUnion(block.sources.map(\.rule)) }
            if let compact = workout.compact { ids.insert(compact.source.rule) }
        }
        for muscle in week.volume { ids.formUnion(muscle.sources.map(\.rule)) }
        ids.formUnion(inventory.rows(of: TrainingSelectionFile.levelsSection, holdingFor: ["experience": .string(week.inputs.experience.rawValue)]))
        ids.insert(TrainingSelectionFile.equipmentProfilesSection.id(week.inputs.equipment.rawValue))
        for injury in week.inputs.injuries { ids.insert(TrainingSelectionFile.injurySetCutsSection.id(injury.rawValue)) }
        ids.insert(NutritionFile.caloriesSection.id(week.inputs.goal))
        for exclusion in outcome.profile.exclusions { ids.insert(DietaryExclusionsFile.exclusionsSection.id(exclusion)) }
        for rule in cautionRules(outcome.supplements) { ids.insert(SupplementRulesFile.cautionsSection.id(rule)) }
        if let adapted = outcome.adapted {
            ids.insert(AutoAdjustMatrixFile.matrixSection.id("readiness"))
            for entry in adapted.changeLog {
                if let rule = inventory.adaptationRule(entry.rule) { ids.insert(rule.id) }
            }
        }
        if let diff = outcome.diff {
            for change in diff.fieldChanges {
                if let row = matrixRow(for: change.field) { ids.insert(AutoAdjustMatrixFile.matrixSection.id(row.field)) }
            }
        }
        return ids.filter { inventory.rule($0) != nil }
    }

    private func matrixRow(for field: String) -> AutoAdjustMatrix.Row? {
        engine.adaptation.matrix.rows.first { $0.fields.contains(field) }
    }

    /// The caution rule ids that applied to any candidate item, with `item:rule` pairs.
    private func cautionRules(_ advice: SupplementAdvice, pairs: Bool = false) -> Set<String> {
        var out = Set<String>()
        for item in advice.shortlist + advice.optional {
            for note in item.personalCautions {
                out.insert(note.rule)
                if pairs { out.insert("\(item.id):\(note.rule)") }
            }
        }
        for item in advice.leftOut {
            for note in item.reasons {
                out.insert(note.rule)
                if pairs { out.insert("\(item.id):\(note.rule)") }
            }
        }
        return out
    }

    // MARK: - Expectations

    private func check(_ expectation: PlanExpectation, _ outcome: PlanTestOutcome) -> PlanTestFailure? {
        let plan = outcome.plan
        let week = outcome.generated.training
        let training = plan["training"]
        func fail(_ expected: String, _ actual: String, _ rules: [String]) -> PlanTestFailure {
            PlanTestFailure(key: expectation.key, expected: expected, actual: actual, rules: rules)
        }
        func number(_ value: Double?, _ rules: @autoclosure () -> [String]) -> PlanTestFailure? {
            guard case .number(let expected) = expectation.check else { return nil }
            guard let value else { return fail(expected.description, "nothing", rules()) }
            return expected.contains(value) ? nil : fail(expected.description, NumberText.tenths(value), rules())
        }
        func members(_ actual: Set<String>, missing: (String) -> [String] = { _ in [] }, present: (String) -> [String] = { _ in [] },
                     empty: String = "none") -> PlanTestFailure? {
            guard case .members(let expected) = expectation.check else { return nil }
            let lacking = expected.include.filter { !actual.contains($0) }
            let unwanted = expected.exclude.filter { actual.contains($0) }
            guard !lacking.isEmpty || !unwanted.isEmpty else { return nil }
            var wanted: [String] = []
            if !expected.include.isEmpty { wanted.append("to include " + expected.include.joined(separator: ", ")) }
            if !expected.exclude.isEmpty { wanted.append("to exclude " + expected.exclude.joined(separator: ", ")) }
            var got: [String] = []
            if !lacking.isEmpty { got.append("no " + lacking.joined(separator: ", ")) }
            if !unwanted.isEmpty { got.append(unwanted.joined(separator: ", ")) }
            let rules = lacking.flatMap(missing) + unwanted.flatMap(present)
            var unique: [String] = []
            for rule in rules where !unique.contains(rule) { unique.append(rule) }
            let all = actual.isEmpty ? " (\(empty))" : ""
            return fail(wanted.joined(separator: " and "), got.joined(separator: "; ") + all, unique)
        }
        let splitRules = [cite(week.split.source)]
        let goalRules = inventory.rule(NutritionFile.caloriesSection.id(week.inputs.goal)).map { [cite($0)] } ?? []
        let kcalChanges = outcome.adapted?.changeLog.filter { $0.field == "kcal" }.compactMap { inventory.adaptationRule($0.rule).map(cite) } ?? []
        switch expectation.measure {
        case .split:
            guard case .text(let expected) = expectation.check else { return nil }
            let actual = training?["split"]?["id"]?.stringValue ?? "none"
            return actual == expected ? nil : fail(expected, actual, splitRules)
        case .trainingDays:
            return number(training?["split"]?["training_days"]?.numberValue, splitRules)
        case .recoveryDays:
            return number(training?["split"]?["recovery_days"]?.numberValue, splitRules)
        case .weeklySets(let muscle):
            let row = training?["weekly_sets"]?.listValue?.first { $0["muscle"]?.stringValue == muscle }
            let volume = week.volume.first { $0.muscle == muscle }
            var rules = (volume?.sources ?? []).map(cite)
            for entry in outcome.adapted?.changeLog ?? [] where ["sets", "weekly_sets"].contains(entry.field) {
                if let rule = inventory.adaptationRule(entry.rule) { rules.append(cite(rule)) }
            }
            return number(row?["planned"]?.numberValue, rules)
        case .weeklyBand(let muscle):
            guard case .text(let expected) = expectation.check else { return nil }
            guard let volume = week.volume.first(where: { $0.muscle == muscle }) else { return fail(expected, "no such muscle in the plan", []) }
            let actual = ExpectedNumber(lower: Double(volume.band.lowerBound), upper: Double(volume.band.upperBound)).description
            return actual == expected ? nil : fail(expected, actual, volume.sources.map(cite))
        case .kcal:
            return number(plan["kcal"]?.numberValue, kcalChanges.isEmpty ? goalRules : kcalChanges)
        case .macro(let name):
            return number(plan["macros"]?[name]?.numberValue, kcalChanges.isEmpty ? goalRules : kcalChanges)
        case .mealsPerDay:
            return number((plan["ingredients"]?["meals"]?.listValue).map { Double($0.count) }, [])
        case .mealOptions(let category):
            guard case .number(let expected) = expectation.check else { return nil }
            let key = PlanExpectation.mealCategories.first { $0.name == category }?.key ?? category
            let counts = (plan["ingredients"]?["meals"]?.listValue ?? []).map { $0[key]?.listValue?.count ?? 0 }
            guard !counts.isEmpty else { return fail("every meal \(expected)", "no meals", []) }
            guard counts.contains(where: { !expected.contains(Double($0)) }) else { return nil }
            let exclusions = outcome.profile.exclusions.compactMap { inventory.rule(DietaryExclusionsFile.exclusionsSection.id($0)).map(cite) }
            return fail("every meal \(expected)", counts.map(String.init).joined(separator: ", "), exclusions)
        case .exercises:
            var ids = Set<String>()
            for workout in plan["workouts"]?.listValue ?? [] {
                for block in workout["blocks"]?.listValue ?? [] { if let id = block["exerciseId"]?.stringValue { ids.insert(id) } }
            }
            let selection = [TrainingSelectionFile.equipmentProfilesSection.id(week.inputs.equipment.rawValue)]
                + inventory.rows(of: TrainingSelectionFile.levelsSection, holdingFor: ["experience": .string(week.inputs.experience.rawValue)])
                + week.inputs.injuries.map { TrainingSelectionFile.injurySetCutsSection.id($0.rawValue) }
            // A missing exercise was filtered out, a present one let in, by the same rules.
            let selecting = selection.compactMap { inventory.rule($0).map(cite) } + [cite(engine.planner.training.rules.selectionPolicy)]
            return members(ids, missing: { _ in selecting }, present: { _ in selecting })
        case .ingredients:
            var ids = Set<String>()
            for meal in plan["ingredients"]?["meals"]?.listValue ?? [] {
                for (_, key) in PlanExpectation.mealCategories {
                    for option in meal[key]?.listValue ?? [] {
                        if let id = option["ingredientId"]?.stringValue { ids.insert(id) }
                    }
                }
            }
            let exclusions = outcome.profile.exclusions.compactMap { inventory.rule(DietaryExclusionsFile.exclusionsSection.id($0)).map(cite) }
            return members(ids, missing: { _ in exclusions })
        case .changeLog:
            let entries = outcome.adapted?.changeLog ?? []
            return members(Set(entries.map(\.line)), present: { line in
                entries.filter { $0.line == line }.compactMap { inventory.adaptationRule($0.rule).map(cite) }
            }, empty: outcome.adapted == nil ? "the case does not adapt: add checkins:" : "no change")
        case .rulesFired:
            let entries = outcome.adapted?.changeLog ?? []
            return members(Set(entries.map(\.rule)), present: { id in inventory.adaptationRule(id).map { [cite($0)] } ?? [] },
                           empty: outcome.adapted == nil ? "the case does not adapt: add checkins:" : "no rule fired")
        case .supplements:
            let advice = outcome.supplements
            return members(Set(advice.shortlist.map(\.id)), missing: { id in
                (advice.leftOut.first { $0.id == id }?.reasons ?? []).compactMap { inventory.rule(SupplementRulesFile.cautionsSection.id($0.rule)).map(cite) }
            })
        case .leftOut:
            let advice = outcome.supplements
            return members(Set(advice.leftOut.map(\.id)), present: { id in
                (advice.leftOut.first { $0.id == id }?.reasons ?? []).compactMap { inventory.rule(SupplementRulesFile.cautionsSection.id($0.rule)).map(cite) }
            })
        case .cautions:
            return members(cautionRules(outcome.supplements, pairs: true), present: { entry in
                let rule = entry.split(separator: ":").last.map(String.init) ?? entry
                return inventory.rule(SupplementRulesFile.cautionsSection.id(rule)).map { [cite($0)] } ?? []
            })
        case .recomputed:
            guard let diff = outcome.diff else {
                return members([], empty: "the case has no previous_profile to diff against")
            }
            let rows = diff.fieldChanges.compactMap { matrixRow(for: $0.field) }
            let rules = rows.compactMap { inventory.rule(AutoAdjustMatrixFile.matrixSection.id($0.field)).map(cite) }
            return members(Set(diff.recomputed.map(\.rawValue)), missing: { _ in rules }, present: { _ in rules })
        }
    }
}

/// Which coaching rules a run of plan tests reached: one recorder per run, filled case by case,
/// so the loaded rules stay immutable and planning without coverage records nothing.
package struct CoachingCoverage: Sendable {
    package let inventory: CoachingRuleInventory
    /// Cases that reached each rule, by rule id.
    private(set) var hits: [String: Int] = [:]

    package init(inventory: CoachingRuleInventory) { self.inventory = inventory }

    package mutating func record(_ ids: Set<String>) {
        for id in ids { hits[id, default: 0] += 1 }
    }

    var covered: [CoachingRule] { inventory.rules.filter { (hits[$0.id] ?? 0) > 0 } }
    var uncovered: [CoachingRule] { inventory.rules.filter { (hits[$0.id] ?? 0) == 0 } }
}
