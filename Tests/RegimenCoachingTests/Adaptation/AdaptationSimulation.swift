import Foundation
import OrderedCollections
import RegimenTestSupport
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules

/// Multi-week simulations: a generated plan adapted week after week on its own output, with
/// generated check-ins (readiness, soreness, body weight) and logged sessions, and the figures
/// the properties of issue 32 are about.
struct AdaptationSimulation {
    let planner: PlanGenerator
    let adaptation: AdaptationRuleSet

    static let shared: AdaptationSimulation? = {
        let root = AdaptationTestRules.repository
        let sources = RuleSources(rules: root.appendingPathComponent("rules"), catalogs: root.appendingPathComponent("catalogs"), displayBase: root)
        let result = RuleSetLoader(kinds: PlanGenerator.kinds + AdaptationRuleSet.kinds, otherModulesKinds: .anyUnregistered).load(from: sources)
        guard let ruleSet = try? result.get(), let planner = try? PlanGenerator(ruleSet: ruleSet),
              let adaptation = try? AdaptationRuleSet(ruleSet) else { return nil }
        return AdaptationSimulation(planner: planner, adaptation: adaptation)
    }()

    /// How a week's check-ins go.
    enum Mood: CaseIterable { case low, neutral, high }
    /// Where the week's weigh-ins go against the goal's target.
    enum Drift: CaseIterable { case above, onTarget, below }

    static let goals = ["fat_loss", "lean_mass", "recomp", "strength"]

