import RegimenTestSupport
import OrderedCollections
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing

/// Adaptation is safe to run twice: the patched plan records what was applied, the same request
/// again changes nothing, a rule never fires twice on the same evidence, the scheduled deload
/// comes once per block, and one date holds one check-in.
@Suite struct AdaptationRerunTests {
    typealias F = AdaptationFixtures

    private func adapt(_ input: AdaptationInput, plan: Value = F.upperLower) throws -> AdaptationResult {
        let engine = try #require(F.engine)
        return try engine.adapt(plan: plan, input: input)
    }

    private static func totalSets(_ plan: Value) -> Int64 {
        (plan["workouts"]?.listValue ?? []).flatMap { $0["blocks"]?.listValue ?? [] }.reduce(0) { $0 + ($1["sets"]?.intValue ?? 0) }
    }

    private static let lowWeek = AdaptationInput(
        checkIns: [F.low("2026-03-02"), F.neutral("2026-03-03"), F.low("2026-03-04"), F.neutral("2026-03-05"), F.low("2026-03-06")],
        week: 3)

    @Test func theSameRequestTwiceIsANoOpWithANote() throws {
        let first = try adapt(Self.lowWeek)
        #expect(first.changeLog.contains { $0.rule == "low_readiness_week" })
        let second = try adapt(Self.lowWeek, plan: first.patchedPlan)
        #expect(second.changeLog.isEmpty)
        #expect(second.patchedPlan == first.patchedPlan)
        #expect(Self.totalSets(second.patchedPlan) == Self.totalSets(first.patchedPlan))
        #expect(second.notes == ["this request (week 3, check-ins 2026-03-02 to 2026-03-06) was already applied to the plan; nothing changed"])
    }

    /// A record that cannot be read would let the same request apply again, so a plan whose
    /// `adaptations` is not a list of records is refused, naming the field; never compounded.
    @Test(arguments: [
        (Value.string("x"), "plan.adaptations: must be the list of records"),
        (Value.list([.int(1)]), "plan.adaptations[0]: must be a record"),
        (Value.list([.map(["week": .int(3)])]), "plan.adaptations[0]: must be a record"),
    ])
    func aMalformedRecordIsRefusedNotIgnored(_ records: Value, _ message: String) throws {
        let first = try adapt(Self.lowWeek)
        guard case .map(var root) = first.patchedPlan else { Issue.record("the patched plan is not a map"); return }
        root["adaptations"] = records
        do {
            _ = try adapt(Self.lowWeek, plan: .map(root))
            Issue.record("a malformed adaptations record was accepted")
        } catch let error as AdaptationInputError {
            #expect(error.problems.contains { $0.hasPrefix(message) }, "\(error.problems)")
        }
    }

    @Test func fourLowDaysTwiceDeloadOnce() throws {
        let input = AdaptationInput(checkIns: (2...5).map { F.low("2026-03-0\($0)") })
        let first = try adapt(input)
        let second = try adapt(input, plan: first.patchedPlan)
        #expect(Self.totalSets(second.patchedPlan) == Self.totalSets(first.patchedPlan))
        #expect(second.changeLog.isEmpty)
    }

    @Test func theRecordNamesTheWindowAndEachRulesEvidence() throws {
        let result = try adapt(Self.lowWeek)
        let record = try #require(result.patchedPlan["adaptations"]?.listValue?.last)
        #expect(record["week"] == .int(3))
        #expect(record["checkins"] == .list(["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"].map(Value.string)))
        let applied = record["applied"]?.listValue ?? []
        let cut = try #require(applied.first { $0["rule"] == .string("low_readiness_week") })
        #expect(cut["basis"]?.listValue?.contains(.string("week 3")) == true)
    }

    @Test func aRollingWindowDoesNotRepeatTheWeeklyCut() throws {
        let first = try adapt(Self.lowWeek)
        var rolled = Self.lowWeek
        rolled.checkIns.append(F.neutral("2026-03-07"))
        let second = try adapt(rolled, plan: first.patchedPlan)
        #expect(!second.changeLog.contains { $0.rule == "low_readiness_week" })
        #expect(second.notes.contains { $0.hasPrefix("rule 'low_readiness_week' was already applied to 2026-03-02") })
        #expect(Self.totalSets(second.patchedPlan) == Self.totalSets(first.patchedPlan))
    }

    @Test func aNewWeeksEvidenceStillAdapts() throws {
        let first = try adapt(Self.lowWeek)
        let nextWeek = AdaptationInput(checkIns: [F.low("2026-03-10"), F.low("2026-03-11"), F.high("2026-03-12")], week: 4)
        let second = try adapt(nextWeek, plan: first.patchedPlan)
        #expect(second.changeLog.contains { $0.rule == "low_readiness_week" })
        #expect(second.patchedPlan["adaptations"]?.listValue?.count == 2)
    }

    @Test func theScheduledDeloadComesOncePerBlock() throws {
        let deloadWeeks = try (1...19).filter { week in
            try adapt(AdaptationInput(week: week)).changeLog.contains { $0.rule == "scheduled_deload" }
        }
        #expect(deloadWeeks == [6, 12, 18])
    }

