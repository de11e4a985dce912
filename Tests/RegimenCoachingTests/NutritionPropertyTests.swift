import RegimenCoaching
import Testing

/// The seed's acceptance criterion, checked over a grid of profiles: any single choice from each
/// category lands the meal within ±10% of every sub-target, for every combination.
@Suite struct NutritionPropertyTests {
    struct GridProfile: CustomStringConvertible {
        var yaml: String
        var exclusions: [String]
        var description: String { yaml.replacingOccurrences(of: "\n", with: "; ") }
    }

    /// sex × age range × weight × height × body fat present/absent × goal × budget × meals ×
    /// exclusions: every seventh point of the full 9,216-point grid (1,317 profiles; 7 is prime to
    /// every dimension's size, so every value of every dimension is sampled).
    static let grid: [GridProfile] = {
        var all: [GridProfile] = []
        let exclusionSets: [[String]] = [[], ["vegetarian"], ["vegan"], ["gluten", "dairy"]]
        for sex in ["male", "female"] {
            for age in ["<18", "25-34", ">60"] {
                for weight in [45, 70, 95, 140] {
                    for height in [158, 185] {
                        for bodyfat in [nil, 28] as [Int?] {
                            for goal in ["fat_loss", "lean_mass", "recomp", "strength"] {
                                for budget in ["low", "medium", "high"] {
                                    for meals in [3, 4] {
                                        for exclusions in exclusionSets {
                                            var yaml = "sex: \(sex)\nschedule_days: \(1 + (weight + height) % 6)\nage_range: \"\(age)\"\n"
                                            yaml += "weight_kg: \(weight)\nheight_cm: \(height)\ngoal: \(goal)\nbudget_tier: \(budget)\n"
                                            yaml += "meals_per_day: \(meals)\nexclusions: [\(exclusions.joined(separator: ", "))]\n"
                                            if let bodyfat { yaml += "bodyfat_pct: \(bodyfat)\n" }
                                            all.append(GridProfile(yaml: yaml, exclusions: exclusions))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return stride(from: 0, to: all.count, by: 7).map { all[$0] }
    }()

    @Test func gridIsLargeEnough() {
        #expect(Self.grid.count >= 1_000)
    }

    @Test func everyCombinationOfEveryMealStaysWithinTolerance() throws {
        let rules = try TestRules.rules()
        let catalog = Dictionary(uniqueKeysWithValues: rules.catalog.ingredients.map { ($0.id, $0) })
        var meals = 0
        var mealsWithOptions = 0
        var byExclusion: [String: (meals: Int, withOptions: Int)] = [:]
        var combinations = 0
        for entry in Self.grid {
            let profile = try TestRules.profile(entry.yaml)
            let plan = try rules.planNutrition(profile)
            let weight = try #require(profile.weightKg)
            // Protein 1.6–2.2 g/kg (whole grams shown, so half a gram of rounding either way).
            #expect(plan.macros.proteinG >= 1.6 * weight - 0.5 && plan.macros.proteinG <= 2.2 * weight + 0.5, "\(entry)")
            #expect(plan.macros.carbG >= 0, "\(entry)")
            // Macros add up to the kcal target within 3%.
            let macroKcal = 4 * plan.macros.proteinG + 4 * plan.macros.carbG + 9 * plan.macros.fatG
            #expect(abs(macroKcal - plan.kcal) <= 0.03 * plan.kcal, "\(entry): \(macroKcal) vs \(plan.kcal)")
            for meal in plan.meals {
                meals += 1
                let key = entry.exclusions.isEmpty ? "none" : entry.exclusions.joined(separator: "+")
                byExclusion[key, default: (0, 0)].meals += 1
                guard case .options(let options) = meal.allocation else { continue }
                mealsWithOptions += 1
                byExclusion[key, default: (0, 0)].withOptions += 1
                for category in IngredientCategory.allCases {
                    #expect(options[category].count >= 3, "\(entry): \(category) has \(options[category].count) options")
                    for option in options[category] {
                        let ingredient = try #require(catalog[option.ingredientId])
                        #expect(ingredient.category == category)
                        let excluded = Set(entry.exclusions.flatMap { rules.profile.diets.exclusions[$0] ?? [] })
                        #expect(excluded.isDisjoint(with: ingredient.contains), "\(entry): \(option.ingredientId) is excluded")
                        #expect(rules.meals.budgetTiers[plan.budgetTier]?.contains(ingredient.budgetTier) == true)
                    }
                }
                combinations += checkEveryCombination(options, targets: meal.targets, tolerance: 0.10, context: "\(entry) \(meal.slot)")
            }
        }
        print("nutrition grid: \(Self.grid.count) profiles, \(meals) meals, \(mealsWithOptions) with options, \(combinations) combinations checked")
        for (key, counts) in byExclusion.sorted(by: { $0.key < $1.key }) {
            print("  exclusions \(key): \(counts.withOptions) of \(counts.meals) meals have options")
        }
        #expect(combinations > 100_000)
    }

    /// Enumerates every pick of one option per category and checks each total; returns the count.
    func checkEveryCombination(_ options: MealOptions, targets: MealTargets, tolerance: Double, context: String) -> Int {
        var count = 0
        for p in options.protein {
            for c in options.carb {
                for v in options.veg {
                    for f in options.fat {
                        count += 1
                        let picks = [p, c, v, f]
                        let totals = (
                            protein: picks.reduce(0) { $0 + $1.macros.protein }, carb: picks.reduce(0) { $0 + $1.macros.carb },
                            fat: picks.reduce(0) { $0 + $1.macros.fat }, kcal: picks.reduce(0) { $0 + $1.kcal })
                        let pairs = [
                            ("protein", totals.protein, targets.macros.protein), ("carb", totals.carb, targets.macros.carb),
                            ("fat", totals.fat, targets.macros.fat), ("kcal", totals.kcal, targets.kcal),
                        ]
                        for (name, total, target) in pairs where abs(total - target) > tolerance * target + 1e-9 {
                            Issue.record("\(context): \(picks.map(\.ingredientId)) gives \(name) \(total), target \(target)")
                        }
                    }
                }
            }
        }
        return count
    }
}
