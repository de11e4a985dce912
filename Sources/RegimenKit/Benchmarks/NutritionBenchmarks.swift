import Foundation
import RegimenCoaching
import RegimenRules

/// In-process speed of recalculateIndexes and nutrition planning on the repository's rules.
enum NutritionBenchmarks {
    static func cases(currentDirectory: URL, executable: URL?) -> [BenchmarkCase] {
        guard case .success(let sources) = RuleSources.locate(rules: nil, catalogs: nil, currentDirectory: currentDirectory, executable: executable),
              let ruleSet = try? RegimenEngine.plannerLoader.load(from: sources).get(),
              let rules = try? NutritionRuleSet(ruleSet),
              let profile = try? rules.profileDecoder.decode(
                  text: "sex: male\nschedule_days: 6\nage_range: 25-34\nheight_cm: 181\nweight_kg: 84\nexperience: advanced\nequipment: full_gym\ngoal: lean_mass\nbudget_tier: high\n",
                  file: "bench-profile.yaml")
        else { return [] }
        return [
            BenchmarkCase(name: "indexes.recalculate", targetNanoseconds: nil) { count in
                var sink = 0
                for _ in 0..<count { sink &+= Int((try? rules.recalculateIndexes(profile))?.bmr ?? 0) }
                return sink
            },
            BenchmarkCase(name: "nutrition.plan (6-day advanced, 4 meals, high budget)", targetNanoseconds: nil) { count in
                var sink = 0
                for _ in 0..<count { sink &+= (try? rules.planNutrition(profile))?.meals.count ?? 0 }
                return sink
            },
        ]
    }
}
