package import Foundation
import RegimenCoaching
import RegimenLanguage
import RegimenRules

// What the `regimen` commands need beside the public API, so that they read their inputs and
// print their reports through the engine instead of loading the rules themselves.
extension RegimenEngine {
    /// The engine over `--rules DIR` and `--catalogs DIR` as the `regimen` command resolves
    /// them: relative to `currentDirectory` (diagnostics name files relative to it), a folder
    /// holding `rules/` and `catalogs/` accepted for `rules`, and the repository's own folders
    /// when not given (searched upwards from `currentDirectory`, then from `executable`).
    /// - Throws: ``RegimenError/Code/option`` when a folder does not exist or none is found,
    ///   ``RegimenError/Code/rules`` with every problem when the files do not load.
    package convenience init(rules: String?, catalogs: String?, currentDirectory: URL, executable: URL?) throws(RegimenError) {
        switch RuleSources.locate(rules: rules, catalogs: catalogs, currentDirectory: currentDirectory, executable: executable) {
        case .success(let sources): try self.init(sources: sources)
        case .failure(let error): throw .option(error.description)
        }
    }

    /// A profile file read as `regimen plan PROFILE` reads it: within the input-file limits,
    /// every problem naming its field, line and column in `displayPath`.
    package func profile(contentsOf url: URL, displayPath: String) throws(RegimenError) -> Profile {
        do {
            return try planner.nutrition.profileDecoder.decode(contentsOf: url, displayPath: displayPath)
        } catch {
            throw .profile(error.problems)
        }
    }

    /// The text of an input file (a plan, check-ins, a log, a tree) within the input-file limits
    /// the engine reads every input by (size, UTF-8).
    /// - Throws: ``RegimenError/Code/request`` with each problem, naming `displayPath`.
    package static func inputText(contentsOf url: URL, displayPath: String) throws(RegimenError) -> String {
        do {
            return try InputFile.read(url, displayPath: displayPath)
        } catch {
            throw .request(error.diagnostics, input: displayPath)
        }
    }

    /// The catalog's name for an ingredient id, for reports people read.
    package func ingredientName(_ id: String) -> String? {
        planner.nutrition.catalog.ingredient(id)?.name
    }

    /// The known name closest to a misspelt `name` (`did you mean …?`), as the rules' own
    /// diagnostics suggest one; `nil` when none is close.
    package static func closestName(to name: String, among known: [String]) -> String? {
        Suggestions.closest(name, known)
    }

    /// The estimated one-rep max for `reps` reps at `load` kg, by `one_rep_max` of
    /// rules/indexes.yaml (`regimen one-rep-max`).
    /// - Throws: ``RegimenError/Code/evaluation`` when the rule's formula fails.
    package func oneRepMax(load: Double, reps: Int) throws(RegimenError) -> Double {
        do {
            return try IndexCalculator(rules: planner.nutrition).oneRepMax(load: load, reps: reps)
        } catch {
            throw .evaluationFailed(error)
        }
    }
}

// A plan document — what `regimen plan --format json` or `regimen adapt` printed — read back and
// shown as the week a person follows. It needs no rules (the document holds the plan), so these
// are the engine type's, not an engine's.
extension RegimenEngine {
    /// The plan in `text` when the text is a plan document (JSON or YAML) or adapt's response
    /// (its `patched_plan`), `nil` when it is anything else (a profile) or does not parse.
    package static func planDocument(text: String, name: String) -> Value? {
        guard let document = YAMLReader.read(text, file: name).document?.value(), PlanDocumentText.isPlan(document) else { return nil }
        return PlanDocumentText.plan(in: document)
    }

    /// A plan document as text: each day's blocks, the weekly sets, the day's calories and
    /// macros, and the adaptations in effect with their ends.
    package static func planText(_ document: Value) -> String {
        PlanDocumentText.render(document)
    }
}
