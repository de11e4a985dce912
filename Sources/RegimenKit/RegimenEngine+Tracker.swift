public import Foundation
import RegimenLanguage
import RegimenCoaching
import RegimenRules
import RegimenTracking

extension RegimenEngine {
    /// The tracker's rules, or the problems that kept them from loading.
    func trackingRules() throws(RegimenError) -> TrackingRules {
        switch tracking {
        case .success(let rules): return rules
        case .failure(let error): throw .rules(error.diagnostics)
        }
    }

    /// Reads a workout tracker tree (JSON or YAML): programs nesting weeks, workouts, exercises
    /// and sets under their plural names, timestamps as `{"$timestamp": "…"}`.
    /// - Throws: ``RegimenError/Code/request`` with every syntax or structure problem, located.
    public func trackerTree(from data: Data, name: String = "<tree>") throws(RegimenError) -> TrackerTree {
        let document = try RequestDocument.value(data, name: name)
        let (tree, problems) = TrackerTree.read(document)
        guard problems.isEmpty else { throw .request(problems.map(\.diagnostic), input: name) }
        return tree
    }

    /// Reads a tracker tree exported as CSV (by the tree's `csv()`), typed by the validation rules.
    /// - Throws: ``RegimenError/Code/request`` naming the line at fault.
    public func trackerTree(fromCSV text: String, name: String = "<csv>") throws(RegimenError) -> TrackerTree {
        let rules = try trackingRules()
        do {
            return try TrackerCSV.import(text, policy: rules.validation)
        } catch let error as CSVError {
            throw .request([.error("csv.input", error.message, at: SourceLocation(file: name, line: error.line, column: 1))], input: name)
        } catch {
            throw .request([.error("csv.input", "\(error)", at: nil)], input: name)
        }
    }

    /// Checks every document's fields and the rules across documents (unique program names,
    /// unique week order, the set fields of an exercise's type), as `regimen validate` does.
    /// Its `json()` is `regimen validate --format json`.
    public func validate(_ tree: TrackerTree) throws(RegimenError) -> TrackerValidationReport {
        TrackerValidationReport(tree: tree, policy: try trackingRules().validation)
    }

    /// Workout count, exercise frequency, weekly volume and personal records.
    /// Its `json()` is `regimen analytics`.
    /// - Throws: ``RegimenError/Code/evaluation`` when an analytics rule fails.
    public func analytics(_ tree: TrackerTree) throws(RegimenError) -> TrackerAnalytics {
        let rules = try trackingRules()
        do {
            return try TrackerAnalytics(tree: tree, policy: rules.analytics)
        } catch {
            throw .evaluation(message: "\(error)", location: nil)
        }
    }

    /// A plan's phases and each week's intensity, RPE and protocol (`rules/periodization.yaml`);
    /// with `ramp`, the training weeks' intensity runs from its start to its end.
    /// Its `json()` is `regimen periodize --weeks N --goal G --format json`.
    /// - Throws: ``RegimenError/Code/option`` for a goal, length or ramp the rules do not allow.
    public func periodize(weeks: Int, goal: String, ramp: (start: Double, end: Double)? = nil) throws(RegimenError) -> PeriodizedPlan {
        let rules = try trackingRules()
        do {
            // The deload weeks are the one deload clock's, which adapt reads too.
            return try rules.periodization.plan(weeks: weeks, goal: goal, ramp: ramp, clock: adaptation.readiness.deloadClock)
        } catch let error as PeriodizationError {
            throw .option(error.message, field: error.parameter)
        } catch {
            throw .option("\(error)")
        }
    }
}

extension TrackerTree: SeedContract {
    /// The tree as `regimen export --to json` prints it: ids and timestamps kept, so it reads back.
    public var contractValue: Value { value }

    /// The tree as `regimen export --to csv` writes it; ``RegimenEngine/trackerTree(fromCSV:name:)``
    /// reads it back.
    public func csv() -> String { TrackerCSV.export(self) }
}

extension TrackerValidationReport: SeedContract {
    /// `{documents, violations: [{path, field, severity, message, scope}]}`.
    public var contractValue: Value { value }
}

extension TrackerAnalytics: SeedContract {
    /// Counts, frequencies, weekly volume and records, numbers rounded as people write them.
    public var contractValue: Value { value.roundedForPeople }
}

