import Foundation
import RegimenTestSupport
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing

/// Issue 32's properties over generated multi-week sequences: each week's adapted plan is the
/// next week's plan. `ADAPT_SIM_SEQUENCES` sets how many sequences (scripts/adaptation-simulation.sh
/// runs 200); `swift test` runs a seeded sample of 40.
@Suite struct AdaptationOverWeeksTests {
    static var sequences: Int {
        ProcessInfo.processInfo.environment["ADAPT_SIM_SEQUENCES"].flatMap(Int.init).map { max(1, min(5_000, $0)) } ?? 40
    }

    /// Figures of a set of sequences, printed for the script's report.
    struct Figures {
        var sequences = 0, weeks = 0, outOfBand = 0, kcalChanges = 0, changesInsideWindow = 0
        var loadSteps = 0, loadStepsOutside = 0, extendedReps = 0, unlogged = 0, notBaseline = 0
        var floorBound = 0, floorStops = 0, bandEdgeStops = 0
        var line: String {
            "sequences \(sequences) (\(floorBound) of pregnant or small older women), weeks \(weeks): kcal outside the effective band \(outOfBand); "
                + "steps stopped at a band edge \(bandEdgeStops), at a safety or pregnancy floor \(floorStops); kcal changes \(kcalChanges), "
                + "of them within 14 days of the last \(changesInsideWindow); load steps \(loadSteps), outside 2.5–5% without the extended-reps path \(loadStepsOutside), "
                + "extended-reps steps \(extendedReps); weeks changed without a log line \(unlogged); sequences not back at baseline after two neutral weeks \(notBaseline)"
        }
    }

    static func simulate(_ count: Int, seed: UInt64) throws -> Figures {
        let simulation = try #require(AdaptationSimulation.shared)
        var rng = SeededGenerator(seed: seed)
        var figures = Figures()
        for _ in 0..<count {
            let profile = AdaptationSimulation.profile(&rng)
            let run = try simulation.run(profile: profile, weeks: 8, neutral: 2, &rng)
            figures.sequences += 1
            if profile.pregnant == true || (profile.age ?? 0) >= 65 { figures.floorBound += 1 }
            var previous = try #require(Optional(simulation.planner.generatePlan(profile).jsonValue()))
            var lastKcalChangeWeek: Int?
            for (index, result) in run.weeks.enumerated() {
                figures.weeks += 1
                let week = index + 1
                let kcal = result.patchedPlan["kcal"]?.numberValue ?? 0
                if let band = run.band, !band.contains(kcal) { figures.outOfBand += 1 }
                if kcal != previous["kcal"]?.numberValue {
                    figures.kcalChanges += 1
                    if let last = lastKcalChangeWeek, (week - last) * 7 < 14 { figures.changesInsideWindow += 1 }
                    lastKcalChangeWeek = week
                }
                for entry in result.changeLog where entry.target == "calories" && entry.field == "note" {
                    if entry.line.contains("at the floor of pregnancy") || entry.line.contains("at the safety floor") || entry.line.contains("at the BMR floor") {
                        figures.floorStops += 1
                    } else if entry.line.contains("at the floor of the") || entry.line.contains("at the top of the") {
                        figures.bandEdgeStops += 1
                    }
                }
                for entry in result.changeLog where entry.field == "load_kg" {
                    guard let before = entry.before.numberValue, let after = entry.after.numberValue, after > before else { continue }
                    figures.loadSteps += 1
                    let percent = (after / before - 1) * 100
                    if entry.line.contains("reps back to") {
                        figures.extendedReps += 1
                    } else if percent < 2.5 - 1e-9 || percent > 5 + 1e-9 {
                        figures.loadStepsOutside += 1
                    }
                }
                if previous["workouts"] != result.patchedPlan["workouts"] || previous["kcal"] != result.patchedPlan["kcal"] || previous["deload"] != result.patchedPlan["deload"] {
                    if result.changeLog.isEmpty { figures.unlogged += 1 }
                }
                previous = result.patchedPlan
            }
            if !Self.atBaseline(run.plan) {
                figures.notBaseline += 1
                if ProcessInfo.processInfo.environment["ADAPT_SIM_DEBUG"] != nil, let view = try? PlanView(document: run.plan) {
                    print("DEBUG adjustments \(view.state.adjustments.map { "\($0.rule) \($0.lasts) w\($0.week ?? -1)" }) deload \(view.deload)")
                    for block in view.allBlocks {
                        let base = view.state.baseline(workout: block.workout, block: block.block)
                        if base?.sets != block.sets || base?.rir != block.rir { print("DEBUG block \(block.workout)/\(block.block) \(block.exerciseId) sets \(block.sets) rir \(block.rir?.description ?? "-") base \(base.map { "\($0.sets) \($0.rir?.description ?? "-")" } ?? "none")") }
                    }
                    for (i, week) in run.weeks.enumerated() { print("DEBUG week \(i + 1): \(week.changeLog.map(\.line)) notes \(week.notes)") }
                }
            }
        }
        return figures
    }

