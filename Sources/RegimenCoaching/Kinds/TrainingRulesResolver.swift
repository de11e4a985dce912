import RegimenLanguage
import RegimenRules

/// Puts the training rule files and the exercise catalog together: resolves every decision table
/// over the inputs the planner can give it and checks every reference across files.
struct TrainingRulesResolver {
    let ruleSet: RuleSet
    let context: DecodingContext

    /// The files the training planner reads: one of each rule kind and every exercise catalog.
    struct Files {
        var splits: TrainingSplitsFile
        var templates: PlanTemplatesFile
        var volume: TrainingVolumeFile
        var goals: TrainingGoalsFile
        var session: TrainingSessionLimitsFile
        var selection: TrainingSelectionFile
        var compact: TrainingCompactFile
        var recovery: TrainingRecoveryFile
        var catalogs: [ExerciseCatalogFile]
    }

    /// Takes every file the planner reads before looking at any, so that every missing (or
    /// doubled) kind is noted at once; what it takes is also the list of kinds the planner
    /// registers (``TrainingRules/fileKinds``).
    static func take(_ required: inout RequiredRuleFiles) -> Files? {
        let splits = required.takeOnly(TrainingSplitsFile.self)
        let templates = required.takeOnly(PlanTemplatesFile.self)
        let volume = required.takeOnly(TrainingVolumeFile.self)
        let goals = required.takeOnly(TrainingGoalsFile.self)
        let session = required.takeOnly(TrainingSessionLimitsFile.self)
        let selection = required.takeOnly(TrainingSelectionFile.self)
        let compact = required.takeOnly(TrainingCompactFile.self)
        let recovery = required.takeOnly(TrainingRecoveryFile.self)
        let catalogs = required.takeAll(ExerciseCatalogFile.self, hint: "catalogs/exercise-catalog.yaml")
        guard let splits, let templates, let volume, let goals, let session, let selection, let compact, let recovery, !catalogs.isEmpty
        else { return nil }
        return Files(
            splits: splits, templates: templates, volume: volume, goals: goals, session: session, selection: selection, compact: compact,
            recovery: recovery, catalogs: catalogs)
    }

