import Foundation
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenTracking
import OrderedCollections

/// Tracking's formulas compile against the typed variables `regimen explain-kind` lists for their
/// kind, and the engine binds exactly those: a type error fails `regimen check` at its character
/// instead of failing (or giving a wrong value) for each log at run time.
@Suite("Formula variables")
struct FormulaVariableTests {
    @Test("a type error in a formula is a load error at its character", arguments: [
        ("rules/calorie-burn.yaml", "rounding: \"kcal < 0 ?", "rounding: \"kcal < 'none' ?", "kcal < 'none'", "cannot compare number < string"),
        ("rules/calorie-burn.yaml", "net_kcal: \"consumed - burned\"", "net_kcal: \"consumed - 'burned'\"", "consumed - 'burned'", "unsupported operation: number - string"),
        ("rules/student-progress.yaml", "total_days: \"duration_weeks * days_per_week\"", "total_days: \"duration_weeks * 'seven'\"", "duration_weeks * 'seven'",
         "unsupported operation: int * string"),
        ("rules/periodization.yaml", "weekly_intensity: \"weeks <= 1 ?", "weekly_intensity: \"weeks <= 'one' ?", "weeks <= 'one'", "cannot compare int <= string"),
        ("rules/tracker/tracker-analytics.yaml", "set_volume: \"reps * weight\"", "set_volume: \"reps * 'weight'\"", "reps * 'weight'", "unsupported operation: int * string"),
        ("rules/tracker/tracker-duplication.yaml", "order: \"max_sibling_value + 1\"", "order: \"max_sibling_value * 'x'\"", "max_sibling_value * 'x'",
         "unsupported operation: number * string"),
    ])
    func typeErrorAtItsCharacter(path: String, original: String, broken: String, needle: String, says: String) throws {
        let shipped = try String(contentsOf: projectRoot.appendingPathComponent(path), encoding: .utf8)
        #expect(shipped.contains(original), "\(path) no longer holds \(original)")
        let text = shipped.replacingOccurrences(of: original, with: broken)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lineIndex = try #require(lines.firstIndex { $0.contains(needle) })
        let column = try #require(lines[lineIndex].range(of: needle)).lowerBound
        let location = "\(path):\(lineIndex + 1):\(lines[lineIndex].unicodeScalars.distance(from: lines[lineIndex].unicodeScalars.startIndex, to: column) + 1)"
        let found = RuleFileTests().diagnostics(replacing: path) { $0.replacingOccurrences(of: original, with: broken) }
        #expect(found.contains { $0.hasPrefix("\(location): error:") && $0.contains(says) }, "\(found)")
    }

    /// A formula's compiler warnings reach `regimen check` as every other rule expression's do
    /// (they were dropped: `||` over a number said nothing).
    @Test("a formula's compiler warnings are reported, located", arguments: [
        ("rules/periodization.yaml", "weekly_intensity: \"weeks <= 1 ?", "weekly_intensity: \"(weeks || weeks <= 1) ?"),
        ("rules/student-progress.yaml", "total_days: \"duration_weeks * days_per_week\"", "total_days: \"(duration_weeks || true) ? duration_weeks * days_per_week : 0\""),
    ])
    func warningsAreReported(path: String, original: String, questionable: String) throws {
        let shipped = try String(contentsOf: projectRoot.appendingPathComponent(path), encoding: .utf8)
        #expect(shipped.contains(original), "\(path) no longer holds \(original)")
        let found = RuleFileTests().diagnostics(replacing: path) { $0.replacingOccurrences(of: original, with: questionable) }
        #expect(found.contains { $0.hasPrefix("\(path):") && $0.contains(": warning: ") && $0.contains("'||' expects bool operands") }, "\(found)")
    }

    static func at(_ formulas: [Formula]) -> Set<RegimenLanguage.SourceLocation> { Set(formulas.compactMap(\.location)) }

    /// Runs `body` with a recorder and returns where the bindings disagree with `scopes`.
    static func mismatches(_ scopes: [(scope: ExpressionScope, locations: Set<RegimenLanguage.SourceLocation>)], _ body: () throws -> Void) rethrows -> [String] {
        let recorder = BindingRecorder()
        try BindingRecorder.$current.withValue(recorder) { try body() }
        return recorder.mismatches(scopes)
    }