    /// Every block has its baseline's sets and RIR, no change is in effect, and no deload.
    static func atBaseline(_ plan: Value) -> Bool {
        guard let view = try? PlanView(document: plan) else { return false }
        let state = view.state
        guard state.adjustments.isEmpty, !view.deload else { return false }
        return view.allBlocks.allSatisfy { block in
            guard let base = state.baseline(workout: block.workout, block: block.block) else { return false }
            return base.sets == block.sets && base.rir == block.rir
        }
    }

    @Test func eightWeekSequencesKeepEveryProperty() throws {
        let figures = try Self.simulate(Self.sequences, seed: 0x32A)
        print("adaptation simulation: \(figures.line)")
        #expect(figures.sequences == Self.sequences)
        #expect(figures.outOfBand == 0, "\(figures.line)")
        #expect(figures.changesInsideWindow == 0, "\(figures.line)")
        #expect(figures.loadStepsOutside == 0, "\(figures.line)")
        #expect(figures.unlogged == 0, "\(figures.line)")
        #expect(figures.notBaseline == 0, "\(figures.line)")
        // The grid exercises what it checks.
        #expect(figures.kcalChanges > 0 && figures.loadSteps > 0 && figures.extendedReps > 0, "\(figures.line)")
        #expect(figures.floorBound > 0 && figures.floorStops > 0 && figures.bandEdgeStops > 0, "\(figures.line)")
    }

    /// The baseline is the plan plus earned progression only: the sets a sequence ends with differ
    /// from the planned sets by exactly the persistent changes the log reported.
    @Test func baselineIsThePlanPlusEarnedProgression() throws {
        let simulation = try #require(AdaptationSimulation.shared)
        var rng = SeededGenerator(seed: 0x5EED)
        let persistent = Set((simulation.adaptation.readiness.rules + simulation.adaptation.progression.rules).filter { $0.lasts == .persistent }.map(\.id))
        for _ in 0..<8 {
            let profile = AdaptationSimulation.profile(&rng)
            let run = try simulation.run(profile: profile, weeks: 8, neutral: 2, &rng)
            let start = try PlanView(document: simulation.planner.generatePlan(profile).jsonValue())
            let end = try PlanView(document: run.plan)
            var earned: [String: Int] = [:]
            for entry in run.weeks.flatMap(\.changeLog) where persistent.contains(entry.rule) && entry.field == "sets" {
                if let before = entry.before.intValue, let after = entry.after.intValue {
                    let muscle = entry.details.first?["muscle"]?.stringValue ?? entry.target
                    earned[muscle, default: 0] += Int(after - before)
                }
            }
            let startSets = Dictionary(grouping: start.allBlocks, by: \.muscle).mapValues { $0.reduce(0) { $0 + $1.sets } }
            let endSets = Dictionary(grouping: end.allBlocks, by: \.muscle).mapValues { $0.reduce(0) { $0 + $1.sets } }
            for (muscle, sets) in startSets {
                #expect(endSets[muscle] == sets + (earned[muscle] ?? 0), "\(muscle): \(sets) planned, \(earned[muscle] ?? 0) earned, \(endSets[muscle] ?? -1) at the end")
            }
            #expect(Self.atBaseline(run.plan))
        }
    }

    /// 52 weeks of adapt on its own output: nothing grows without bound, and the same inputs give
    /// the same bytes.
    @Test func fiftyTwoWeeksStayBoundedAndDeterministic() throws {
        let simulation = try #require(AdaptationSimulation.shared)
        for seed in [UInt64(0xA1), 0xB2] {
            var rng = SeededGenerator(seed: seed)
            let profile = AdaptationSimulation.profile(&rng)
            var again = rng
            let run = try simulation.run(profile: profile, weeks: 52, neutral: 0, &rng)
            let second = try simulation.run(profile: profile, weeks: 52, neutral: 0, &again)
            #expect(run.plan == second.plan)
            let keep = simulation.adaptation.readiness.adjustments?.keepWeeks ?? 0
            #expect((run.plan["adaptations"]?.listValue?.count ?? 0) <= keep)
            let state = run.plan["adaptation"]
            #expect((state?["adjustments"]?.listValue?.count ?? 0) <= simulation.adaptation.readiness.rules.count)
            #expect((state?["weigh_ins"]?.listValue?.count ?? 0) <= simulation.adaptation.readiness.weightTrend?.windowDays ?? 0)
            let sizes = run.plans.map { $0.jsonString().utf8.count }
            // After the records' window fills, the plan no longer grows.
            let settled = sizes[(keep + 4)...]
            #expect((settled.max() ?? 0) <= (settled.min() ?? 0) * 3 / 2, "plan sizes \(sizes)")
            for block in try PlanView(document: run.plan).allBlocks {
                #expect(block.sets <= 12 && (block.reps?.upper ?? 0) <= 40, "\(block)")
            }
            if let band = simulation.band(of: try simulation.planner.generatePlan(profile).jsonValue()) {
                #expect(band.contains(run.plan["kcal"]?.numberValue ?? 0))
            }
        }
    }
}
