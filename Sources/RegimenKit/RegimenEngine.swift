public import Foundation
import RegimenCoaching
import RegimenLanguage
package import RegimenRules
import RegimenTracking

/// Regimen's front door: the rules and catalogs, loaded once, answering every question the
/// `regimen` planner commands answer, with the same results.
///
/// Load one engine when the app starts and share it: it is immutable and `Sendable`, so any
/// number of tasks may call it at once.
///
/// ```swift
/// let engine = try RegimenEngine.bundled
/// let plan = try engine.generatePlan(Data(#"{"sex": "female", "schedule_days": 3}"#.utf8))
/// print(plan.json())   // the seed's generatePlan response
/// ```
public final class RegimenEngine: Sendable {
    /// Where the rules and catalogs were read from.
    let sources: RuleSources
    let planner: PlanGenerator
    let adaptation: AdaptationRuleSet
    /// The tracker's rules, loaded beside the planner's; a rules folder without them makes only
    /// the tracker functions fail.
    let tracking: Result<TrackingRules, DiagnosticsError>
    /// The words the loaded rules and catalogs define, for the schemas (``RegimenSchemas``).
    let schemaVocabularies: SchemaVocabularies

    /// The rule-file kinds the planner reads; files of the security and tracking modules under
    /// the same folders are skipped unread (`regimen check` validates them).
    static var plannerLoader: RuleSetLoader {
        RegimenRuleKinds.loader(for: RegimenRuleKinds.planner)
    }

    /// Loads the rules in `rules` and the catalogs in `catalogs`.
    ///
    /// `rules` may also be a folder holding `rules/` and `catalogs/`; without `catalogs`, a
    /// `catalogs/` folder inside or beside `rules` is used, as `regimen --rules DIR` does.
    /// Diagnostics and policy files are named by absolute path.
    /// - Throws: ``RegimenError/Code/rules`` with every problem in every file, or
    ///   ``RegimenError/Code/option`` when a folder does not exist.
    public convenience init(rules: URL, catalogs: URL? = nil) throws(RegimenError) {
        let root = URL(fileURLWithPath: "/")
        switch RuleSources.locate(rules: rules.standardizedFileURL.path, catalogs: catalogs?.standardizedFileURL.path,
                                  currentDirectory: root, executable: nil) {
        case .success(let located):
            try self.init(sources: RuleSources(rules: located.rules, catalogs: located.catalogs))
        case .failure(let error):
            throw .option(error.description)
        }
    }

    /// The repository's own `rules/` and `catalogs/`, found as the `regimen` command finds them:
    /// from the working directory upwards, then from the running executable upwards.
    /// Diagnostics are named relative to the working directory.
    /// - Throws: ``RegimenError/Code/option`` when no rules folder is found, or
    ///   ``RegimenError/Code/rules`` when the files do not load.
    /// Loaded on first use and shared from then on: every later access returns the same engine
    /// (or the same error) without reading the files again.
    public static var bundled: RegimenEngine {
        get throws(RegimenError) { try bundledOnce.get() }
    }

    /// ``bundled``'s one load, from the working directory and the executable at first use.
    private static let bundledOnce = Result { () throws(RegimenError) -> RegimenEngine in
        try bundled(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), executable: Bundle.main.executableURL)
    }

    /// ``bundled`` searching upwards from `directory` (then from `executable`, when given).
    public static func bundled(from directory: URL, executable: URL? = nil) throws(RegimenError) -> RegimenEngine {
        switch RuleSources.locate(rules: nil, catalogs: nil, currentDirectory: directory, executable: executable) {
        case .success(let sources): return try RegimenEngine(sources: sources)
        case .failure(let error): throw .option(error.description)
        }
    }

    /// Loads the planner's rule kinds from `sources`.
    package convenience init(sources: RuleSources) throws(RegimenError) {
        try self.init(sources: sources, replacing: [:], tracking: nil)
    }

    /// Loads the planner's rule kinds from `sources`, reading the texts of `replacing` (by display
    /// path) instead of those files; `tracking`, when given, is used instead of loading it.
    init(sources: RuleSources, replacing: [String: String], tracking: Result<TrackingRules, DiagnosticsError>?) throws(RegimenError) {
        let result = Self.plannerLoader.load(from: sources, replacing: replacing)
        do {
            let ruleSet = try result.get()
            self.planner = try PlanGenerator(ruleSet: ruleSet)
            self.adaptation = try AdaptationRuleSet(ruleSet)
            self.schemaVocabularies = SchemaVocabulary.vocabularies(of: ruleSet)
        } catch {
            throw .rules(error.diagnostics)
        }
        self.tracking = tracking ?? Result { () throws(DiagnosticsError) in try TrackingRules.load(from: sources) }
        self.sources = sources
    }

    /// The rules folder the engine was loaded from (`nil` for an engine built without one).
    public var rulesFolder: URL? { sources.rules }
    /// The catalogs folder the engine was loaded from, if any.
    public var catalogsFolder: URL? { sources.catalogs }

    /// The folder policies are named under (`rules/security/`).
    var securityDirectory: URL? { sources.rules?.appendingPathComponent("security") }
}

