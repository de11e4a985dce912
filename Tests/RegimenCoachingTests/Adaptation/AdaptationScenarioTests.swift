import OrderedCollections
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing

/// One scenario per readiness, progression and weight-trend rule, each with its exact change-log
/// line, on the four-day fixture plan.
@Suite struct AdaptationScenarioTests {
    typealias F = AdaptationFixtures

    private func adapt(_ input: AdaptationInput, plan: Value = F.upperLower) throws -> AdaptationResult {
        let engine = try #require(F.engine)
        return try engine.adapt(plan: plan, input: input)
    }

    private func blocks(_ plan: Value, day: Int) -> [Value] {
        plan["workouts"]?.listValue?.first { $0["day"]?.intValue == Int64(day) }?["blocks"]?.listValue ?? []
    }

    private func sets(_ plan: Value, day: Int, _ exercise: String) -> Int64? {
        blocks(plan, day: day).first { $0["exerciseId"]?.stringValue == exercise }?["sets"]?.intValue
    }

    private static func lift(_ exercise: String, _ sets: [(Double, Int, Double)]) -> LoggedExercise {
        LoggedExercise(exerciseId: exercise, sets: sets.map { LoggedSet(loadKg: $0.0, reps: $0.1, rir: $0.2) })
    }

    // MARK: - Readiness rules

    @Test func sorenessFiveCutsTwoSetsFromTheRegionsNextSession() throws {
        let result = try adapt(AdaptationInput(checkIns: [CheckIn(sleepHours: 7, soreness: ["legs": 5], stress: 3, motivation: 3)], nextDay: 2))
        #expect(F.lines(result).first == "Legs -2 sets (soreness 5)")
        let entry = try #require(result.changeLog.first)
        #expect(entry.rule == "sore_region")
        #expect(entry.target == "legs")
        #expect(entry.field == "sets")
        #expect(entry.before == .map(["quads": .int(4), "hamstrings": .int(4), "glutes": .int(3), "calves": .int(4)]))
        #expect(entry.after == .map(["quads": .int(2), "hamstrings": .int(2), "glutes": .int(1), "calves": .int(2)]))
        #expect(entry.reason == "soreness 5")
        #expect(sets(result.patchedPlan, day: 2, "back_squat") == 2)
        #expect(sets(result.patchedPlan, day: 4, "leg_press") == 4, "only the next session changes")
        #expect(F.lines(result).contains("Back squat: suggested regression Goblet squat (legs soreness 5)"))
        #expect(blocks(result.patchedPlan, day: 2).first?["suggested_regression"] == .string("goblet_squat"))
    }

    @Test func sorenessFourCutsOneSet() throws {
        let result = try adapt(AdaptationInput(checkIns: [CheckIn(sleepHours: 7, soreness: ["legs": 4], stress: 3, motivation: 3)], nextDay: 4))
        #expect(F.lines(result).first == "Legs -1 set (soreness 4)")
        #expect(sets(result.patchedPlan, day: 4, "leg_press") == 3)
        #expect(sets(result.patchedPlan, day: 2, "back_squat") == 4)
    }

    @Test func sorenessBelowFourChangesNothing() throws {
        let result = try adapt(AdaptationInput(checkIns: [CheckIn(sleepHours: 7, soreness: ["legs": 3, "chest": 3], stress: 3, motivation: 3)]))
        #expect(result.changeLog.isEmpty)
        #expect(result.patchedPlan == F.upperLower)
    }

    @Test func aCutBelowTheBandSaysSo() throws {
        // Hamstrings have 8 sets a week; with a 7–10 band, losing 2 of day 2's 4 leaves 6.
        var plan = F.upperLower
        if case .map(var root) = plan, var volume = root["volume"]?.listValue {
            volume = volume.map { entry in
                entry["muscle"] == .string("hamstrings") ? .map(["muscle": .string("hamstrings"), "band": .string("7–10")]) : entry
            }
            root["volume"] = .list(volume)
            plan = .map(root)
        }
        let result = try adapt(AdaptationInput(checkIns: [CheckIn(sleepHours: 7, soreness: ["hamstrings": 5], stress: 3, motivation: 3)], nextDay: 2), plan: plan)
        #expect(F.lines(result).first == "Hamstrings -2 sets (soreness 5; below band: hamstrings 6/7)")
    }