extension PeriodizedPlan: SeedContract {
    /// Phases and the week-by-week schedule, numbers rounded as people write them.
    public var contractValue: Value { value.roundedForPeople }
}

extension RegimenEngine {
    /// A student's progress on a workout a trainer sent: completed and total days, percent
    /// complete and streaks, from a completion log (JSON or YAML: `{workoutId, studentId,
    /// durationWeeks?, startDate?, completedDays, today?}`). The rules are those of
    /// `rules/student-progress.yaml` (docs/requirements.md#student-progress).
    /// - Parameters:
    ///   - log: the completion log, JSON or YAML.
    ///   - name: names the log in problems.
    ///   - today: the day to compute on (1 = the start date), overriding the log's `today`.
    ///   - present: gives today from the log's `startDate` when neither names it.
    /// Its `json()` is `regimen progress --format json`.
    /// - Throws: ``RegimenError/Code/request`` with every problem of the log.
    public func progress(_ log: Data, name: String = "<log>", today: Int? = nil, present: Timestamp) throws(RegimenError) -> StudentProgress {
        let rules = try trackingRules()
        let document = try RequestDocument.node(log, name: name)
        // Each problem names the log's key it is about and is placed there (a missing key at
        // the log); one about the whole log is placed at the log.
        let fields = RequestFieldLocation(root: document, firstIndex: 0)
        let completion: CompletionLog
        switch CompletionLog.read(document.value()) {
        case .success(let read): completion = read
        case .failure(let error): throw .request(error.diagnostics.map(fields.locate), input: name)
        }
        do {
            return try rules.progress.progress(of: completion.asOf(today: today, present: present))
        } catch let error as ProgressError {
            throw .request(error.diagnostics.map(fields.locate), input: name)
        } catch {
            throw .request([.error("progress.input", "\(error)", at: nil)], input: name)
        }
    }
}

extension StudentProgress: SeedContract {
    /// The seed's progress response with `studentId`, numbers rounded as people write them.
    public var contractValue: Value { value.roundedForPeople }
}

extension RegimenEngine {
    /// The rules' calorie-burn formula, or the one named `formula`; an unknown formula is an
    /// option error naming `formulaField` when given.
    func burnCalculator(formula: String?, formulaField: String? = nil) throws(RegimenError) -> CalorieBurnCalculator {
        let rules = try trackingRules()
        var burn = rules.calorieBurn
        if let formula {
            guard let chosen = rules.calorieBurn.using(formula: formula) else {
                throw .option("unknown formula '\(formula)'; the rules offer \(rules.calorieBurn.formulas.keys.sorted().joined(separator: ", "))",
                              field: formulaField)
            }
            burn = chosen
        }
        return CalorieBurnCalculator(rules: burn, catalog: rules.activities)
    }

    /// Calories an activity of `catalogs/activity-catalog.yaml` burns, from its 2011 Compendium row for
    /// the intensity, by the rules' formula (ACSM unless `formula` names another of
    /// `rules/calorie-burn.yaml`; docs/requirements.md#calorie-burn). Its `json()` is
    /// `regimen burn --format json`.
    /// - Parameters:
    ///   - activity: an activity id of the catalog, such as `running`.
    ///   - minutes: the duration, 1–1440.
    ///   - intensity: `light`, `moderate` or `vigorous`.
    ///   - weightKg: body weight; the rules' default when `nil`.
    ///   - formula: a formula of `rules/calorie-burn.yaml` instead of its default.
    /// - Throws: ``RegimenError/Code/option`` for an unknown activity, intensity, duration or formula.
    public func burn(activity: String, minutes: Int, intensity: String, weightKg: Double? = nil, formula: String? = nil) throws(RegimenError) -> BurnResult {
        let calculator = try burnCalculator(formula: formula)
        do {
            return try calculator.burn(WorkoutEntry(activity: activity, minutes: minutes, intensity: intensity), weightKg: weightKg)
        } catch let error as BurnError {
            throw .option(error.problems.joined(separator: "; "))
        } catch {
            throw .option("\(error)")
        }
    }

