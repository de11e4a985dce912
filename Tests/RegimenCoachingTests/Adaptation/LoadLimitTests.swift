import OrderedCollections
import RegimenTestSupport
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
@testable import RegimenRules

/// Adaptation never writes a plan it refuses to read (issue 33: "adapt at the 1,000 kg load
/// limit: '+50 kg to 1050 kg', then adapt refuses its own output").
@Suite struct LoadLimitTests {
    /// `plan` with every block of `exercise` set to `loadKg`.
    static func withLoad(_ plan: Value, exercise: String, _ loadKg: Double) -> Value {
        guard case .map(var root) = plan, case .list(let workouts)? = root["workouts"] else { return plan }
        root["workouts"] = .list(workouts.map { workout in
            guard case .map(var day) = workout, case .list(let blocks)? = day["blocks"] else { return workout }
            day["blocks"] = .list(blocks.map { block in
                guard case .map(var fields) = block, fields["exerciseId"]?.stringValue == exercise else { return block }
                fields["load_kg"] = .float(loadKg)
                return .map(fields)
            })
            return .map(day)
        })
        return .map(root)
    }

    /// Property: for loads at, near and below the limit, a lift reported too easy at the top of
    /// its reps is adapted to a plan `adapt` reads again, whose loads stay within the limit; at the
    /// limit the change log says the load is held.
    @Test(arguments: [1_000.0, 999.0, 990.0, 997.5, 200.0])
    func anEasyLiftNearTheLimitStaysReadable(loadKg: Double) throws {
        try adaptEasyLift(loadKg: loadKg, limitKg: nil)
    }

    /// The limit is the rules' (rules/plausibility.yaml `plan.load_kg`): narrowed to 0–200 kg, a
    /// lift at 200 kg is held there, and the note names the range.
    @Test func theLimitIsTheRules() throws {
        try adaptEasyLift(loadKg: 200, limitKg: 200)
    }

    func adaptEasyLift(loadKg: Double, limitKg: Double?) throws {
        let simulation = try #require(AdaptationSimulation.shared)
        let profile = Profile(sex: .male, scheduleDays: 3, ageRange: "25–34", heightCm: 180, weightKg: 90,
                              experience: .advanced, equipment: .fullGym, goal: "strength")
        let generated = try simulation.planner.generatePlan(profile).jsonValue()
        let facts = ExerciseFacts.table(from: simulation.planner.training.catalog)
        let view = try PlanView(document: generated)
        let block = try #require(view.allBlocks.first { facts[$0.exerciseId]?.equipment.contains("barbell") ?? false })
        let reps = try #require(block.reps)
        let plan = Self.withLoad(generated, exercise: block.exerciseId, loadKg)
        let day = try #require(PlanView(document: plan).days.first { $0.blocks.contains { $0.exerciseId == block.exerciseId } }?.day)
        let session = LoggedSession(date: AdaptationSimulation.date(2), day: day, exercises: [
            LoggedExercise(exerciseId: block.exerciseId, sets: Array(repeating: LoggedSet(loadKg: loadKg, reps: reps.upper, rir: 5), count: 3),
                           feel: .easy, muscle: block.muscle),
        ])
        let checkIns = (0..<7).map { CheckIn(date: AdaptationSimulation.date($0), sleepHours: 8.5, stress: 1, motivation: 5) }
        var nutrition = simulation.planner.nutrition
        if let limitKg { nutrition.planPlausibility.loadKg = .init(low: 0, high: limitKg) }
        let result = try simulation.adaptation.adaptPlan(plan, input: AdaptationInput(checkIns: checkIns, sessions: [session], week: 1),
                                                          training: simulation.planner.training, nutrition: nutrition)
        let adapted = try PlanView(document: result.patchedPlan)
        let loads = adapted.allBlocks.compactMap(\.loadKg)
        let limit = limitKg.map { 0...$0 } ?? PlanView.plausible.loadKg
        #expect(loads.allSatisfy { limit.contains($0) }, "\(loads.max() ?? 0) kg: \(result.changeLog.map(\.line))")
        let changed = result.changeLog.contains { $0.target == block.exerciseId && ($0.field == "load_kg" || $0.field == "reps" || $0.field == "note") }
        #expect(changed, "\(result.changeLog.map(\.line))")
        if loadKg == limit.upperBound {
            #expect(result.changeLog.contains { $0.line.contains("load held at \(Int(loadKg)) kg") && $0.line.contains("0–\(Int(loadKg)) kg a plan may hold") },
                    "\(result.changeLog.map(\.line))")
        }
    }
}
