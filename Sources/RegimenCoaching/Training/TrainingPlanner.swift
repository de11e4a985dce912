/// Turns a profile into a week of training with the loaded rules and catalog (seed 003 §3, §12).
///
/// The steps: split by days; band by experience, scaled by the goal and local injury cuts; each
/// muscle's weekly target spread evenly over the sessions that train it; exercises picked per
/// session (compounds first, variety across the week, contraindications swapped or regressed)
/// within the session limits; a top-up pass moves unmet sets to sessions with room; what still
/// does not fit is stated as a shortfall with its reasons. Same profile, same plan.
public struct TrainingPlanner: Sendable {
    public let rules: TrainingRules
    public let catalog: ExerciseCatalog
    /// Built once here: every plan reads it, none changes it.
    let index: CatalogIndex

    public init(rules: TrainingRules, catalog: ExerciseCatalog) {
        self.rules = rules
        self.catalog = catalog
        self.index = CatalogIndex(trackedMuscles: rules.trackedMuscles, catalog: catalog)
    }

    /// The week for `profile`.
    /// - Throws: ``TrainingPlanError`` when the profile asks for something the rules do not
    ///   allow (days outside 1–7, an unknown goal, a split option not offered for the days).
    public func plan(for profile: Profile, options: TrainingPlanOptions = TrainingPlanOptions()) throws(TrainingPlanError) -> TrainingWeek {
        let context = try PlanningContext(profile: profile, options: options, rules: rules, catalog: catalog, index: index)
        var builder = WeekBuilder(context: context)
        return builder.build()
    }
}
