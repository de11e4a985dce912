import Foundation

/// The profiles every nutrition property runs over: both sexes; 40–160 kg in 5 kg steps, with
/// height and age varied alongside; every goal, experience and budget tier; no exclusions, each
/// shipped exclusion alone, and three common pairs; 2 to 6 meals a day.
///
/// `swift test` runs every `sampleStride`th profile; `scripts/nutrition-grid.sh` sets
/// `REGIMEN_NUTRITION_GRID=full` and runs all of them.
enum NutritionGrid {
    struct Point: CustomStringConvertible, Sendable {
        var yaml: String
        var exclusions: [String]
        var mealsPerDay: Int
        var description: String { yaml.replacingOccurrences(of: "\n", with: "; ") }
        /// The diet label the summaries group by.
        var diet: String { exclusions.isEmpty ? "none" : exclusions.joined(separator: "+") }
    }

    static let exclusionSets: [[String]] = [[]]
        + ["vegetarian", "vegan", "pescatarian", "dairy", "egg", "fish", "shellfish", "soy", "gluten", "nuts", "tree_nuts", "peanuts", "sesame"].map { [$0] }
        + [["vegan", "gluten"], ["vegan", "soy"], ["vegetarian", "nuts"], ["dairy", "egg"]]
    static let weights = Array(stride(from: 40, through: 160, by: 5))
    static let heights = [152, 160, 168, 175, 183, 190, 198]
    static let ageRanges = ["<18", "18-24", "25-34", "35-44", "45-54", "55-60", ">60"]
    static let goals = ["fat_loss", "lean_mass", "recomp", "strength"]
    static let experiences = ["novice", "intermediate", "advanced"]
    static let budgets = ["low", "medium", "high"]
    static let mealCounts = [2, 3, 4, 5, 6]

    /// 139 is prime and divides no dimension's size, so the sample takes every value of every
    /// dimension.
    static let sampleStride = 139

    static var isFull: Bool { ProcessInfo.processInfo.environment["REGIMEN_NUTRITION_GRID"] == "full" }

    /// `REGIMEN_NUTRITION_GRID_SHARD=k/n` keeps the points whose index is k modulo n, so the
    /// full grid can run in pieces (and report as it goes).
    static var shard: (index: Int, count: Int)? {
        guard let text = ProcessInfo.processInfo.environment["REGIMEN_NUTRITION_GRID_SHARD"] else { return nil }
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] > 0, (0..<parts[1]).contains(parts[0]) else { return nil }
        return (parts[0], parts[1])
    }

    static func points(full: Bool = isFull, mealCounts counts: [Int] = mealCounts) -> [Point] {
        var all: [Point] = []
        for sex in ["male", "female"] {
            for (w, weight) in weights.enumerated() {
                // Height and age vary with weight (not crossed), so every value of each is covered.
                let height = heights[(w + (sex == "female" ? 3 : 0)) % heights.count]
                let age = ageRanges[w % ageRanges.count]
                for goal in goals {
                    for experience in experiences {
                        for budget in budgets {
                            for exclusions in exclusionSets {
                                for meals in counts {
                                    var yaml = "sex: \(sex)\nschedule_days: \(1 + w % 6)\nage_range: \"\(age)\"\n"
                                    yaml += "weight_kg: \(weight)\nheight_cm: \(height)\ngoal: \(goal)\nexperience: \(experience)\n"
                                    yaml += "budget_tier: \(budget)\nmeals_per_day: \(meals)\nexclusions: [\(exclusions.joined(separator: ", "))]\n"
                                    all.append(Point(yaml: yaml, exclusions: exclusions, mealsPerDay: meals))
                                }
                            }
                        }
                    }
                }
            }
        }
        let chosen = full ? all : stride(from: 0, to: all.count, by: sampleStride).map { all[$0] }
        guard let shard else { return chosen }
        return chosen.indices.filter { $0 % shard.count == shard.index }.map { chosen[$0] }
    }
}