    @Test("calorie_burn: the calculator and the daily log bind exactly the declared variables")
    func calorieBurnBindings() throws {
        let rules = try shippedRules()
        let burn = rules.calorieBurn
        let calculator = CalorieBurnCalculator(rules: burn, catalog: rules.activities)
        let found = try Self.mismatches([
            (CalorieBurnVariables.kcalScope, Self.at(burn.formulas.values.map(\.kcal))),
            (CalorieBurnVariables.roundingScope, Self.at([burn.rounding])),
            (CalorieBurnVariables.adjustedMETScope, Self.at([burn.adjustedMET])),
            (CalorieBurnVariables.netScope, Self.at([burn.netKcal])),
        ]) {
            // Running at moderate has no Compendium row of its own: the fallback's adjusted_met runs.
            for (activity, intensity) in [("running", "vigorous"), ("running", "moderate")] {
                for weight in [nil, 55.0, 120.0] {
                    _ = try calculator.burn(WorkoutEntry(activity: activity, minutes: 30, intensity: intensity), weightKg: weight)
                }
            }
            let log = Value.map([
                "weight_kg": .int(70),
                "foods": .list([.map(["name": .string("Oats"), "calories": .int(350), "timestamp": .string("2026-02-03T07:00:00Z")])]),
                "workouts": .list([
                    .map(["activity": .string("running"), "minutes": .int(30), "intensity": .string("vigorous"), "timestamp": .string("2026-02-03T18:00:00Z")]),
                ]),
            ])
            _ = try DailyLogCalculator(calculator: calculator).summarize(log, now: fixedNow).get()
        }
        #expect(found == [], "\(found.joined(separator: "\n"))")
    }

    @Test("student_progress: the progress report binds exactly the declared variables")
    func progressBindings() throws {
        let rules = try shippedRules().progress
        let found = try Self.mismatches([
            (StudentProgressVariables.totalDaysScope, Self.at([rules.totalDays])),
            (StudentProgressVariables.percentScope, Self.at([rules.percentComplete])),
            (StudentProgressVariables.restDayScope, Self.at([rules.restDay])),
        ]) {
            for weeks in [nil, 1, 4] as [Int?] {
                _ = try rules.progress(of: CompletionLog(workoutId: "w1", studentId: "s1", durationWeeks: weeks, startDate: nil, completedDays: [1, 2, 4], today: 5))
            }
        }
        #expect(found == [], "\(found.joined(separator: "\n"))")
    }

    @Test("periodization: plans, single workouts and the selection score bind exactly the declared variables")
    func periodizationBindings() throws {
        let rules = try shippedRules().periodization
        let selection = ExpressionScope(
            PeriodizationVariables.selectionScope.name, PeriodizationVariables.selectionScope.doc,
            PeriodizationVariables.selectionVariables(factors: Array(rules.selection.factors.keys)))
        let found = try Self.mismatches([
            (PeriodizationVariables.weeklyScope, Self.at([rules.weeklyIntensity])),
            (PeriodizationVariables.deloadScope, Self.at([rules.deloadIntensity])),
            (PeriodizationVariables.effortScope, Self.at([rules.effortIntensity])),
            (selection, Self.at([rules.selection.score])),
        ]) {
            for weeks in [3, 8, 12, 26] { _ = try rules.plan(weeks: weeks, goal: "strength", clock: try shippedDeloadClock()) }
            for effort in rules.effortLevels { _ = try rules.singleWorkout(effort: effort.id) }
            for flags in 0..<16 {
                _ = try rules.selection.score(.init(inLibrary: flags & 1 != 0, emphasized: flags & 2 != 0, underRepresented: flags & 4 != 0, patternRepeated: flags & 8 != 0))
            }
        }
        #expect(found == [], "\(found.joined(separator: "\n"))")
    }

    @Test("tracker_analytics: the analytics bind exactly the declared variables")
    func analyticsBindings() throws {
        let policy = try shippedRules().analytics
        let tree = makeTree(workouts: 2, exercises: 2, sets: 3) { $0 == 0 ? "strength" : "bodyweight" }
        let found = try Self.mismatches([(TrackerAnalyticsVariables.setScope, Self.at([policy.setVolume, policy.setScore, policy.estimatedOneRepMax]))]) {
            _ = try TrackerAnalytics(tree: tree, policy: policy)
        }
        #expect(found == [], "\(found.joined(separator: "\n"))")
    }

    @Test("tracker_duplication: the duplicator binds exactly the declared variables, a taken name included")
    func duplicationBindings() throws {
        let rules = try shippedRules()
        let policy = rules.duplication
        let duplicator = Duplicator(policy: policy, validation: rules.validation)
        let levels = policy.levels.values
        let found = try Self.mismatches([
            (TrackerDuplicationVariables.duplicatedScope, Self.at(levels.flatMap(\.whenDuplicated.values))),
            (TrackerDuplicationVariables.takenScope, Self.at(levels.flatMap(\.whenTaken.values))),
        ]) {
            let tree = makeTree(workouts: 2, exercises: 1, sets: 1)
            let first = try duplicator.duplicate(.program, id: "p1", in: tree, requestingUser: "u1", now: fixedNow)
            // "Strength Block (copy)" now exists: the second copy's name comes from when_taken.
            _ = try duplicator.duplicate(.program, id: "p1", in: first.tree, requestingUser: "u1", now: fixedNow)
            _ = try duplicator.duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: fixedNow)
            _ = try duplicator.duplicate(.workout, id: "wo0", in: tree, requestingUser: "u1", now: fixedNow)
            _ = try duplicator.duplicate(.exercise, id: "wo0e0", in: tree, requestingUser: "u1", now: fixedNow)
        }
        #expect(found == [], "\(found.joined(separator: "\n"))")
    }
}