    @Test func aBlockThatDeloadedEarlyDoesNotDeloadAgainAtItsEnd() throws {
        let tiredWeekFour = try adapt(AdaptationInput(checkIns: [F.low("2026-03-02"), F.neutral("2026-03-03")], week: 4))
        #expect(tiredWeekFour.changeLog.first?.rule == "scheduled_deload")
        let weekSix = try adapt(AdaptationInput(week: 6), plan: tiredWeekFour.patchedPlan)
        #expect(!weekSix.changeLog.contains { $0.rule == "scheduled_deload" })
        let weekTwelve = try adapt(AdaptationInput(week: 12), plan: tiredWeekFour.patchedPlan)
        #expect(weekTwelve.changeLog.contains { $0.rule == "scheduled_deload" })
    }

    /// A deload lasts its week: the week after, every block's sets and RIR are back, and the
    /// next block's deload cuts from the full plan again rather than from the deloaded one.
    @Test func theWeekAfterADeloadTrainsThePlanAgain() throws {
        let deload = try adapt(AdaptationInput(week: 6))
        #expect(deload.patchedPlan["deload"] == .bool(true))
        #expect(Self.totalSets(deload.patchedPlan) < Self.totalSets(F.upperLower))
        let after = try adapt(AdaptationInput(week: 7), plan: deload.patchedPlan)
        #expect(F.lines(after) == ["Deload over: weekly sets 42 → \(Self.totalSets(F.upperLower)), RIR as before (week 7 follows the deload of week 6)"])
        #expect(after.patchedPlan["deload"] == .bool(false))
        #expect(after.patchedPlan["workouts"] == F.upperLower["workouts"])
        let nextBlock = try adapt(AdaptationInput(week: 12), plan: after.patchedPlan)
        #expect(Self.totalSets(nextBlock.patchedPlan) == Self.totalSets(deload.patchedPlan))
    }

    @Test func twoCheckInsOfOneDateAreRejectedNamingBoth() throws {
        let input = AdaptationInput(checkIns: [F.low("2026-03-02"), F.neutral("2026-03-03"), F.low("2026-03-02")])
        #expect(throws: AdaptationInputError(["checkins[2].date: 2026-03-02 is already the date of checkins[0]; give one check-in per day"])) {
            try adapt(input)
        }
    }

    @Test func aDuplicateDateInACheckInsFileIsALocatedError() {
        let text = """
            checkins:
              - {date: 2026-03-02, sleep_h: 4, stress: 5, motivation: 1}
              - {date: 2026-03-02, sleep_h: 4, stress: 5, motivation: 1}
            """
        do {
            _ = try AdaptationInputDecoder.decode(text: text, file: "in.yaml")
            Issue.record("the duplicate date was accepted")
        } catch {
            #expect(error.problems == ["in.yaml:3:12: error: 'checkins[1].date' 2026-03-02 is already the date of checkins[0] (line 2); give one check-in per day"])
        }
    }

    /// For every generated plan and request: applying the request to its own output gives the
    /// same plan, and a second run after a change logs nothing.
    @Test func applyingAnyRequestTwiceEqualsApplyingItOnce() throws {
        var rng = SeededGenerator(seed: 0x2E2E)
        var changed = 0
        for _ in 0..<400 {
            let c = AdaptationPropertyTests.randomCase(&rng)
            let input = AdaptationPropertyTests.randomInput(for: c.plan, &rng)
            let base = try #require(F.engine)
            let engine = AdaptationEngine(readiness: base.readiness, progression: base.progression, exercises: c.exercises, setCredit: base.setCredit, calories: base.calories)
            let once = try engine.adapt(plan: c.plan, input: input)
            let twice = try engine.adapt(plan: once.patchedPlan, input: input)
            #expect(twice.patchedPlan == once.patchedPlan)
            // A run that changed the plan is recorded, so the second one logs nothing; a run
            // whose entries only note things (or cancel out) leaves no record and may note again.
            if once.patchedPlan != c.plan {
                changed += 1
                #expect(twice.changeLog.isEmpty)
            }
        }
        #expect(changed > 100)
    }
}

/// A hand-edited or hostile `adaptations` record never traps the engine.
@Suite struct AdaptationRecordInputTests {
    @Test func recordsWithAbsurdNumbersAreIgnoredNotTrusted() throws {
        let engine = try #require(AdaptationFixtures.engine)
        guard case .map(var plan) = AdaptationFixtures.upperLower else { Issue.record("fixture is not a map"); return }
        plan["deload"] = .bool(true)
        plan["adaptations"] = .list([
            .map(["input": .string("x"), "week": .int(Int64.min), "deload_week": .int(Int64.min),
                  "before_deload": .list([.map(["workout": .int(Int64.max), "block": .int(-1), "sets": .int(Int64.max)])])]),
            .map(["input": .string("y"), "deload_week": .int(Int64.max)]),
        ])  // an entry that is no record at all is refused: aMalformedRecordIsRefusedNotIgnored
        for week in [1, 6, 7, 12] {
            let result = try engine.adapt(plan: .map(plan), input: AdaptationInput(week: week))
            #expect(!result.changeLog.contains { $0.rule == "deload_over" })
        }
    }
}