// MARK: - Profiles

extension RegimenEngine {
    /// Reads a profile (JSON or YAML) the way `regimen plan PROFILE` reads its file: every
    /// problem at once, each naming its field, line and column in `name`.
    /// - Throws: ``RegimenError/Code/profile``.
    public func profile(from data: Data, name: String = "<profile>") throws(RegimenError) -> Profile {
        let text: String
        do {
            text = try InputFile.checkedText(data, displayPath: name)
        } catch {
            throw .profile(error.diagnostics.map {
                ProfileProblem(field: "(file)", value: nil, allowed: "a readable UTF-8 file: \($0.message)", location: $0.location)
            })
        }
        return try profile(from: text, name: name)
    }

    /// Reads profile text (JSON or YAML); see ``profile(from:name:)-(Data,_)``.
    public func profile(from text: String, name: String = "<profile>") throws(RegimenError) -> Profile {
        do {
            return try planner.nutrition.profileDecoder.decode(text: text, file: name)
        } catch {
            throw .profile(error.problems)
        }
    }
}

// MARK: - The planner

extension RegimenEngine {
    /// The seed's `generatePlan` for a profile given as JSON or YAML.
    /// - Parameter profileJSON: the profile, as the seed's `generatePlan` request carries it.
    /// - Parameter split: a split the rules offer for the profile's days (`full_body_3`), or the
    ///   rules' choice when `nil`.
    /// - Throws: ``RegimenError`` naming the profile field, option or rule that stopped it.
    public func generatePlan(_ profileJSON: Data, split: String? = nil) throws(RegimenError) -> GeneratedPlan {
        try generatePlan(profile(from: profileJSON), split: split)
    }

    /// The seed's `generatePlan`: indexes, kcal and macros, ingredient options and a week of
    /// training. Its `json()` is `regimen plan --format json`.
    public func generatePlan(_ profile: Profile, split: String? = nil) throws(RegimenError) -> GeneratedPlan {
        do {
            return try planner.generatePlan(profile, options: TrainingPlanOptions(split: split))
        } catch {
            throw .planFailed(error)
        }
    }

    /// The seed's `recalculateIndexes`: BMR, TDEE, BMI, WHtR, FFMI, the accuracy meter and the
    /// next best input. Its `json()` is `regimen indexes --format json`.
    public func indexes(_ profile: Profile) throws(RegimenError) -> IndexReport {
        do {
            return try planner.nutrition.recalculateIndexes(profile)
        } catch {
            throw .evaluationFailed(error)
        }
    }

    /// Daily kcal and macros and every meal's ingredient options with grams.
    /// Its `json()` is `regimen nutrition --format json`.
    public func nutrition(_ profile: Profile) throws(RegimenError) -> NutritionPlan {
        do {
            return try planner.nutrition.planNutrition(profile)
        } catch {
            throw .evaluationFailed(error)
        }
    }

    /// What a profile change recomputes, by the auto-adjust matrix, with its reason per output.
    /// Its `json()` is `regimen diff --format json`.
    public func diff(old: Profile, new: Profile) throws(RegimenError) -> ProfileDiff {
        do {
            return try adaptation.diffProfiles(old: old, new: new, planner: planner)
        } catch {
            throw .planFailed(error)
        }
    }

    /// The safety-first supplements shortlist for `profile`'s goal, or for `goal` (a goal of
    /// `rules/goals.yaml` or a supplement goal of the catalog).
    /// Its `json()` is `regimen supplements --format json`.
    /// - Throws: ``RegimenError/Code/option`` for a goal neither file knows.
    public func supplements(for profile: Profile, goal: String? = nil) throws(RegimenError) -> SupplementAdvice {
        do {
            return try adaptation.adviseSupplements(for: profile, goal: goal, nutrition: planner.nutrition)
        } catch {
            throw .option(error.description)
        }
    }

    /// The seed's `adaptPlan`: readiness, logged sets and the weight trend patch the request's
    /// `current_plan`, with a change-log line per change. `current_plan` may be adapt's own
    /// response (its `patched_plan` is then the plan), so a result can be adapted again; running
    /// it again on its own result changes nothing. Its `json()` is `regimen adapt REQUEST --format json`.
    /// - Throws: ``RegimenError/Code/request`` listing every problem of the plan or the check-ins.
    public func adaptPlan(_ request: AdaptPlanRequest) throws(RegimenError) -> AdaptationResult {
        let plan = AdaptPlanRequest.planToAdapt(request.currentPlan)
        // The plan is read on its own first so that its problems are reported as the plan's.
        do {
            _ = try PlanView(document: plan)
        } catch {
            throw .request(request.locatedPlanProblems(error.diagnostics), input: request.planName)
        }
        do {
            return try adaptation.adaptPlan(plan, input: request.input, training: planner.training, nutrition: planner.nutrition)
        } catch {
            throw .request(error.diagnostics, input: request.name)
        }
    }
}
