import RegimenLanguage
import RegimenRules

/// The variables the supplement safety rules read, declared once: the rule file compiles its
/// facts and cautions against them, the advisor binds exactly them, and `regimen explain-kind
/// supplement_rules` and the rule file's header print them.
enum SupplementVariables {
    typealias V = VariableDeclaration

    static let profile = V("profile", profileRecord, "the profile with the seed's field names (age_range, age, weight_kg, pregnant, hypertension, medications, daily_caffeine_mg, exclusions, goal, ...); absent optional fields are null")
    static let medicationClasses = V("medication_classes", ExpressionType(.list, vocabulary: SchemaVocabulary.medicationClass), "classes of medication_classes below that the profile's medications match")
    static let unknownMedications = V("unknown_medications", .list, "the profile's medications no class lists")
    static let excludedTags = V("excluded_tags", ExpressionType(.list, vocabulary: SchemaVocabulary.foodTag), "food tags the profile's dietary exclusions rule out (rules/dietary-exclusions.yaml)")
    static let item = V("item", itemRecord, "the catalog item: id, name, category, goals, evidence_tier, stimulant, sodium_load, gi_risk, pregnancy, contains, usual_source_contains, alternative_source, interactions (medication class → note), dose_basis, dose_unit")
    static let dose = V("dose", ExpressionType.number.orNull, "the dose the advisor would suggest before this rule, in the item's unit per intake")

    /// `profile`: every field `Profile.screeningValue` binds, so `profile.agee` is a load error at
    /// `agee`, and `profile.sex == 'mal'` one at `'mal'` (the Swift enumerations give the values).
    static let profileRecord = ExpressionType.record([
        "sex": .oneOf(Profile.Sex.allCases.map(\.rawValue)),
        "schedule_days": .int,
        "age_range": ExpressionType.named("age_range").orNull,
        "age": ExpressionType.int.orNull,
        "height_cm": ExpressionType.number.orNull,
        "weight_kg": ExpressionType.number.orNull,
        "bodyfat_pct": ExpressionType.number.orNull,
        "waist_cm": ExpressionType.number.orNull,
        "experience": ExpressionType.oneOf(Profile.Experience.allCases.map(\.rawValue)).orNull,
        "equipment": ExpressionType.oneOf(Profile.Equipment.allCases.map(\.rawValue)).orNull,
        "injuries": .listOf(Profile.Injury.allCases.map(\.rawValue)),
        "overrides": .record(["BMR": ExpressionType.number.orNull, "TDEE": ExpressionType.number.orNull, "BMI": ExpressionType.number.orNull]),
        "goal": ExpressionType.named("goal").orNull,
        "budget_tier": ExpressionType.oneOf(Profile.BudgetTier.allCases.map(\.rawValue)).orNull,
        "meals_per_day": ExpressionType.int.orNull,
        "exclusions": ExpressionType(.list, vocabulary: SchemaVocabulary.diet),
        "pregnant": ExpressionType.bool.orNull,
        "trimester": ExpressionType.int.orNull,
        "hypertension": ExpressionType.bool.orNull,
        "medications": .list,
        "daily_caffeine_mg": ExpressionType.number.orNull,
    ])

    /// `item`: every field `Supplement.screeningValue` binds.
    static let itemRecord = ExpressionType.record([
        "id": .named("supplement"),
        "name": .string,
        "category": .oneOf(Supplement.Category.allCases.map(\.rawValue)),
        "goals": ExpressionType(.list, vocabulary: SchemaVocabulary.supplementGoal),
        "evidence_tier": .oneOf(Supplement.EvidenceTier.allCases.map(\.rawValue)),
        "stimulant": .bool,
        "sodium_load": .oneOf(Supplement.SodiumLoad.allCases.map(\.rawValue)),
        "gi_risk": .bool,
        "pregnancy": .oneOf(Supplement.Pregnancy.allCases.map(\.rawValue)),
        "contains": ExpressionType(.list, vocabulary: SchemaVocabulary.foodTag),
        "usual_source_contains": ExpressionType(.list, vocabulary: SchemaVocabulary.foodTag),
        "alternative_source": ExpressionType.string.orNull,
        "interactions": .map,
        "redundant_with": ExpressionType(.list, vocabulary: SchemaVocabulary.supplement),
        "dose_basis": .oneOf(SupplementDose.Basis.allCases.map(\.rawValue)),
        "dose_unit": .oneOf(SupplementDose.Unit.allCases.map(\.rawValue)),
        "dose_period": .oneOf(SupplementDose.Period.allCases.map(\.rawValue)),
    ])

    /// About the person: what facts read.
    static let person = [profile, medicationClasses, unknownMedications, excludedTags]
    /// About the candidate item.
    static let item_ = [item, dose]

    static let factsScope = ExpressionScope("facts", "once per person, in order; each fact may read the ones before it", person)
    static let cautionsScope = ExpressionScope(
        "cautions (when, daily_cap, already_taken, message parts)", "once per candidate item, with every fact", person + item_)
}
