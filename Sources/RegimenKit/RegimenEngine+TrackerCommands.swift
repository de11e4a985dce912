import RegimenCoaching
import RegimenLanguage
package import RegimenTracking

// What the tracker commands need beside the public API: burn as typed on the command line, the
// activity library, a single workout's targets, the upload check and the exercise ranking.
extension RegimenEngine {
    /// `regimen burn`'s question as typed: any of the activity, minutes and intensity may be
    /// missing, and each problem is a diagnostic of its own.
    /// - Throws: ``RegimenError/Code/request`` with every problem of the entry,
    ///   ``RegimenError/Code/option`` naming the `formula` field for a formula the rules lack.
    package func burn(activity: String?, minutes: Int?, intensity: String?, weightKg: Double?, formula: String?) throws(RegimenError) -> BurnResult {
        let calculator = try burnCalculator(formula: formula, formulaField: "formula")
        do {
            return try calculator.burn(WorkoutEntry(activity: activity, minutes: minutes, intensity: intensity), weightKg: weightKg)
        } catch let error as BurnError {
            throw .request(error.diagnostics, input: nil)
        } catch {
            throw .option("\(error)")
        }
    }

    /// The activity categories of the catalog (`cardio`, `strength`, …), for ``activities(matching:category:)``.
    package static var activityCategories: [String] { ActivityCategory.allCases.map(\.rawValue) }

    /// The catalog's activities whose id or name contains `search` (every one when empty), of
    /// `category` (one of ``activityCategories``) when given; an unknown category matches none.
    package func activities(matching search: String, category: String?) throws(RegimenError) -> [Activity] {
        let rules = try trackingRules()
        guard let category else { return rules.activities.search(search) }
        guard let known = ActivityCategory(rawValue: category) else { return [] }
        return rules.activities.search(search, category: known)
    }

    /// The targets of a single workout at effort `effort` (rules/periodization.yaml): the
    /// effort level, the intensity its formula picks in the level's range, and the protocol row
    /// for that intensity.
    /// - Throws: ``RegimenError/Code/option`` naming the `effort` field for an effort the rules
    ///   lack, ``RegimenError/Code/evaluation`` when the formula fails.
    package func singleWorkout(effort: String) throws(RegimenError) -> (effort: PeriodizationRules.EffortLevel, intensity: Double, row: PeriodizationRules.ProtocolRow) {
        let rules = try trackingRules().periodization
        let target: (effort: PeriodizationRules.EffortLevel, intensity: Double, row: PeriodizationRules.ProtocolRow)?
        do {
            target = try rules.singleWorkout(effort: effort)
        } catch {
            throw .evaluation(message: "\(error)", location: nil)
        }
        guard let target else {
            throw .option("unknown effort '\(effort)'; expected one of \(rules.effortLevels.map(\.id).joined(separator: ", "))", field: "effort")
        }
        return target
    }

    /// What keeps a trainer's upload from being sent by the tracker's upload rules (a PDF only,
    /// within the size limit); empty when it may be sent.
    /// - Parameter leadingBytes: the file's first bytes, where a PDF's signature is.
    package func uploadProblems(fileName: String, contentType: String?, size: Int, leadingBytes: [UInt8]) throws(RegimenError) -> [String] {
        try trackingRules().progress.upload.problems(fileName: fileName, contentType: contentType, size: size, leadingBytes: leadingBytes)
    }

    /// `regimen select`'s ranking: the catalog's strength exercises training one of `muscles`
    /// (every one when empty), minus those `chosen`, ranked by the selection ranking of
    /// rules/periodization.yaml for a user whose library holds `library` and who emphasizes
    /// `emphasis`.
    /// - Throws: ``RegimenError/Code/option`` with a diagnostic per unknown exercise id or
    ///   muscle, its field the parameter (`library`, `chosen`, `muscle`, `emphasis`);
    ///   ``RegimenError/Code/evaluation`` when the score fails.
    package func rankExercises(muscles: [String], library: [String], emphasis: [String], chosen: [String]) throws(RegimenError) -> [RankedCandidate] {
        let exercises = planner.training.catalog.exercises
        let byId = Dictionary(exercises.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let known = Set(exercises.flatMap(\.muscles))
        var problems: [(field: String, message: String)] = []
        for (field, ids) in [("library", library), ("chosen", chosen)] {
            for id in ids where byId[id] == nil { problems.append((field, "unknown exercise '\(id)'")) }
        }
        for (field, names) in [("muscle", muscles), ("emphasis", emphasis)] {
            for name in names where !known.contains(name) {
                problems.append((field, "unknown muscle '\(name)'; expected one of \(known.sorted().joined(separator: ", "))"))
            }
        }
        guard problems.isEmpty else { throw .options(problems) }
        let rules = try trackingRules()
        func candidate(_ exercise: Exercise) -> RankingCandidate {
            RankingCandidate(id: exercise.id, muscles: exercise.muscles, pattern: exercise.pattern)
        }
        let chosenSet = Set(chosen)
        let pool = exercises.filter {
            $0.kind == .strength && !chosenSet.contains($0.id) && (muscles.isEmpty || $0.muscles.contains(where: muscles.contains))
        }
        do {
            return try rules.periodization.selection.rank(pool.map(candidate), library: Set(library), emphasis: Set(emphasis),
                                                          chosen: chosen.compactMap { byId[$0] }.map(candidate))
        } catch {
            throw .evaluation(message: "the selection score failed: \(error)", location: nil)
        }
    }
}
