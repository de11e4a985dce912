@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenTracking

@Suite("Periodization")
struct PeriodizationTests {
    func rules() throws -> PeriodizationRules { try shippedRules().periodization }

    @Test("the seed's ramp: 0.60 → 0.68 → 0.77 → 0.85 over four weeks")
    func seedRamp() throws {
        let rules = try rules()
        let weeks = try (1...4).map { try rules.rampIntensity(start: 0.60, end: 0.85, week: $0, weeks: 4) }
        #expect(weeks == [0.60, 0.68, 0.77, 0.85])
        #expect(try rules.rampIntensity(start: 0.6, end: 0.9, week: 1, weeks: 1) == 0.6)
    }

    @Test("phases by plan length follow the seed's table", arguments: [
        (3, ["development"]),
        (4, ["foundation", "development"]), (8, ["foundation", "development"]),
        (12, ["foundation", "development", "peak"]),
        (24, ["foundation", "development", "peak", "maintenance"]), (52, ["foundation", "development", "peak", "maintenance"]),
    ])
    func phases(weeks: Int, phases: [String]) throws {
        let plan = try rules().plan(weeks: weeks, goal: "strength", clock: try shippedDeloadClock())
        #expect(plan.phases.map(\.focus) == phases)
        #expect(plan.schedule.count == weeks)
        #expect(plan.phases.first?.firstWeek == 1 && plan.phases.last?.lastWeek == weeks)
    }

    @Test("a 12-week strength plan: ramps inside each focus range over its training weeks, deloads on the clock")
    func twelveWeeks() throws {
        let plan = try rules().plan(weeks: 12, goal: "strength", clock: try shippedDeloadClock())
        #expect(plan.schedule.map(\.intensity) == [0.60, 0.63, 0.67, 0.70, 0.70, 0.55, 0.75, 0.80, 0.80, 0.85, 0.90, 0.55])
        #expect(plan.schedule.filter(\.isDeload).map(\.week) == [6, 12])
        #expect(plan.phases.map(\.deloadWeeks) == [[], [6], [12]])
        let week7 = try #require(plan.week(7))
        #expect(week7.phase == "development")
        #expect(week7.rpe == 7...8)
        #expect(week7.compound.description == "3x5 heavy")
        #expect(week7.isolation.description == "3x10 moderate")
        let week11 = try #require(plan.week(11))
        #expect(week11.compound.description == "3x3 peak")
        #expect(week11.isolation.description == "3x8 heavy")
        #expect(week11.rpe == 8...10)
        // A deload week names its phase and trains the deload focus.
        #expect(plan.week(6)?.phase == "development" && plan.week(6)?.rpe == 5...6)
        #expect(plan.week(12)?.compound.description == "3x5 moderate")
        #expect(plan.week(13) == nil && plan.week(0) == nil)
    }

    @Test("intensity → protocol follows the seed's table", arguments: [
        (0.50, "3x5 moderate", "3x12 light"), (0.64, "3x5 moderate", "3x12 light"),
        (0.65, "3x5 heavy", "3x10 moderate"), (0.79, "3x5 heavy", "3x10 moderate"),
        (0.80, "3x3 peak", "3x8 heavy"), (0.95, "3x3 peak", "3x8 heavy"),
    ])
    func protocols(intensity: Double, compound: String, isolation: String) throws {
        let row = try #require(try rules().protocolRow(for: intensity))
        #expect(row.compound.description == compound)
        #expect(row.isolation.description == isolation)
    }

    @Test("focus and effort tables carry the seed's ranges")
    func tables() throws {
        let rules = try rules()
        #expect(rules.focus["foundation"]?.intensity == 0.60...0.70)
        #expect(rules.focus["development"]?.rpe == 7...8)
        #expect(rules.focus["deload"]?.intensity == 0.50...0.60)
        #expect(rules.effortLevels.map(\.id) == ["recovery", "standard", "push_it"])
        #expect(rules.effortLevels.map(\.intensity) == [0.55...0.65, 0.65...0.75, 0.75...0.85])
    }

