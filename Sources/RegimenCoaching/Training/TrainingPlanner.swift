/// Turns a profile into a week of training with the loaded rules and catalog (the requirements
/// are docs/requirements.md#training-split through #progression).
///
/// The steps: split by days; band by experience, scaled by the goal and local injury cuts; each
/// muscle's weekly target spread evenly over the sessions that train it; exercises picked per
/// session (compounds first, variety across the week, contraindications swapped or regressed)
/// within the session limits; a top-up pass moves unmet sets to sessions with room; what still
/// does not fit is stated as a shortfall with its reasons. Same profile, same plan.
package struct TrainingPlanner: Sendable {
    package let rules: TrainingRules
    package let catalog: ExerciseCatalog
    /// Built once here: every plan reads it, none changes it.
    let index: CatalogIndex

    init(rules: TrainingRules, catalog: ExerciseCatalog) {
        self.rules = rules
        self.catalog = catalog
        self.index = CatalogIndex(trackedMuscles: rules.trackedMuscles, catalog: catalog)
    }

    /// The week for `profile`.
    /// - Throws: ``TrainingPlanError`` when the profile asks for something the rules do not
    ///   allow (days outside 1–7, an unknown goal, a split option not offered for the days).
    package func plan(for profile: Profile, options: TrainingPlanOptions = TrainingPlanOptions()) throws(TrainingPlanError) -> TrainingWeek {
        var week = try chosenWeek(for: profile, options: options)
        let short = week.shortfalls.map(\.muscle)
        let days = week.split.trainingDays
        guard !short.isEmpty, days < rules.maxTrainingDays.value else { return week }
        // A tip to train more days must be true: name the fewest days whose plan brings every
        // short muscle up to its band, or say that no number of days does.
        let names = short.joined(separator: ", ")
        var tip = "\(names) cannot reach the weekly set band at any number of training days (up to \(rules.maxTrainingDays.value)) within the session limits and the exercises open to this profile"
        for more in (days + 1)...rules.maxTrainingDays.value {
            var longer = profile
            longer.scheduleDays = more
            guard let other = try? chosenWeek(for: longer, options: TrainingPlanOptions()) else { continue }
            let stillShort = Set(other.shortfalls.map(\.muscle))
            if short.allSatisfy({ !stillShort.contains($0) }) {
                tip = "Train \(more) days a week to bring \(names) up to the weekly set band"
                break
            }
        }
        let position = week.tips.firstIndex { $0.hasPrefix("More equipment") } ?? week.tips.endIndex
        week.tips.insert(tip, at: position)
        return week
    }

    /// The week of the split the profile's day row chooses, before the day-count tip.
    private func chosenWeek(for profile: Profile, options: TrainingPlanOptions) throws(TrainingPlanError) -> TrainingWeek {
        let context = try PlanningContext(profile: profile, options: options, rules: rules, catalog: catalog, index: index)
        var builder = WeekBuilder(context: context)
        let listed = builder.build()
        guard options.split == nil, context.split.value.choose == .mostBandMinimums else { return listed }
        // The row's rule picks among its templates by the weeks they give: the one that leaves
        // the fewest muscles below their band minimum, then the smallest total shortfall, then
        // the row's order.
        var best = listed
        var candidates: [(name: String, reached: Int)] = [(listed.split.name, Self.reached(listed))]
        for id in context.split.value.allowed where id != context.template.id {
            guard let template = rules.templates[id], template.equipmentProfiles.contains(context.inputs.equipment) else { continue }
            let alternative = try PlanningContext(profile: profile, options: TrainingPlanOptions(split: id), rules: rules, catalog: catalog, index: index)
            var alternativeBuilder = WeekBuilder(context: alternative)
            let week = alternativeBuilder.build()
            candidates.append((week.split.name, Self.reached(week)))
            if Self.shortfallKey(week) < Self.shortfallKey(best) { best = week }
        }
        guard candidates.count > 1 else { return listed }
        let others = candidates.filter { $0.name != best.split.name }.map { "\($0.name): \($0.reached)" }.joined(separator: ", ")
        best.notes.insert(
            "\(best.split.name) chosen: \(Self.reached(best)) of \(best.volume.count) muscles reach their weekly band minimum (\(others)); \(context.split.source.rule) choose: most_band_minimums",
            at: 0)
        return best
    }

    private static func reached(_ week: TrainingWeek) -> Int { week.volume.count - week.shortfalls.count }

    /// Muscles short, then total sets short: smaller is better.
    private static func shortfallKey(_ week: TrainingWeek) -> (Int, Double) {
        (week.shortfalls.count, week.shortfalls.reduce(0) { $0 + Double($1.band.lowerBound) - $1.planned })
    }
}