    /// The resolved rules and catalog, or `nil` with every problem reported to `context`.
    func resolve() -> (TrainingRules, ExerciseCatalog)? {
        var required = RequiredRuleFiles(ruleSet)
        guard let files = Self.take(&required) else {
            context.report(contentsOf: required.error(neededBy: "the training planner").diagnostics)
            return nil
        }
        let (splits, templates, volume, goals) = (files.splits, files.templates, files.volume, files.goals)
        let (session, selection, compact, recovery) = (files.session, files.selection, files.compact, files.recovery)
        let catalogFiles = files.catalogs
        let catalog = ExerciseCatalog(catalogFiles.flatMap(\.exercises))
        let locations = catalogFiles.reduce(into: [String: SourceLocation]()) { $0.merge($1.locations) { first, _ in first } }
        let errorsBefore = context.diagnostics.filter { $0.severity == .error }.count
        let tracked = Set(volume.trackedMuscles)
        let experiences = Profile.Experience.allCases

        // Splits and templates.
        let dayTypes = Dictionary(templates.dayTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let templateById = Dictionary(templates.templates.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let days = Array(1...splits.maxTrainingDays)
        let splitRows = splits.splitByDays.resolve(
            over: days.map { [TrainingVariables.days.name: .int(Int64($0))] }, describe: { "days == \($0[TrainingVariables.days.name].map(Self.text) ?? "?")" },
            context: context)
        var splitsByDays: [Int: TrainingRules.Decided<TrainingRules.SplitChoice>] = [:]
        for (day, resolved) in zip(days, splitRows) {
            guard let (choice, source) = resolved else { continue }
            for id in choice.allowed {
                guard let location = source.location,
                      context.checkReference(id, at: location, path: DecodingPath(subject: "training_splits.split_by_days"), what: "plan template", known: Set(templateById.keys)),
                      let template = templateById[id] else { continue }
                if template.weeklyStructure.count != day {
                    context.error("rules.template-days", "training_splits.split_by_days: template '\(id)' has \(template.weeklyStructure.count) day(s) but the row is for days == \(day)", at: location)
                }
            }
            splitsByDays[day] = .init(choice, source: RuleReference(rule: source.rule, location: source.location, summary: "\(source.summary) → \(choice.defaultTemplate)"))
        }
        for template in templates.templates {
            let location = templates.locations[template.id] ?? templates.locations.values.first
            for id in template.weeklyStructure {
                if let location {
                    context.checkReference(id, at: context.location(of: id, under: "weekly_structure", in: location) ?? location,
                                           path: DecodingPath(subject: "template '\(template.id)'").appending(key: "weekly_structure"), what: "day type", known: Set(dayTypes.keys))
                }
            }
        }
        for dayType in templates.dayTypes {
            let dayLocation = templates.locations["day:\(dayType.id)"]
            for muscle in dayType.muscles where !tracked.contains(muscle) {
                context.error(SchemaVocabulary.unknownWord,
                              "day type '\(dayType.id)': muscle '\(muscle)' is not in training_volume.tracked_muscles\(Suggestion.clause(for: muscle, among: tracked.sorted()))",
                              at: context.location(of: muscle, under: "muscles", in: dayLocation))
            }
            // A role or preference naming a pattern no exercise has would silently match nothing.
            let patterns = Set(catalog.exercises.map(\.pattern))
            for (key, map) in [("roles", dayType.roles), ("prefer_patterns", dayType.preferredPatterns)] {
                for (muscle, names) in map.sorted(by: { $0.key < $1.key }) {
                    if !dayType.muscles.contains(muscle) {
                        context.error("rules.unknown-reference",
                                      "day type '\(dayType.id)': \(key) names '\(muscle)', which the day does not train\(Suggestion.clause(for: muscle, among: dayType.muscles))",
                                      at: context.location(of: muscle, under: key, in: dayLocation))
                    }
                    for name in names where !patterns.contains(name) {
                        context.error("rules.unknown-reference",
                                      "day type '\(dayType.id)': \(key).\(muscle) names pattern '\(name)', which no catalog exercise has\(Suggestion.clause(for: name, among: patterns.sorted()))",
                                      at: context.location(of: name, under: "\(key).\(muscle)", in: dayLocation))
                    }
                }
            }
        }
        if let recoveryTemplate = templateById[splits.recoveryTemplate] {
            if !(recoveryTemplate.weeklyStructure.first.flatMap { dayTypes[$0] }?.isRecovery ?? false) {
                context.error("rules.recovery-template", "training_splits: recovery_template '\(splits.recoveryTemplate)' must name a template whose day type has 'recovery: true'", at: splits.maxTrainingDaysLocation)
            }
        } else {
            context.checkReference(splits.recoveryTemplate, at: splits.maxTrainingDaysLocation, path: DecodingPath(subject: "training_splits").appending(key: "recovery_template"), what: "plan template", known: Set(templateById.keys))
        }

        // Volume, limits and levels by experience.
        let byExperience = experiences.map { [TrainingVariables.experience.name: Value.string($0.rawValue)] }
        let describeExperience: ([String: Value]) -> String = { "experience == '\($0[TrainingVariables.experience.name].map(Self.text) ?? "?")'" }
        var bands: [Profile.Experience: TrainingRules.Decided<ClosedRange<Int>>] = [:]
        var limits: [Profile.Experience: TrainingRules.Decided<TrainingRules.SessionLimits>] = [:]
        var levels: [Profile.Experience: Set<Exercise.Level>] = [:]
        let bandRows = volume.bands.resolve(over: byExperience, describe: describeExperience, context: context)
        let limitRows = session.limits.resolve(over: byExperience, describe: describeExperience, context: context)
        let levelRows = selection.levels.resolve(over: byExperience, describe: describeExperience, context: context)
        for (index, experience) in experiences.enumerated() {
            if let (band, source) = bandRows[index] {
                bands[experience] = .init(band, source: RuleReference(rule: source.rule, location: source.location, summary: "\(source.summary) → \(band.lowerBound)-\(band.upperBound) sets/week"))
            }
            if let (limit, source) = limitRows[index] {
                limits[experience] = .init(limit, source: RuleReference(rule: source.rule, location: source.location, summary: "\(source.summary) → ≤\(limit.maxSetsPerSession) sets, ≤\(limit.maxSetsPerMusclePerSession) per muscle, ≤\(limit.maxMinutes) min"))
            }
            if let (allowed, _) = levelRows[index] { levels[experience] = allowed }
        }

        // Per-muscle adjustments: each line's goal must be a goal of the modifiers' domain.
        var adjustments: [TrainingRules.Decided<TrainingRules.MuscleAdjustment>] = []
        for (index, line) in volume.muscleAdjustments.enumerated() {
            let adjustment = line.adjustment
            if let goal = adjustment.goal,
               !context.checkReference(goal, at: line.goalLocation ?? line.location, path: DecodingPath(subject: "training_volume.muscle_adjustments[\(index)]").appending(key: "goal"), what: "goal (training_goals.goals)", known: Set(goals.goals)) {
                continue
            }
            let scope = [adjustment.experience?.rawValue, adjustment.goal].compactMap { $0 }.joined(separator: " ")
            let sign = adjustment.addSets >= 0 ? "+" : "−"
            adjustments.append(.init(adjustment, source: RuleReference(
                rule: "training_volume.muscle_adjustments[\(index)]", location: line.location,
                summary: "\(scope.isEmpty ? "" : scope + " ")\(adjustment.muscle) \(sign)\(abs(adjustment.addSets)) sets/week")))
        }

        // Goals.
        var modifiers: [String: TrainingRules.Decided<TrainingRules.GoalModifier>] = [:]
        let goalRows = goals.modifiers.resolve(
            over: goals.goals.map { [TrainingVariables.goal.name: .string($0)] }, describe: { "goal == '\($0[TrainingVariables.goal.name].map(Self.text) ?? "?")'" },
            context: context)
        for (goal, resolved) in zip(goals.goals, goalRows) {
            guard let (modifier, source) = resolved else { continue }
            let summary = "\(source.summary) → \(modifier.name), sets ×\(RangeText.number(modifier.setFactor))"
            modifiers[goal] = .init(modifier, source: RuleReference(rule: source.rule, location: source.location, summary: summary))
            for id in modifier.finisherOptions {
                checkExercise(id, kinds: [.conditioning], catalog: catalog, at: context.location(of: id, under: "finisher", in: source.location),
                              subject: "training_goals.modifiers finisher")
            }
        }
        if !goals.goals.contains(goals.defaultGoal) {
            context.error("rules.unknown-reference",
                          "training_goals: default_goal '\(goals.defaultGoal)' is not in the modifiers' domain\(Suggestion.clause(for: goals.defaultGoal, among: goals.goals))",
                          at: context.location(of: goals.defaultGoal, under: "default_goal", in: goals.entry) ?? goals.modifiers.location)
        }
        // The domain names rules/goals.yaml's goals: a misspelt one is an error at the word (the
        // table then also has no row for it).
        if let known = ruleSet.vocabulary("goal") {
            for goal in goals.goals where !known.contains(goal) {
                context.error("rules.unknown-reference",
                              "training_goals.modifiers.domain: '\(goal)' is not a goal id in rules/goals.yaml\(Suggestion.clause(for: goal, among: known.sorted()))",
                              at: context.location(of: goal, under: "modifiers.domain", in: goals.entry) ?? goals.modifiers.location)
            }
        }

        // Rest by modifier and movement.
        let modifierNames = Array(Set(modifiers.values.map(\.value.name))).sorted()
        var rest: [String: [Exercise.Movement: TrainingRules.Decided<Int>]] = [:]
        let restInputs = modifierNames.flatMap { name in
            Exercise.Movement.allCases.map { [TrainingVariables.modifier.name: Value.string(name), TrainingVariables.movement.name: .string($0.rawValue)] }
        }
        let restRows = session.rest.resolve(
            over: restInputs,
            describe: { "modifier == '\($0["modifier"].map(Self.text) ?? "?")' && movement == '\($0["movement"].map(Self.text) ?? "?")'" },
            context: context)
        for (input, resolved) in zip(restInputs, restRows) {
            guard let (seconds, source) = resolved, let name = input["modifier"].map(Self.text),
                  let movement = input["movement"].map(Self.text).flatMap(Exercise.Movement.init(rawValue:)) else { continue }
            rest[name, default: [:]][movement] = .init(seconds, source: RuleReference(rule: source.rule, location: source.location, summary: "\(source.summary) → rest \(seconds)s"))
        }

        // Selection and the catalog's vocabulary.
        var cuts: [Profile.Injury: TrainingRules.Decided<TrainingRules.InjuryCut>] = [:]
        for (injury, (cut, location)) in selection.injuryCuts {
            for muscle in cut.muscles where !tracked.contains(muscle) {
                context.error(SchemaVocabulary.unknownWord,
                              "injury_set_cuts.\(injury.rawValue): muscle '\(muscle)' is not tracked\(Suggestion.clause(for: muscle, among: tracked.sorted()))",
                              at: context.location(of: muscle, under: "muscles", in: location))
            }
            cuts[injury] = .init(cut, source: RuleReference(
                rule: TrainingSelectionFile.injurySetCutsSection.id(injury.rawValue), location: location,
                summary: "\(cut.muscles.joined(separator: ", ")) −\((cut.cut * 100).saturatingInt())% sets"))
        }
        let knownTags = selection.equipmentProfiles.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let countedElsewhere = SchemaVocabulary.untrackedExerciseMuscles
        for exercise in catalog.exercises {
            let location = locations[exercise.id]
            let muscles = exercise.muscles.map { ($0, "muscles") } + exercise.secondaryMuscles.map { ($0, "secondary_muscles") }
            for (muscle, key) in muscles where !tracked.contains(muscle) && !countedElsewhere.contains(muscle) {
                context.error(SchemaVocabulary.unknownWord,
                              "exercise '\(exercise.id)': muscle '\(muscle)' is not in training_volume.tracked_muscles\(Suggestion.clause(for: muscle, among: (tracked.union(countedElsewhere)).sorted()))",
                              at: context.location(of: muscle, under: key, in: location))
            }
            for tag in exercise.equipment where !knownTags.contains(tag) {
                context.error(SchemaVocabulary.unknownWord,
                              "exercise '\(exercise.id)': equipment '\(tag)' is in no equipment profile of rules/training-selection.yaml\(Suggestion.clause(for: tag, among: knownTags.sorted()))",
                              at: context.location(of: tag, under: "equipment", in: location))
            }
        }
        checkExerciseChoice(selection.exerciseChoice, tracked: tracked, tags: knownTags, patterns: Set(catalog.exercises.map(\.pattern)))
        for block in recovery.blocks {
            for id in block.options {
                checkExercise(id, kinds: [.conditioning, .mobility], catalog: catalog, at: context.location(of: id, under: "options", in: recovery.location),
                              subject: "training_recovery.blocks")
            }
        }

        let errorsAfter = context.diagnostics.filter { $0.severity == .error }.count
        guard errorsAfter == errorsBefore, bands.count == experiences.count, limits.count == experiences.count,
              levels.count == experiences.count, splitsByDays.count == days.count, !modifiers.isEmpty else { return nil }

        let splitsPath = splits.maxTrainingDaysLocation
        var rules = TrainingRules(
            maxTrainingDays: .init(splits.maxTrainingDays, source: RuleReference(
                rule: "training_splits.max_training_days", location: splitsPath,
                summary: "more than \(splits.maxTrainingDays) days → \(splits.maxTrainingDays) training + active recovery")),
            recoveryTemplate: templateById[splits.recoveryTemplate]?.weeklyStructure.first ?? splits.recoveryTemplate,
            splitsByDays: splitsByDays, templates: templateById, dayTypes: dayTypes,
            trackedMuscles: volume.trackedMuscles,
            setCredit: .init(volume.setCredit, source: RuleReference(
                rule: "training_volume.set_credit", location: volume.creditLocation,
                summary: "a set counts \(RangeText.number(volume.setCredit.direct)) for a primary muscle, \(RangeText.number(volume.setCredit.indirect)) for a secondary one")),
            defaultExperience: volume.defaultExperience, targetPosition: volume.targetPosition, bands: bands,
            defaultGoal: goals.defaultGoal, goalModifiers: modifiers, sessionLimits: limits,
            warmupSeconds: session.warmupSeconds, transitionSeconds: session.transitionSeconds, restSeconds: rest,
            equipmentProfiles: selection.equipmentProfiles, defaultEquipment: selection.defaultEquipment,
            allowedLevels: levels, maxExercisesPerMusclePerSession: selection.maxExercisesPerMusclePerSession,
            minSetsPerExercise: selection.minSetsPerExercise, injuryCuts: cuts,
            selectionPolicy: RuleReference(
                rule: "training_selection", location: selection.location,
                summary: "equipment and injury filter, compounds first, variety across the week"),
            compact: .init(compact.rules, source: RuleReference(
                rule: "training_compact", location: compact.location,
                summary: "≤\(compact.rules.maxMinutes) min, \(compact.rules.rounds) rounds of supersets/giant sets of superset-safe moves")),
            recoveryNote: recovery.note, recoveryBlocks: recovery.blocks,
            recoverySource: RuleReference(rule: "training_recovery", location: recovery.location, summary: "active recovery: zone 2 and mobility"))
        rules.safetyScreens = selection.safetyScreens
        rules.muscleAdjustments = adjustments
        rules.exerciseChoice = selection.exerciseChoice
        return (rules, catalog)
    }

    /// The exercise-choice rules name tracked muscles, equipment tags and a goal: a misspelt one
    /// would silently match nothing. Each is an error at the word, with a suggestion.
    private func checkExerciseChoice(_ choice: ExerciseChoiceRules, tracked: Set<String>, tags: Set<String>, patterns: Set<String>) {
        let entry = choice.location
        // Muscles are another file's words (the schema lists them); equipment tags this file's own
        // (`equipment_profiles`), a reference within the file the schema leaves to the loader.
        let lists: [(key: String, words: Set<String>, known: Set<String>, what: String, id: String)] = [
            ("bodyweight_muscles", choice.bodyweightMuscles, tracked, "muscle (training_volume.tracked_muscles)", SchemaVocabulary.unknownWord),
            ("small_muscles", choice.smallMuscles, tracked, "muscle (training_volume.tracked_muscles)", SchemaVocabulary.unknownWord),
            ("balance.upper", choice.balance?.upper ?? [], tracked, "muscle (training_volume.tracked_muscles)", SchemaVocabulary.unknownWord),
            ("balance.lower", choice.balance?.lower ?? [], tracked, "muscle (training_volume.tracked_muscles)", SchemaVocabulary.unknownWord),
            ("bodyweight_tags", choice.bodyweightTags, tags, "equipment tag (equipment_profiles)", "rules.unknown-reference"),
        ]
        for list in lists {
            for word in list.words.sorted() where !list.known.contains(word) {
                context.error(list.id, "exercise_choice.\(list.key): unknown \(list.what) '\(word)'\(Suggestion.clause(for: word, among: list.known.sorted()))",
                              at: context.location(of: word, under: list.key, in: entry))
            }
        }
        // A strength pattern's muscle that is not tracked, or a pattern no exercise has, would
        // never give its weekly minimum: the strength goal's plans would silently lose it.
        for (pattern, muscle) in choice.strengthPatterns?.patterns ?? [] {
            if !tracked.contains(muscle) {
                context.error(SchemaVocabulary.unknownWord,
                              "exercise_choice.strength_patterns.patterns.\(pattern): unknown muscle (training_volume.tracked_muscles) '\(muscle)'\(Suggestion.clause(for: muscle, among: tracked.sorted()))",
                              at: context.location(of: muscle, under: "strength_patterns.patterns.*", in: entry))
            }
            if !patterns.contains(pattern) {
                context.error("rules.unknown-reference",
                              "exercise_choice.strength_patterns.patterns: '\(pattern)' is a movement pattern no catalog exercise has\(Suggestion.clause(for: pattern, among: patterns.sorted()))",
                              at: context.location(of: pattern, under: "strength_patterns.patterns", in: entry))
            }
        }
        if let goal = choice.strengthPatterns?.goal, let goals = ruleSet.vocabulary("goal"), !goals.contains(goal) {
            context.error("rules.unknown-reference", "exercise_choice.strength_patterns.goal: '\(goal)' is not a goal id in rules/goals.yaml\(Suggestion.clause(for: goal, among: goals.sorted()))",
                          at: context.location(of: goal, under: "strength_patterns.goal", in: entry))
        }
    }

    private func checkExercise(_ id: String, kinds: Set<Exercise.Kind>, catalog: ExerciseCatalog, at location: SourceLocation?, subject: String) {
        guard let exercise = catalog[id] else {
            context.error(SchemaVocabulary.unknownWord, "\(subject): unknown exercise '\(id)'\(Suggestion.clause(for: id, among: catalog.exercises.map(\.id)))", at: location)
            return
        }
        if !kinds.contains(exercise.kind) {
            context.error("rules.wrong-kind", "\(subject): exercise '\(id)' is \(exercise.kind.rawValue), expected \(kinds.map(\.rawValue).sorted().joined(separator: " or "))", at: location)
        }
    }

    private static func text(_ value: Value) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: "\(value)"
        }
    }
}

extension TrainingRules {
    /// The rule-file kinds the training planner reads, the ones the resolver takes; register them
    /// with the rule-set loader.
    static let fileKinds: [any RuleFileKind.Type] = RequiredRuleFiles.kinds { required in
        _ = TrainingRulesResolver.take(&required)
    }

    /// The kinds of `rules/training-*.yaml`: the planner's kinds but its two catalogs.
    static let ruleKinds: [any RuleFileKind.Type] = fileKinds.filter { kind in
        kind != ExerciseCatalogFile.self && kind != PlanTemplatesFile.self
    }
}

extension TrainingPlanner {
    /// A planner over a loaded rule set.
    /// - Throws: ``DiagnosticsError`` when the training files are missing, inconsistent or leave
    ///   a gap in a table.
    init(ruleSet: RuleSet) throws(DiagnosticsError) {
        let context = DecodingContext()
        guard let (rules, catalog) = TrainingRulesResolver(ruleSet: ruleSet, context: context).resolve() else {
            throw DiagnosticsError(context.diagnostics.filter { $0.severity == .error })
        }
        self.init(rules: rules, catalog: catalog)
    }
}
