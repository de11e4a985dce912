import RegimenLanguage
/// Everything fixed for one plan: inputs after defaults, the split, bands, limits and the pools
/// of exercises each muscle may use.
struct PlanningContext {
    let rules: TrainingRules
    let catalog: ExerciseCatalog
    let index: CatalogIndex
    let inputs: TrainingWeek.Inputs
    let assumptions: [String]
    let requestedDays: Int
    let trainingDays: Int
    let recoveryDays: Int
    let split: TrainingRules.Decided<TrainingRules.SplitChoice>
    let template: TrainingRules.PlanTemplate
    let days: [TrainingRules.DayType]
    let band: TrainingRules.Decided<ClosedRange<Int>>
    let modifier: TrainingRules.Decided<TrainingRules.GoalModifier>
    let limits: TrainingRules.Decided<TrainingRules.SessionLimits>
    let equipmentTags: Set<String>
    let allowedLevels: Set<Exercise.Level>
    let injuries: Set<Profile.Injury>
    /// Catalog flags the safety screens exclude (pregnancy, high blood pressure).
    let excludedFlags: Set<String>
    /// The highest RIR floor of the safety screens that apply, if any.
    let minRIR: Int?
    /// The cautions of the safety screens that apply, in order.
    let cautions: [String]
    /// Per tracked muscle: band after goal and injury cuts, target, and the rules behind them.
    let muscleTargets: [String: MuscleTarget]
    /// The same by tracked muscle id.
    let targetsById: [MuscleTarget]
    /// Per muscle id: catalog positions of exercises it may use (primary mover, equipment,
    /// level and injuries all allowed), in catalog order.
    let safeCandidates: [[Int]]
    /// The same ignoring injuries: what would have been chosen, for swap notes.
    let candidatesIgnoringInjuries: [[Int]]

    struct MuscleTarget {
        var band: ClosedRange<Int>
        var target: Int
        var injuryAdjustment: String?
        var sources: [RuleReference]
    }

    init(profile: Profile, options: TrainingPlanOptions, rules: TrainingRules, catalog: ExerciseCatalog, index: CatalogIndex) throws(TrainingPlanError) {
        self.rules = rules
        self.catalog = catalog
        self.index = index
        var assumptions: [String] = []
        if profile.scheduleDaysAssumed {
            assumptions.append("schedule_days not given: planned as \(profile.scheduleDays) days a week")
        }

        let experience: Profile.Experience
        if let given = profile.experience {
            experience = given
        } else {
            experience = rules.defaultExperience
            assumptions.append("experience not given: planned as \(experience.rawValue)")
        }
        let equipment: Profile.Equipment
        if let given = profile.equipment {
            equipment = given
        } else {
            equipment = rules.defaultEquipment
            assumptions.append("equipment not given: planned as \(equipment.rawValue)")
        }
        let goal: String
        if let given = profile.goal {
            goal = given
        } else {
            goal = rules.defaultGoal
            assumptions.append("goal not given: planned as \(goal)")
        }
        guard let modifier = rules.goalModifiers[goal] else {
            throw TrainingPlanError(
                field: "goal", value: goal,
                message: "no training modifier for this goal; known goals: \(rules.goalModifiers.keys.sorted().joined(separator: ", "))")
        }
        let maxDays = rules.maxTrainingDays.value
        guard profile.scheduleDays >= 1, profile.scheduleDays <= maxDays + 1 else {
            throw TrainingPlanError(
                field: "schedule_days", value: String(profile.scheduleDays),
                message: "must be between 1 and \(maxDays + 1)")
        }
        let trainingDays = min(profile.scheduleDays, maxDays)
        guard let split = rules.splitsByDays[trainingDays] else {
            throw TrainingPlanError(field: "schedule_days", value: String(trainingDays), message: "the split table has no row for this many days")
        }
        let templateId = options.split ?? split.value.defaultTemplate
        guard split.value.allowed.contains(templateId), let template = rules.templates[templateId] else {
            throw TrainingPlanError(
                field: "split", value: templateId,
                message: "not offered for \(trainingDays) training days; choose one of \(split.value.allowed.joined(separator: ", "))")
        }
        guard template.equipmentProfiles.contains(equipment) else {
            throw TrainingPlanError(
                field: "equipment", value: equipment.rawValue,
                message: "template \(template.id) does not support this equipment profile")
        }
        var days: [TrainingRules.DayType] = []
        for dayTypeId in template.weeklyStructure {
            guard let dayType = rules.dayTypes[dayTypeId] else {
                throw TrainingPlanError(field: "split", value: template.id, message: "template names unknown day type '\(dayTypeId)'")
            }
            days.append(dayType)
        }
        guard let band = rules.bands[experience], let limits = rules.sessionLimits[experience],
              let tags = rules.equipmentProfiles[equipment], let levels = rules.allowedLevels[experience]
        else {
            throw TrainingPlanError(field: "experience", value: experience.rawValue, message: "the training rules do not cover this experience level")
        }
        let injuries = Set(profile.injuries)
        for injury in injuries.sorted() where rules.injuryCuts[injury] == nil {
            throw TrainingPlanError(field: "injuries", value: injury.rawValue, message: "the selection rules have no local set cut for this injury")
        }

        self.inputs = TrainingWeek.Inputs(
            experience: experience, equipment: equipment, goal: goal, modifier: modifier.value.name,
            injuries: injuries.sorted())
        self.assumptions = assumptions
        self.requestedDays = profile.scheduleDays
        self.trainingDays = trainingDays
        self.recoveryDays = profile.scheduleDays - trainingDays
        self.split = split
        self.template = template
        self.days = days
        self.band = band
        self.modifier = modifier
        let screens = rules.safetyScreens.applying(to: profile)
        var capped = limits
        if let cap = screens.compactMap(\.maxMinutes).min(), cap < limits.value.maxMinutes {
            capped.value.maxMinutes = cap
        }
        self.limits = capped
        self.excludedFlags = screens.reduce(into: Set<String>()) { $0.formUnion($1.excludeFlags) }
        self.minRIR = screens.compactMap(\.minRIR).max()
        self.cautions = screens.map(\.caution)
        self.equipmentTags = tags
        self.allowedLevels = levels
        self.injuries = injuries
        let muscleTargets = Self.targets(
            rules: rules, band: band, modifier: modifier, injuries: injuries.sorted(), experience: experience, goal: goal)
        self.muscleTargets = muscleTargets
        self.targetsById = index.muscles.prefix(index.trackedCount).map {
            muscleTargets[$0] ?? MuscleTarget(band: 0...0, target: 0, injuryAdjustment: nil, sources: [])
        }
        (self.safeCandidates, self.candidatesIgnoringInjuries) = Self.pools(
            catalog: catalog, index: index, tags: tags, levels: levels, injuries: injuries, excludedFlags: excludedFlags)
    }