    /// A food and workout log (JSON or YAML: `{weight_kg?, foods: [{name, calories, timestamp}],
    /// workouts: [{activity, minutes, intensity, timestamp}]}`) totalled per calendar day of
    /// `timeZone`: consumed, burned, net. Entries after `present` are rejected.
    /// Its `json()` is `regimen daily-log --format json`.
    /// - Parameters:
    ///   - log: the log, JSON or YAML.
    ///   - name: names the log in problems.
    ///   - present: the present, for rejecting future entries.
    ///   - timeZone: whose calendar days group the entries (UTC by default).
    ///   - formula: a formula of `rules/calorie-burn.yaml` instead of its default.
    /// - Throws: ``RegimenError/Code/request`` with every problem of the log.
    public func dailyLog(_ log: Data, name: String = "<log>", present: Timestamp, timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current,
                         formula: String? = nil) throws(RegimenError) -> DailyTotals {
        let calculator = DailyLogCalculator(calculator: try burnCalculator(formula: formula))
        let document = try RequestDocument.node(log, name: name)
        switch calculator.summarize(document.value(), now: present, timeZone: timeZone) {
        case .success(let days): return DailyTotals(days: days)
        case .failure(let errors):
            // Each problem names its entry (`foods[0]`, counted from 0) as its field and is placed
            // at that entry; a problem of the whole log is placed at the log.
            let fields = RequestFieldLocation(root: document, firstIndex: 0)
            throw .request(errors.problems.map { problem in
                fields.locate(Diagnostic(.error, id: "daily-log.input", problem.message, at: nil,
                                         field: problem.entry == LogProblem.wholeLog ? nil : problem.entry))
            }, input: name)
        }
    }
}

/// A log's totals per calendar day, oldest first.
public struct DailyTotals: SeedContract, Hashable {
    /// Each day with entries: consumed, burned and net calories and its workouts.
    public var days: [DailySummary]

    /// `[{date, consumed, burned, net, balance, workouts}]`, numbers rounded as people write them.
    public var contractValue: Value { .list(days.map(\.value)).roundedForPeople }
}

extension BurnResult: SeedContract {
    /// The activity, intensity, MET, minutes, weight, formula, kcal and Compendium row.
    public var contractValue: Value { value.roundedForPeople }
}

extension RegimenEngine {
    /// Deep-copies the program, week, workout or exercise `id` of `tree` under the same parent
    /// (`rules/tracker/tracker-duplication.yaml`), as `regimen duplicate` does: the source is validated
    /// first, copies of a unique name become "… (copy 2)", and the writes come in batches.
    /// Its `json()` is `regimen duplicate --format json`.
    /// - Parameters:
    ///   - level: what to copy.
    ///   - id: the id of the document to copy.
    ///   - tree: the user's tree.
    ///   - user: the signed-in user; the tree must be theirs (`nil`: a trusted caller).
    ///   - now: the time stamped on the copies and the audit entry.
    ///   - seed: seeds the new ids; derived from the source and `now` when `nil`.
    ///   - repair: copy a source with errors by leaving each invalid optional field out.
    /// - Throws: ``RegimenError/Code/request`` for a source that does not exist or cannot be
    ///   copied, ``RegimenError/Code/refused`` when the rules refuse the copy.
    public func duplicate(_ level: TrackerLevel, id: String, in tree: TrackerTree, user: String?, now: Timestamp,
                          seed: UInt64? = nil, repair: Bool = false) throws(RegimenError) -> DuplicationResult {
        let rules = try trackingRules()
        do {
            return try Duplicator(policy: rules.duplication, validation: rules.validation)
                .duplicate(level, id: id, in: tree, requestingUser: user, now: now, seed: seed, repair: repair)
        } catch let error as DuplicationError {
            // Another user's documents are refused; a missing, ambiguous or invalid source is the
            // caller's to fix, with the problem's own id (`duplicate.not-found`: 404 in the service).
            if error.code == .permissionDenied { throw .refused(error.description) }
            throw .request(error.diagnostics, input: nil)
        } catch {
            throw .refused("\(error)")
        }
    }
}

extension DuplicationResult: SeedContract {
    /// `{audit, idMap, batches, tree, repairs}`.
    public var contractValue: Value { value }
}

extension TrackerViolation {
    /// The violation as a diagnostic naming the document's path as its field (`<root>` for the
    /// tree itself), as `regimen validate` prints it.
    var diagnostic: Diagnostic {
        Diagnostic(severity, id: "tracker.invalid", message, at: nil, field: path.isEmpty ? "<root>" : path)
    }
}