    /// A generated client: mostly adults of 18–54, and one in four a client whom the calorie
    /// precedence's floors bind (a pregnant woman, any trimester or none given, or a small woman
    /// of 65 or more), so the sequences cross the pregnancy and safety floors as well as the bands.
    static func profile(_ rng: inout SeededGenerator) -> Profile {
        let sex: Profile.Sex = Bool.random(using: &rng) ? .male : .female
        let weight = Double(Int.random(in: 50...110, using: &rng))
        var profile = Profile(
            sex: sex, scheduleDays: Int.random(in: 2...6, using: &rng), ageRange: ["18–24", "25–34", "35–44", "45–54"].randomElement(using: &rng),
            heightCm: Double(Int.random(in: 155...195, using: &rng)), weightKg: weight,
            experience: Profile.Experience.allCases.randomElement(using: &rng),
            equipment: [Profile.Equipment.fullGym, .dumbbellsOnly, .bodyweightOnly].randomElement(using: &rng),
            goal: goals.randomElement(using: &rng))
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:
            profile.sex = .female
            profile.pregnant = true
            profile.trimester = [nil, 1, 2, 3].randomElement(using: &rng) ?? nil
            profile.heightCm = Double(Int.random(in: 150...178, using: &rng))
            profile.weightKg = Double(Int.random(in: 50...90, using: &rng))
        case 1:
            profile.sex = .female
            profile.ageRange = nil
            profile.age = Int.random(in: 65...80, using: &rng)
            profile.heightCm = Double(Int.random(in: 145...160, using: &rng))
            profile.weightKg = Double(Int.random(in: 40...55, using: &rng))
        default:
            break
        }
        return profile
    }

    /// Day `n` (0-based) of the simulation as a date.
    static func date(_ n: Int) -> String { CalendarDay(ordinal: 20_514 + n).description }  // 2026-03-02

    /// A week of check-ins and sessions for `plan`.
    static func week(
        _ number: Int, plan: Value, mood: Mood, drift: Drift, weight: inout Double, goal: String, trend: WeightTrendRule?,
        neutralSessions: Bool = false, _ rng: inout SeededGenerator
    ) -> AdaptationInput {
        let target = trend?.targetPercentPerWeek[goal] ?? (-0.5)...0.5
        let mid = (target.lowerBound + target.upperBound) / 2
        let rate: Double = switch drift {
        case .above: target.upperBound + 0.6
        case .onTarget: mid
        case .below: target.lowerBound - 0.6
        }
        var checkIns: [CheckIn] = []
        for day in 0..<7 {
            weight *= 1 + rate / 100 / 7
            let (sleep, stress, motivation): (Double, Int, Int) = switch mood {
            case .low: (Double(Int.random(in: 4...5, using: &rng)), Int.random(in: 4...5, using: &rng), Int.random(in: 1...2, using: &rng))
            case .neutral: (7.5, 3, 3)
            case .high: (8.5, 1, 5)
            }
            var soreness: OrderedDictionary<String, Int> = [:]
            if mood != .neutral, day == 6, Int.random(in: 0..<3, using: &rng) == 0 { soreness["legs"] = Int.random(in: 4...5, using: &rng) }
            if mood == .neutral { soreness["legs"] = 2 }
            checkIns.append(CheckIn(date: date((number - 1) * 7 + day), sleepHours: sleep, soreness: soreness, stress: stress, motivation: motivation,
                                    weightKg: (weight * 10).rounded() / 10))
        }
        var sessions: [LoggedSession] = []
        for (index, workout) in (plan["workouts"]?.listValue ?? []).enumerated() {
            guard let day = workout["day"]?.intValue else { continue }
            var exercises: [LoggedExercise] = []
            for block in (workout["blocks"]?.listValue ?? []).prefix(3) {
                guard let id = block["exerciseId"]?.stringValue, let reps = block["reps"]?.stringValue.flatMap(PlanRange.init(text:)),
                      let sets = block["sets"]?.intValue, sets > 0 else { continue }
                let rir = block["rir"]?.stringValue.flatMap(PlanRange.init(text:)) ?? PlanRange(1, 3)
                let load: Double = block["load_kg"]?.numberValue ?? ([8.0, 12, 20, 40, 60, 100].randomElement(using: &rng) ?? 20)
                let outcome = neutralSessions ? 1 : Int.random(in: 0..<4, using: &rng)
                let logged: [LoggedSet] = (0..<Int(sets)).map { _ in
                    switch outcome {
                    case 0: LoggedSet(loadKg: load, reps: reps.upper, rir: Double(rir.upper + 2))   // easy, at the top
                    case 1: LoggedSet(loadKg: load, reps: max(reps.lower, reps.upper - 1), rir: Double(rir.lower))  // at target
                    case 2: LoggedSet(loadKg: load, reps: reps.upper, rir: Double(rir.lower))       // top at target RIR
                    default: LoggedSet(loadKg: load, reps: max(0, reps.lower - 1), rir: 0.0)        // missed
                    }
                }
                exercises.append(LoggedExercise(exerciseId: id, sets: logged, feel: outcome == 0 && !neutralSessions ? .easy : nil,
                                                muscle: block["muscle"]?.stringValue))
            }
            if !exercises.isEmpty, index < 3 {
                sessions.append(LoggedSession(date: date((number - 1) * 7 + min(6, index * 2)), day: Int(day), exercises: exercises))
            }
        }
        return AdaptationInput(checkIns: checkIns, sessions: sessions, week: number)
    }

    /// One simulated sequence and what the properties check.
    struct Run {
        var plan: Value
        var weeks: [AdaptationResult] = []
        var plans: [Value] = []
        var goal: String
        var band: ClosedRange<Double>?
        var startKcal: Double
    }

    /// The effective band the plan's calories must stay in: the goal's band as the plan's calorie
    /// precedence recorded it (TDEE × the goal's multipliers), raised to its safety floor and to
    /// the BMR, widened to the planned calories when the plan starts outside it.
    func band(of plan: Value) -> ClosedRange<Double>? {
        guard let goal = plan["nutrition"]?["goal"]?.stringValue, let multipliers = AdaptationRuleSet.calorieBands(planner.nutrition)[goal],
              let tdee = plan["idx"]?["TDEE"]?.numberValue, let kcal = plan["kcal"]?.numberValue else { return nil }
        let decision = plan["nutrition"]?["basis"]?["calorie_precedence"]
        let floor = max(plan["idx"]?["BMR"]?.numberValue ?? 0, decision?["floor_kcal"]?.numberValue ?? 0)
        // The precedence's band (from the unrounded TDEE) when the plan records it.
        let recorded = decision?["band_kcal"]?.listValue?.compactMap(\.numberValue)
        let bandLow = recorded?.first ?? tdee * multipliers.lowerBound
        let bandHigh = recorded?.last ?? tdee * multipliers.upperBound
        let low = max(bandLow.rounded(.up), floor.rounded(.up))
        let high = max(low, bandHigh.rounded(.down))
        return min(low, kcal)...max(high, kcal)
    }

    /// `weeks` weeks of generated check-ins on `profile`'s plan, each on the last one's output,
    /// then `neutral` neutral weeks.
    func run(profile: Profile, weeks: Int, neutral: Int, _ rng: inout SeededGenerator) throws -> Run {
        let plan = try planner.generatePlan(profile).jsonValue()
        let goal = plan["nutrition"]?["goal"]?.stringValue ?? "recomp"
        var run = Run(plan: plan, goal: goal, band: band(of: plan), startKcal: plan["kcal"]?.numberValue ?? 0)
        var current = plan
        var weight = profile.weightKg ?? 70
        for number in 1...(weeks + neutral) {
            let isNeutral = number > weeks
            let mood = isNeutral ? .neutral : Mood.allCases.randomElement(using: &rng) ?? .neutral
            let drift = isNeutral ? .onTarget : Drift.allCases.randomElement(using: &rng) ?? .onTarget
            let input = Self.week(number, plan: current, mood: mood, drift: drift, weight: &weight, goal: goal,
                                  trend: adaptation.readiness.weightTrend, neutralSessions: isNeutral, &rng)
            let result = try adaptation.adaptPlan(current, input: input, training: planner.training, nutrition: planner.nutrition)
            run.weeks.append(result)
            run.plans.append(result.patchedPlan)
            current = result.patchedPlan
        }
        run.plan = current
        return run
    }
}