    /// Whether the person can do this exercise at all: equipment, level and injuries.
    func isAvailable(_ exercise: Exercise) -> Bool {
        equipmentTags.isSuperset(of: exercise.equipment) && allowedLevels.contains(exercise.level)
            && exercise.contraindicated.isDisjoint(with: injuries) && exercise.flags.isDisjoint(with: excludedFlags)
    }

    private static func targets(
        rules: TrainingRules, band: TrainingRules.Decided<ClosedRange<Int>>,
        modifier: TrainingRules.Decided<TrainingRules.GoalModifier>, injuries: [Profile.Injury],
        experience: Profile.Experience, goal: String
    ) -> [String: MuscleTarget] {
        let factor = modifier.value.setFactor
        let applying = rules.muscleAdjustments.filter { $0.value.applies(experience: experience, goal: goal) }
        var result: [String: MuscleTarget] = [:]
        for muscle in rules.trackedMuscles {
            // The muscle's own lines shift the experience band (never below one set) before the
            // goal's factor scales it, as the base band is scaled.
            let own = applying.filter { $0.value.muscle == muscle }
            let added = own.reduce(0) { $0 + $1.value.addSets }
            let baseLow = own.isEmpty ? band.value.lowerBound : max(1, band.value.lowerBound + added)
            let baseHigh = max(baseLow, band.value.upperBound + added)
            var low = (Double(baseLow) * factor).saturatingInt()
            var high = max(low, (Double(baseHigh) * factor).saturatingInt())
            var sources = [band.source] + own.map(\.source) + [modifier.source]
            var adjustments: [String] = []
            for injury in injuries {
                guard let cut = rules.injuryCuts[injury], cut.value.muscles.contains(muscle) else { continue }
                let keep = 1 - cut.value.cut
                low = max(1, (Double(low) * keep).saturatingInt())
                high = max(low, (Double(high) * keep).saturatingInt())
                sources.append(cut.source)
                adjustments.append("\(injury.rawValue) −\((cut.value.cut * 100).saturatingInt())%")
            }
            let target = low + (Double(high - low) * rules.targetPosition).saturatingInt()
            result[muscle] = MuscleTarget(
                band: low...high, target: target,
                injuryAdjustment: adjustments.isEmpty ? nil : adjustments.joined(separator: ", "), sources: sources)
        }
        return result
    }

    private static func pools(
        catalog: ExerciseCatalog, index: CatalogIndex, tags: Set<String>, levels: Set<Exercise.Level>,
        injuries: Set<Profile.Injury>, excludedFlags: Set<String>
    ) -> (safe: [[Int]], ignoringInjuries: [[Int]]) {
        var safe = Array(repeating: [Int](), count: index.muscles.count)
        var all = safe
        for position in catalog.exercises.indices where catalog.exercises[position].kind == .strength {
            guard tags.isSuperset(of: catalog.exercises[position].equipment), levels.contains(catalog.exercises[position].level),
                  catalog.exercises[position].flags.isDisjoint(with: excludedFlags) else { continue }
            let isSafe = injuries.isEmpty || catalog.exercises[position].contraindicated.isDisjoint(with: injuries)
            for muscle in index.facts[position].muscles {
                all[muscle].append(position)
                if isSafe { safe[muscle].append(position) }
            }
        }
        return (safe, all)
    }
}
