import OrderedCollections
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import RegimenTestSupport
import Testing
import Foundation

/// The names adaptation binds at run time are exactly the names its rule files are compiled
/// against, and every bound value has its declared type: a declared name that is never bound,
/// or a bound name nobody declared, fails here instead of silently disabling a rule.
@Suite struct AdaptationVariableBindingTests {
    typealias F = AdaptationFixtures
    typealias V = AdaptationVariables

    /// Random inputs over the four-day fixture plan: dated and undated check-ins, soreness or
    /// none, logged lifts with and without loads, RIR and feel, missing weekly facts.
    static func randomInput(_ rng: inout SeededGenerator) -> AdaptationInput {
        let regions = ["legs", "chest", "quads", "lower_back"]
        let checkIns = (0..<Int.random(in: 1...5, using: &rng)).map { day in
            CheckIn(
                date: Bool.random(using: &rng) ? "2026-03-0\(day + 1)" : nil, sleepHours: Double(Int.random(in: 8...20, using: &rng)) / 2,
                soreness: Bool.random(using: &rng) ? [regions[Int.random(in: 0..<regions.count, using: &rng)]: Int.random(in: 1...5, using: &rng)] : [:],
                stress: Int.random(in: 1...5, using: &rng), motivation: Int.random(in: 1...5, using: &rng))
        }
        let lifts = ["barbell_bench_press", "back_squat", "plank", "lateral_raise"].shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng))
        let exercises = lifts.map { id in
            LoggedExercise(
                exerciseId: id,
                sets: (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                    LoggedSet(loadKg: Bool.random(using: &rng) ? Double(Int.random(in: 20...100, using: &rng)) : nil, reps: Int.random(in: 4...15, using: &rng),
                              rir: Bool.random(using: &rng) ? Double(Int.random(in: 0...4, using: &rng)) : nil)
                },
                feel: [nil, .easy, .ok, .hard][Int.random(in: 0...3, using: &rng)])
        }
        return AdaptationInput(
            checkIns: checkIns, sessions: exercises.isEmpty ? [] : [LoggedSession(date: "2026-03-02", exercises: Array(exercises))],
            adherencePct: Bool.random(using: &rng) ? Double(Int.random(in: 0...100, using: &rng)) : nil,
            weightTrend: [nil, .below, .onTarget, .above][Int.random(in: 0...3, using: &rng)],
            week: Bool.random(using: &rng) ? Int.random(in: 1...14, using: &rng) : nil,
            laggingMuscles: Bool.random(using: &rng) ? ["chest"] : [])
    }

    /// Names bound equal the names declared, and each value is of its declared type.
    static func expect(_ bindings: [String: Value], match variables: [VariableDeclaration], _ what: String,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(Set(bindings.keys) == Set(variables.map(\.name)), "\(what): bound \(bindings.keys.sorted()), declared \(variables.map(\.name).sorted())",
                sourceLocation: sourceLocation)
        for variable in variables {
            guard let value = bindings[variable.name] else { continue }
            #expect(variable.type.admits(value), "\(what): \(variable.name) is declared \(variable.type) but was bound to \(value.typeName)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func everyScopeBindsExactlyItsDeclaredVariablesWithTheirTypes() throws {
        let engine = try #require(F.engine)
        let plan = try PlanView(document: F.upperLower)
        var rng = SeededGenerator(seed: 18)
        var sawRegion = false
        var sawLift = false
        var sawLagging = false
        for _ in 0..<60 {
            let input = Self.randomInput(&rng)
            var run = AdaptationRun(engine: engine, plan: plan, input: input)
            for checkIn in input.checkIns {
                Self.expect(AdaptationRun.checkinBindings(checkIn), match: V.checkinScope.variables, "checkin_readiness")
            }
            for scored in run.scoredWeek() {
                let day = AdaptationRun.dayBindings(readiness: scored.readiness, checkin: AdaptationRun.checkinBindings(scored.checkIn)["checkin"] ?? .null)
                Self.expect(day, match: V.dayScope.variables, "low_day/high_day")
            }
            let week = run.weekBindings()
            Self.expect(week, match: V.weekScope.variables, "week")
            for (region, level) in run.latestCheckIn()?.soreness ?? [:] {
                sawRegion = true
                Self.expect(AdaptationRun.regionBindings(week: week, region: region, soreness: level), match: AdaptationRule.Scope.soreRegion.variables, "sore_region")
            }
            for lift in run.loggedLifts() {
                sawLift = true
                Self.expect(run.liftBindings(lift, week: week), match: AdaptationRule.Scope.loggedExercise.variables, "logged_exercise")
                if let band = plan.bands[lift.prescription.muscle] {
                    sawLagging = true
                    let lagging = AdaptationRun.laggingBindings(muscle: lift.prescription.muscle, weeklySets: 7.5, band: band, declared: true)
                    Self.expect(lagging, match: V.laggingScope.variables, "lagging")
                }
            }
        }
        #expect(sawRegion && sawLift && sawLagging, "the generated inputs reach every scope")
    }

    @Test func theReadinessFileDeclaresEveryScopeItsExpressionsUse() {
        // Every `for_each` scope a rule may name is one the kind declares.
        let declared = Set(ReadinessRulesFile.expressionScopes.flatMap(\.names))
        for scope in AdaptationRule.Scope.allCases {
            #expect(Set(scope.variables.map(\.name)).isSubset(of: declared), "\(scope)")
        }
        // Within one scope a name is declared once.
        for scope in ReadinessRulesFile.expressionScopes + ProgressionRulesFile.expressionScopes {
            #expect(Set(scope.names).count == scope.names.count, "\(scope.name)")
        }
    }

    @Test func aNonNumericScoreIsRejectedByCheck() {
        let text = AdaptationTestRules.text("rules/readiness-rules.yaml")
        let broken = text.replacingOccurrences(
            of: "  score: \"math.round((sleep_score + stress_score + checkin.motivation + soreness_score) / 4.0)\"",
            with: "  score: \"'high'\"")
        #expect(broken != text)
        let result = AdaptationTestRules.load(replacing: ["rules/readiness-rules.yaml": broken])
        #expect(result.diagnostics.contains { $0.severity == .error && $0.message.contains("must give a number, not string") },
                "\(result.diagnostics.map(\.description))")
    }
}
