/// Every `kind:` the project's rule and catalog files may declare, by the module that decodes it.
///
/// Domain modules load the shared `rules/` and `catalogs/` trees but register only their own
/// kinds; this manifest lets such a load skip a file that belongs to another module while still
/// reporting a misspelt or unknown kind. `regimen check` registers every kind, and a test keeps
/// this list equal to what the modules register.
public enum ProjectRuleKinds {
    public static let byModule: [String: Set<String>] = [
        "RegimenRules": ["functions"],
        "RegimenCoaching": [
            "accuracy_ladder", "activity_multipliers", "age_ranges", "dietary_exclusions", "goals", "indexes",
            "ingredients", "meals", "nutrition", "profile_defaults", "profile_fields",
            "exercise_catalog", "plan_templates", "training_compact", "training_goals", "training_recovery",
            "training_selection", "training_session_limits", "training_splits", "training_volume",
            "auto_adjust_matrix", "progression_rules", "readiness_rules", "supplement_catalog", "supplement_rules",
        ],
        "RegimenTracking": [
            "activity_catalog", "calorie_burn", "periodization", "student_progress", "tracker_analytics",
            "tracker_duplication", "tracker_queries", "tracker_validation",
        ],
        "RegimenSecurity": ["security_rules", "security_tests"],
    ]

    /// All kinds of all modules.
    public static var all: Set<String> { byModule.values.reduce(into: []) { $0.formUnion($1) } }
}