    @Test func lowReadinessOnTwoDaysCutsTenPercentAndRaisesTheRIRFloor() throws {
        let result = try adapt(AdaptationInput(checkIns: [F.low("2026-03-02"), F.low("2026-03-03"), F.neutral("2026-03-04")]))
        #expect(F.lines(result) == [
            "Weekly sets -10% (readiness ≤2 on 2 days)",
            "RIR floor 2, no sets to failure (readiness ≤2 on 2 days)",
        ])
        #expect(result.changeLog[0].before == .int(70))
        #expect(result.changeLog[0].after == .int(63))
        #expect(result.changeLog[1].before == .list([.string("1–3")]))
        #expect(result.changeLog[1].after == .list([.string("2–3")]))
        let rirs = (result.patchedPlan["workouts"]?.listValue ?? []).flatMap { $0["blocks"]?.listValue ?? [] }.compactMap { $0["rir"]?.stringValue }
        #expect(rirs.allSatisfy { $0 == "2–3" })
    }

    @Test func oneLowDayIsNotEnough() throws {
        let result = try adapt(AdaptationInput(checkIns: [F.low("2026-03-02"), F.neutral("2026-03-03")]))
        #expect(result.changeLog.isEmpty)
    }

    @Test func lowDaysOutsideTheLastSevenDaysDoNotCount() throws {
        let result = try adapt(AdaptationInput(checkIns: [F.low("2026-02-20"), F.low("2026-03-02"), F.neutral("2026-03-04")]))
        #expect(result.changeLog.isEmpty)
    }

    @Test func highReadinessWithAnEasySessionAddsASetToALaggingMuscle() throws {
        let input = AdaptationInput(checkIns: [F.high()], sessions: [LoggedSession(day: 1, exercises: [
            Self.lift("barbell_bench_press", [(80, 8, 4), (80, 8, 4)]),
        ])])
        let result = try adapt(input)
        #expect(F.lines(result) == ["Chest +1 set (readiness 5, RIR 4 above target 3)"])
        #expect(result.changeLog[0].rule == "easy_session")
        #expect(sets(result.patchedPlan, day: 1, "barbell_bench_press") == 5)
    }

    @Test func highReadinessWithAnEasySessionRaisesTheLoadOfAMuscleThatIsNotLagging() throws {
        let input = AdaptationInput(checkIns: [F.high()], sessions: [LoggedSession(day: 1, exercises: [
            Self.lift("barbell_row", [(60, 8, 4), (60, 8, 4)]),
        ])])
        let result = try adapt(input)
        #expect(F.lines(result) == ["Barbell row +2.5 kg to 62.5 kg (readiness 5, RIR 4 above target 3)"])
        #expect(blocks(result.patchedPlan, day: 1).first { $0["exerciseId"] == .string("barbell_row") }?["load_kg"] == .float(62.5))
    }

    @Test func theTooEasyButtonCountsAsAnEasySession() throws {
        let input = AdaptationInput(checkIns: [F.high()], sessions: [LoggedSession(day: 1, exercises: [
            LoggedExercise(exerciseId: "barbell_row", sets: [LoggedSet(loadKg: 60, reps: 8, rir: 2)], feel: .easy),
        ])])
        #expect(F.lines(try adapt(input)) == ["Barbell row +2.5 kg to 62.5 kg (readiness 5, reported too easy)"])
    }

    @Test func anEasySessionOnAnAverageDayChangesNothing() throws {
        let input = AdaptationInput(checkIns: [F.neutral()], sessions: [LoggedSession(day: 1, exercises: [
            Self.lift("barbell_row", [(60, 8, 4), (60, 8, 4)]),
        ])])
        #expect(try adapt(input).changeLog.isEmpty)
    }

    @Test func fourLowDaysDeloadTheWeekInsteadOfTheTenPercentCut() throws {
        let result = try adapt(AdaptationInput(checkIns: [F.low("2026-03-02"), F.low("2026-03-03"), F.low("2026-03-04"), F.low("2026-03-05")]))
        #expect(F.lines(result) == [
            "Deload week (readiness ≤2 on 4 days)",
            "Weekly sets -40% (readiness ≤2 on 4 days; below band: back 5/6, biceps 3/4, calves 5/6, chest 4/6, core 3/4, hamstrings 5/6, quads 5/6, shoulders 4/6)",
            "RIR floor 3, no sets to failure (readiness ≤2 on 4 days)",
        ])
        #expect(result.changeLog.allSatisfy { $0.rule == "readiness_deload" })
        #expect(result.patchedPlan["deload"] == .bool(true))
        #expect(result.changeLog[1].after == .int(42))
    }

    @Test func weekSixOfTheBlockDeloads() throws {
        let result = try adapt(AdaptationInput(week: 6))
        #expect(F.lines(result).first == "Deload week (deload, week 6 of the block)")
        #expect(result.changeLog.allSatisfy { $0.rule == "scheduled_deload" })
    }

    @Test func weekFourDeloadsOnlyWhenTheWeeksReadinessIsBelowAverage() throws {
        #expect(try adapt(AdaptationInput(checkIns: [F.neutral(), F.high()], week: 4)).changeLog.isEmpty)
        let tired = try adapt(AdaptationInput(checkIns: [F.low(), F.neutral()], week: 4))
        #expect(F.lines(tired).first == "Deload week (deload, week 4 of the block)")
    }

    @Test func aDeloadWeekDoesNotProgressLoads() throws {
        let input = AdaptationInput(sessions: [LoggedSession(day: 2, exercises: [Self.lift("back_squat", [(100, 10, 2), (100, 10, 2), (100, 10, 2)])])], week: 6)
        let result = try adapt(input)
        #expect(!result.changeLog.contains { $0.rule == "double_progression" })
    }

    // MARK: - Progression rules

    @Test func doubleProgressionAddsLoadAtTheTopOfTheRange() throws {
        let input = AdaptationInput(sessions: [LoggedSession(day: 2, exercises: [Self.lift("back_squat", [(100, 10, 2), (100, 10, 2), (100, 10, 2)])])])
        let result = try adapt(input)
        #expect(F.lines(result) == ["Back squat +2.5 kg to 102.5 kg (3x10 reached at RIR 2)"])
        let entry = result.changeLog[0]
        #expect(entry.rule == "double_progression")
        #expect(entry.before == .int(100) && entry.after == .float(102.5))
    }

    @Test func doubleProgressionTakesTheLargerStepWhenRepsInReserveWereAboveTarget() throws {
        let input = AdaptationInput(sessions: [LoggedSession(day: 2, exercises: [Self.lift("back_squat", [(100, 10, 4), (100, 10, 4)])])])
        #expect(F.lines(try adapt(input)) == ["Back squat +5 kg to 105 kg (2x10 reached at RIR 4)"])
    }

    @Test func doubleProgressionNeedsEverySetAtTheTop() throws {
        let input = AdaptationInput(sessions: [LoggedSession(day: 2, exercises: [Self.lift("back_squat", [(100, 10, 2), (100, 10, 2), (100, 9, 1)])])])
        #expect(try adapt(input).changeLog.isEmpty)
    }

    @Test func dumbbellLoadsMoveInDumbbellSteps() throws {
        var plan = F.upperLower
        if case .map(var root) = plan, var workouts = root["workouts"]?.listValue, case .map(var day3) = workouts[2] {
            day3["blocks"] = .list([F.block("shoulders", "lateral_raise", 4, reps: "10–15")])
            workouts[2] = .map(day3)
            root["workouts"] = .list(workouts)
            plan = .map(root)
        }
        let input = AdaptationInput(sessions: [LoggedSession(day: 3, exercises: [Self.lift("lateral_raise", [(10, 15, 2), (10, 15, 2)])])])
        // 2.5% of 10 kg is 0.25 kg; the smallest dumbbell step is 2 kg, +20%: above the seed's
        // 2.5–5%, so the reps earn it first (issue 32), then the step comes with the reps back.
        let first = try adapt(input, plan: plan)
        #expect(F.lines(first) == ["Lateral raise reps 10–15 → 10–17 at 10 kg: the next 2 kg step is +20%, above 5%, so reps first (2x15 reached at RIR 2)"])
        let next = AdaptationInput(sessions: [LoggedSession(date: "2026-03-09", day: 3, exercises: [Self.lift("lateral_raise", [(10, 17, 2), (10, 17, 2)])])])
        let second = try adapt(next, plan: first.patchedPlan)
        #expect(F.lines(second) == ["Lateral raise +2 kg to 12 kg, reps back to 10–15 (start at 10): 10–17 reached, the step is +20% (2x17 reached at RIR 2)"])
        let day3 = second.patchedPlan["workouts"]?.listValue?[2]["blocks"]?.listValue?.first
        #expect(day3?["reps"] == .string("10–15") && day3?["load_kg"] == .int(12))
    }

    @Test func missedRepsHoldTheLoadAndCutASet() throws {
        let input = AdaptationInput(sessions: [LoggedSession(day: 2, exercises: [Self.lift("back_squat", [(100, 8, 1), (100, 7, 0), (100, 5, 0)])])])
        let result = try adapt(input)
        #expect(F.lines(result) == ["Back squat -1 set (missed reps: 5 of 6; load held)"])
        #expect(result.changeLog[0].rule == "failure_hold")
        #expect(sets(result.patchedPlan, day: 2, "back_squat") == 3)
    }

    @Test func aSetTakenToFailureHoldsTheLoadAndCutsASet() throws {
        let input = AdaptationInput(sessions: [LoggedSession(day: 2, exercises: [Self.lift("back_squat", [(100, 10, 1), (100, 9, 0), (100, 8, 0)])])])
        #expect(F.lines(try adapt(input)) == ["Back squat -1 set (RIR 0; load held)"])
    }

    @Test func aLiftNotInThePlanIsAWarningNotAChange() throws {
        let input = AdaptationInput(sessions: [LoggedSession(exercises: [Self.lift("zercher_squat", [(80, 8, 2)])])])
        let result = try adapt(input)
        #expect(result.changeLog.isEmpty)
        #expect(result.warnings == ["logged exercise 'zercher_squat' is not in the plan; no progression for it"])
    }

    // MARK: - Weight trend

    @Test func weightAboveTargetCutsCaloriesFivePercentAndRecomputesMacros() throws {
        let result = try adapt(AdaptationInput(weightTrend: .above))
        #expect(F.lines(result) == ["Calories -5% (weight above target)", "Carbs -30 g (calories -5%)"])
        #expect(result.patchedPlan["kcal"] == .int(2280))
        #expect(result.patchedPlan["macros"] == .map(["protein_g": .int(160), "fat_g": .int(70), "carb_g": .int(253)]))
    }

    @Test func weightBelowTargetAddsCalories() throws {
        let result = try adapt(AdaptationInput(weightTrend: .below))
        #expect(F.lines(result) == ["Calories +5% (weight below target)", "Carbs +30 g (calories +5%)"])
    }

    @Test func fullAdherenceTakesTheLargerCalorieStep() throws {
        #expect(F.lines(try adapt(AdaptationInput(adherencePct: 95, weightTrend: .above))).first == "Calories -10% (weight above target)")
    }

    @Test func lowAdherenceKeepsCaloriesAndSaysWhy() throws {
        let result = try adapt(AdaptationInput(adherencePct: 50, weightTrend: .above))
        #expect(F.lines(result) == ["Calories unchanged (weight above target but adherence 50%: follow the plan two more weeks first)"])
        #expect(result.patchedPlan == F.upperLower)
    }

    @Test func aCalorieCutStopsAtTheBMRFloor() throws {
        var plan = F.upperLower
        if case .map(var root) = plan {
            root["kcal"] = .int(1750)
            root["macros"] = .map(["protein_g": .int(140), "fat_g": .int(50), "carb_g": .int(185)])
            plan = .map(root)
        }
        let result = try adapt(AdaptationInput(weightTrend: .above), plan: plan)
        #expect(F.lines(result).first == "Calories -2.9% (weight above target; floor 1700 kcal)")
        #expect(result.patchedPlan["kcal"] == .int(1700))
    }

    // MARK: - The seed's QA lines and contract

    /// The adaptPlan contract's example change log: legs sore at 5 lose two sets, and a weight
    /// trend above target cuts calories by 5 %.
    @Test func seedAdaptPlanExampleLines() throws {
        let input = AdaptationInput(checkIns: [CheckIn(sleepHours: 6, soreness: ["legs": 5], stress: 3, motivation: 3)], weightTrend: .above)
        let lines = F.lines(try adapt(input))
        #expect(lines.contains("Legs -2 sets (soreness 5)"))
        #expect(lines.contains("Calories -5% (weight above target)"))
    }

    /// Low readiness reduces sets, high readiness adds load or sets, and every change has a change
    /// log line naming its rule (docs/requirements.md#planner-acceptance-criteria).
    @Test func qaReadinessLowsReduceSetsHighsIncreaseLoadOrSetsWithAChangeLog() throws {
        let total = { (plan: Value) -> Int64 in
            (plan["workouts"]?.listValue ?? []).flatMap { $0["blocks"]?.listValue ?? [] }.compactMap { $0["sets"]?.intValue }.reduce(0, +)
        }
        let low = try adapt(AdaptationInput(checkIns: [F.low("2026-03-02"), F.low("2026-03-03")]))
        #expect(total(low.patchedPlan) < total(F.upperLower))
        #expect(!low.changeLog.isEmpty)
        let high = try adapt(AdaptationInput(checkIns: [F.high()], sessions: [LoggedSession(day: 1, exercises: [
            Self.lift("barbell_bench_press", [(80, 8, 4)]), Self.lift("barbell_row", [(60, 8, 4)]),
        ])]))
        #expect(total(high.patchedPlan) > total(F.upperLower))
        #expect(high.changeLog.contains { $0.field == "load_kg" && ($0.after.numberValue ?? 0) > ($0.before.numberValue ?? 0) })
        #expect(high.changeLog.allSatisfy { !$0.line.isEmpty && !$0.rule.isEmpty })
    }

    /// A two-week weight trend above or below target changes calories by 5–10 %
    /// (docs/requirements.md#planner-acceptance-criteria).
    @Test func qaWeightTrendTwoWeeksTriggersCaloriesPlusOrMinusFiveToTenPercent() throws {
        for trend in [WeightTrend.above, .below] {
            for adherence in [nil, 70.0, 85, 90, 100] as [Double?] {
                let result = try adapt(AdaptationInput(adherencePct: adherence, weightTrend: trend))
                let entry = try #require(result.changeLog.first { $0.field == "kcal" })
                let change = ((entry.after.numberValue ?? 0) / (entry.before.numberValue ?? 1) - 1) * 100
                #expect(abs(change) >= 5 - 1e-9 && abs(change) <= 10 + 1e-9)
                #expect(trend == .above ? change < 0 : change > 0)
            }
        }
        #expect(try adapt(AdaptationInput(weightTrend: .onTarget)).changeLog.isEmpty)
    }

    @Test func theResponseHasTheSeedsShape() throws {
        let result = try adapt(AdaptationInput(weightTrend: .above))
        let value = result.value
        #expect(value["change_log"] == .list([.string("Calories -5% (weight above target)"), .string("Carbs -30 g (calories -5%)")]))
        #expect(value["patched_plan"]?["kcal"] == .int(2280))
        #expect(value["changes"]?.listValue?.first?["rule"] == .string("weight_above_target"))
    }

    @Test func badInputIsReportedAllAtOnce() throws {
        let engine = try #require(F.engine)
        let input = AdaptationInput(
            checkIns: [CheckIn(date: "2026-13-01", sleepHours: 30, soreness: ["legz": 7], stress: 0, motivation: 6)],
            sessions: [LoggedSession(day: 9, exercises: [LoggedExercise(exerciseId: "back_squat", sets: [LoggedSet(loadKg: -5, reps: 5, rir: 12)])])],
            adherencePct: 140, week: 0)
        #expect(throws: AdaptationInputError.self) { try engine.adapt(plan: F.upperLower, input: input) }
        do {
            _ = try engine.adapt(plan: F.upperLower, input: input)
        } catch {
            #expect(error.problems.count == 11)
            #expect(error.problems.contains("checkins[0].soreness.legz: 7 is outside 1–5"))
            #expect(error.problems.contains { $0.hasPrefix("checkins[0].soreness.legz: unknown region; known regions: legs,") })
            #expect(error.problems.contains("last_week_adherence_pct: 140 is outside 0–100"))
        }
    }
}
