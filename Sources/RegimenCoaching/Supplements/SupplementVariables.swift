import RegimenLanguage
import RegimenRules

/// The variables the supplement safety rules read, declared once: the rule file compiles its
/// facts and cautions against them, the advisor binds exactly them, and `regimen explain-kind
/// supplement_rules` and the rule file's header print them.
package enum SupplementVariables {
    typealias V = VariableDeclaration

    static let profile = V("profile", .map, "the profile with the seed's field names (age_range, age, weight_kg, pregnant, hypertension, medications, daily_caffeine_mg, exclusions, goal, ...); absent optional fields are null")
    static let medicationClasses = V("medication_classes", .list, "classes of medication_classes below that the profile's medications match")
    static let unknownMedications = V("unknown_medications", .list, "the profile's medications no class lists")
    static let excludedTags = V("excluded_tags", .list, "food tags the profile's dietary exclusions rule out (rules/dietary-exclusions.yaml)")
    static let item = V("item", .map, "the catalog item: id, name, category, goals, evidence_tier, stimulant, sodium_load, gi_risk, pregnancy, contains, usual_source_contains, alternative_source, interactions (medication class → note), dose_basis, dose_unit")
    static let dose = V("dose", ExpressionType.number.orNull, "the dose the advisor would suggest before this rule, in the item's unit per intake")

    /// About the person: what facts read.
    static let person = [profile, medicationClasses, unknownMedications, excludedTags]
    /// About the candidate item.
    static let item_ = [item, dose]

    static let factsScope = ExpressionScope("facts", "once per person, in order; each fact may read the ones before it", person)
    static let cautionsScope = ExpressionScope(
        "cautions (when, daily_cap, already_taken, message parts)", "once per candidate item, with every fact", person + item_)
}
