@testable import RegimenCoaching
import Testing

/// `macros.protein_basis` in `rules/nutrition.yaml`: lean mass when body fat is known, else an
/// adjusted body weight when BMI is 30+, else total weight.
@Suite struct ProteinBasisTests {
    func plan(_ yaml: String) throws -> NutritionPlan {
        try TestRules.rules().planNutrition(try TestRules.profile(yaml))
    }

    /// Issue 31: a 130 kg client at BMI 52 with 48% body fat got 208 g (1.6 g/kg of total weight,
    /// 3.1 g/kg of lean mass). On lean mass, at the bottom of its range for BMI 30+: 2.0 g/kg.
    @Test func anObeseClientWithKnownBodyFatGetsProteinOnLeanMass() throws {
        let plan = try plan("sex: male\nschedule_days: 3\nage: 45\nheight_cm: 158\nweight_kg: 130\nbodyfat_pct: 48\ngoal: fat_loss\n")
        #expect(plan.proteinBasis.kind == .leanMass)
        #expect(abs(plan.proteinBasis.kilograms - 67.6) < 0.01)
        #expect(plan.macros.proteinG == 135)
        #expect(plan.macros.proteinG / plan.proteinBasis.kilograms <= 2.8)
    }

    /// Without body fat, BMI 52 plans on the adjusted weight: 62.4 kg at BMI 25 + 0.4 × 67.6 kg.
    @Test func anObeseClientWithoutBodyFatGetsProteinOnAdjustedWeight() throws {
        let plan = try plan("sex: male\nschedule_days: 3\nage: 45\nheight_cm: 158\nweight_kg: 130\ngoal: fat_loss\n")
        #expect(plan.proteinBasis.kind == .adjustedWeight)
        #expect(abs(plan.proteinBasis.kilograms - 89.45) < 0.02)
        #expect(plan.macros.proteinG == 143)
    }

    @Test func aClientOfNormalWeightWithoutBodyFatKeepsTotalWeight() throws {
        let plan = try plan("sex: female\nschedule_days: 3\nage: 30\nheight_cm: 168\nweight_kg: 62\ngoal: lean_mass\n")
        #expect(plan.proteinBasis.kind == .bodyWeight && plan.proteinBasis.kilograms == 62)
        #expect(plan.macros.proteinG == (1.8 * 62).rounded())
    }

    /// Over sex × 40–160 kg × heights × body fat known or not × goals: protein per kg of its
    /// basis stays inside the basis rule's range (the give-way may only lower it to the bottom,
    /// or below with an adjustment saying so), and never exceeds 2.8 g per kg of lean mass.
    @Test func proteinPerKgOfItsBasisStaysInItsRange() throws {
        let rules = try TestRules.rules()
        let basisRules = rules.nutrition.proteinBasis
        var checked = 0
        for sex in ["female", "male"] {
            for weight in stride(from: 40, through: 160, by: 15) {
                for height in [150, 165, 180, 195] {
                    for bodyfat in [nil, 12, 30, 48] as [Int?] {
                        for goal in ["fat_loss", "lean_mass", "strength"] where (weight + height + (bodyfat ?? 0)) % 3 == ["fat_loss", "lean_mass", "strength"].firstIndex(of: goal) {
                            var yaml = "sex: \(sex)\nschedule_days: 3\nage: 35\nweight_kg: \(weight)\nheight_cm: \(height)\ngoal: \(goal)\n"
                            if let bodyfat { yaml += "bodyfat_pct: \(bodyfat)\n" }
                            let plan = try rules.planNutrition(try TestRules.profile(yaml))
                            let range = plan.proteinBasis.kind == .leanMass ? basisRules.leanMass.range : rules.nutrition.proteinPerKg.range
                            #expect(plan.proteinBasis.kind == (bodyfat != nil ? .leanMass : .bodyWeight) || plan.proteinBasis.kind == .adjustedWeight, "\(yaml)")
                            #expect(plan.proteinPerKg <= range.upperBound + 1e-9, "\(yaml)")
                            let belowRange = plan.proteinPerKg < range.lowerBound - 1e-9
                            #expect(!belowRange || plan.adjustments.contains { $0.hasPrefix("protein lowered") }, "\(yaml)")
                            if let bodyfat {
                                let lean = Double(weight) * (1 - Double(bodyfat) / 100)
                                #expect(plan.macros.proteinG / lean <= basisRules.leanMass.range.upperBound + 0.02, "\(yaml)")
                            }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 60)
    }
}