    @Test("a single workout trains at the middle of its effort range", arguments: [
        ("recovery", 0.6, "3x5 moderate", 6.0...7.0), ("standard", 0.7, "3x5 heavy", 7.0...8.0), ("push_it", 0.8, "3x3 peak", 8.0...10.0),
    ])
    func singleWorkout(effort: String, intensity: Double, compound: String, rpe: ClosedRange<Double>) throws {
        let target = try #require(try rules().singleWorkout(effort: effort))
        #expect(target.intensity == intensity)
        #expect(target.row.compound.description == compound)
        #expect(target.effort.rpe == rpe)
        #expect(try rules().singleWorkout(effort: "heroic") == nil)
    }

    @Test("fat loss trains development instead of peaking")
    func fatLoss() throws {
        let plan = try rules().plan(weeks: 12, goal: "fat_loss", clock: try shippedDeloadClock())
        #expect(plan.phases.map(\.focus) == ["foundation", "development"])
        #expect(plan.phases.map { $0.lastWeek - $0.firstWeek + 1 } == [4, 8])
        #expect(try rules().plan(weeks: 12, goal: "hypertrophy", clock: try shippedDeloadClock()).goal == "lean_mass")
    }

    @Test("unknown goals and lengths are refused with the choices")
    func refusals() throws {
        #expect(throws: PeriodizationError(message: "unknown goal 'bulk'; expected one of fat_loss, lean_mass, recomp, strength", parameter: "goal")) {
            try rules().plan(weeks: 12, goal: "bulk", clock: try shippedDeloadClock())
        }
        #expect(throws: PeriodizationError(message: "no periodization for 0 weeks; the rules cover 1-3, 4-8, 9-23, 24-520", parameter: "weeks")) {
            try rules().plan(weeks: 0, goal: "strength", clock: try shippedDeloadClock())
        }
    }

    @Test("selection ranking multiplies the seed's boosts")
    func ranking() throws {
        let ranking = try rules().selection
        func score(_ library: Bool, _ emphasis: Bool, _ under: Bool, _ repeated: Bool) throws -> Double {
            try ranking.score(.init(inLibrary: library, emphasized: emphasis, underRepresented: under, patternRepeated: repeated))
        }
        #expect(try score(false, false, false, false) == 1.0)
        #expect(try score(true, false, false, false) == 1.2)
        #expect(try score(false, true, false, false) == 1.5)
        #expect(try score(false, false, true, false) == 1.3)
        #expect(abs(try score(true, true, true, false) - 1.2 * 1.5 * 1.3) < 1e-12)
        #expect(try score(true, false, false, true) < score(false, false, false, false))
    }

    @Test("ranking: a session's choices decide the reasons; the order follows the score, ties by id")
    func rankCandidates() throws {
        let ranking = try rules().selection
        let bench = RankingCandidate(id: "bench", muscles: ["chest"], pattern: "horizontal_push")
        let squat = RankingCandidate(id: "squat", muscles: ["quads"], pattern: "squat")
        let candidates = [
            RankingCandidate(id: "incline", muscles: ["chest"], pattern: "horizontal_push"),
            RankingCandidate(id: "row", muscles: ["back"], pattern: "horizontal_pull"),
            RankingCandidate(id: "fly", muscles: ["chest"], pattern: "chest_fly"),
            RankingCandidate(id: "lunge", muscles: ["quads"], pattern: "lunge"),
        ]
        let ranked = try ranking.rank(candidates, library: ["incline"], emphasis: ["chest"], chosen: [bench, bench, squat])
        // fly: emphasized 1.5; incline: library × emphasis × repeated = 1.26; row and lunge: under-represented 1.3
        #expect(ranked.map(\.id) == ["fly", "lunge", "row", "incline"])
        #expect(ranked.map(\.score).map { ($0 * 1000).rounded() / 1000 } == [1.5, 1.3, 1.3, 1.26])
        #expect(ranked[3].reasons == .init(inLibrary: true, emphasized: true, underRepresented: false, patternRepeated: true))
    }

    @Test("property: ranks are ordered by score and each score is the product of the factors its reasons name", arguments: 0..<6)
    func rankProperty(seed: Int) throws {
        let ranking = try rules().selection
        var random = SeededRandom(seed: UInt64(seed) &+ 99)
        let muscles = ["chest", "back", "quads", "hamstrings", "shoulders"]
        let patterns = ["push", "pull", "squat", "hinge", "carry"]
        func make(_ index: Int) -> RankingCandidate {
            RankingCandidate(id: "e\(index)", muscles: [muscles.randomElement(using: &random) ?? "chest"],
                             pattern: patterns.randomElement(using: &random) ?? "push")
        }
        for _ in 0..<50 {
            let pool = (0..<12).map(make)
            let chosen = (0..<Int.random(in: 0...4, using: &random)).map { make(100 + $0) }
            let library = Set(pool.filter { _ in Bool.random(using: &random) }.map(\.id))
            let ranked = try ranking.rank(pool, library: library, emphasis: ["chest"], chosen: chosen)
            #expect(Set(ranked.map(\.id)) == Set(pool.map(\.id)))
            #expect(zip(ranked, ranked.dropFirst()).allSatisfy { $0.score > $1.score || ($0.score == $1.score && $0.id < $1.id) })
            for entry in ranked {
                var product = 1.0
                if entry.reasons.inLibrary { product *= 1.2 }
                if entry.reasons.emphasized { product *= 1.5 }
                if entry.reasons.underRepresented { product *= 1.3 }
                if entry.reasons.patternRepeated { product *= 0.7 }
                #expect(abs(entry.score - product) < 1e-12)
                #expect(entry.reasons.inLibrary == library.contains(entry.id))
            }
        }
    }

    @Test("a given ramp reproduces the seed's example and runs over the plan's training weeks")
    func givenRamp() throws {
        let four = try rules().plan(weeks: 4, goal: "strength", ramp: (0.60, 0.85), clock: try shippedDeloadClock())
        #expect(four.schedule.map(\.intensity) == [0.6, 0.68, 0.77, 0.85])
        for weeks in [1, 3, 6, 12, 26, 52] {
            let plan = try rules().plan(weeks: weeks, goal: "lean_mass", ramp: (0.55, 0.9), clock: try shippedDeloadClock())
            let training = plan.schedule.filter { !$0.isDeload }.map(\.intensity)
            #expect(training.first == 0.55)
            #expect(training.count == 1 || training.last == 0.9)
            #expect(zip(training, training.dropFirst()).allSatisfy { $0 <= $1 }, "\(weeks): \(training)")
            #expect(plan.schedule.filter(\.isDeload).allSatisfy { $0.intensity == 0.55 })
        }
        #expect(throws: PeriodizationError.self) { try rules().plan(weeks: 8, goal: "strength", ramp: (0, 0.8), clock: try shippedDeloadClock()) }
    }

    /// Issue 32: "periodize deloads weeks 4 and 8, adapt week 6". Whatever the length, goal or
    /// clock, the deload weeks are exactly the clock's scheduled weeks (the last of each block),
    /// the weeks adapt's `scheduled_deload` names through `week_in_block`.
    @Test("the deload weeks are the deload clock's, for every length, goal and block length")
    func deloadsFollowTheClock() throws {
        let rules = try rules()
        for blockWeeks in [1, 3, 4, 6, 8] {
            let clock = DeloadClock(blockWeeks: blockWeeks)
            for goal in ["strength", "lean_mass", "fat_loss", "recomp"] {
                for weeks in [1, 3, 4, 6, 8, 9, 12, 16, 24, 52] {
                    let plan = try rules.plan(weeks: weeks, goal: goal, clock: clock)
                    let expected = (1...weeks).filter { $0 % blockWeeks == 0 }
                    #expect(plan.schedule.filter(\.isDeload).map(\.week) == expected, "\(goal) \(weeks) weeks, blocks of \(blockWeeks)")
                    #expect(plan.phases.flatMap(\.deloadWeeks) == expected)
                    #expect(plan.schedule.allSatisfy { $0.isDeload == clock.isScheduledDeload($0.week) })
                }
            }
        }
    }
}
