/// The kilograms protein is planned on (`macros.protein_basis` in `rules/nutrition.yaml`): lean
/// body mass when body fat is known; else, when BMI says total weight misleads, an adjusted body
/// weight; else total body weight.
package struct ProteinBasis: Sendable, Hashable {
    /// Which basis applied.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Lean body mass (body fat known).
        case leanMass = "lean_mass"
        /// The weight at the reference BMI plus a share of the excess.
        case adjustedWeight = "adjusted_weight"
        /// Total body weight.
        case bodyWeight = "body_weight"

        /// What "g/kg" is per, as the plan shows it.
        package var perKgSuffix: String {
            switch self {
            case .leanMass: " of lean mass"
            case .adjustedWeight: " of adjusted weight"
            case .bodyWeight: ""
            }
        }
    }

    package var kind: Kind
    /// The basis in kilograms.
    var kilograms: Double
    /// Why this basis, in words.
    var reason: String

    init(rules: ProteinBasisRules, indexes: IndexReport) {
        let weight = indexes.weightKgUsed
        if let lean = indexes.leanBodyMassKg, lean > 0 {
            kind = .leanMass
            kilograms = lean
            reason = "body fat known: protein per kg of lean mass (\(formatted(lean)) kg)"
        } else if let bmi = indexes.bmi, bmi >= rules.adjustedFromBMI {
            let metres = indexes.heightCmUsed / 100
            let reference = rules.referenceBMI * metres * metres
            let adjusted = reference + rules.excessFraction * max(0, weight - reference)
            kind = .adjustedWeight
            kilograms = min(weight, adjusted)
            reason = "BMI \(formatted(bmi)) ≥ \(exactly(rules.adjustedFromBMI)) without body fat: adjusted weight \(formatted(reference)) kg (BMI \(exactly(rules.referenceBMI))) + \(exactly(rules.excessFraction)) × the \(formatted(max(0, weight - reference))) kg above it = \(formatted(min(weight, adjusted))) kg"
        } else {
            kind = .bodyWeight
            kilograms = weight
            reason = "protein per kg of body weight (\(formatted(weight)) kg)"
        }
    }
}
