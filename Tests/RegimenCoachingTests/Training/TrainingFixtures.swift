import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import RegimenTestSupport

/// The repository's training rule files and exercise catalog, loaded once for all tests.
enum TrainingFixtures {
    static let packageRoot = RepositoryRoot.url

    /// The training files by kind: every `rules/training-*.yaml` plus the two catalogs.
    static let files: [(path: String, text: String)] = {
        let names = ["catalogs/exercise-catalog.yaml", "catalogs/plan-templates.yaml"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("rules").path)) ?? [])
                .filter { $0.hasPrefix("training-") && $0.hasSuffix(".yaml") }.sorted().map { "rules/\($0)" }
        return names.compactMap { name in
            (try? String(contentsOf: packageRoot.appendingPathComponent(name), encoding: .utf8)).map { (name, $0) }
        }
    }()

    /// Loads `files` (by default the repository's) with the training kinds registered.
    static func load(_ files: [(path: String, text: String)] = files) -> RuleSetLoadResult {
        RuleSetLoader(kinds: TrainingRules.fileKinds).load(files: files)
    }

    /// The planner over the repository's files; `nil` only if they fail to load (tests then fail).
    static let planner: TrainingPlanner? = {
        let result = load()
        guard !result.hasErrors else { return nil }
        return try? TrainingPlanner(ruleSet: result.ruleSet)
    }()

    /// Every top-level rule and catalog file whose `kind:` the planner (nutrition and training)
    /// reads; other domains' files are left out so this test target needs only these kinds.
    static let plannerFiles: [(path: String, text: String)] = {
        let kinds = Set(PlanGenerator.kinds.map { $0.kind })
        var result: [(path: String, text: String)] = []
        for directory in ["catalogs", "rules"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(directory).path)) ?? []
            for name in names.sorted() where name.hasSuffix(".yaml") {
                let path = "\(directory)/\(name)"
                guard let text = try? String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8) else { continue }
                let kind = text.split(separator: "\n").first { $0.hasPrefix("kind:") }
                    .map { $0.dropFirst("kind:".count).trimmingCharacters(in: .whitespaces) }
                if let kind, kinds.contains(kind) { result.append((path, text)) }
            }
        }
        return result
    }()

    /// `generatePlan` over the repository's nutrition and training files.
    static let generator: PlanGenerator? = {
        let result = RuleSetLoader(kinds: PlanGenerator.kinds).load(files: plannerFiles)
        guard !result.hasErrors else { return nil }
        return try? PlanGenerator(ruleSet: result.ruleSet)
    }()

    /// The files with `text` replaced in the file at `path`, for load-error tests.
    static func files(editing path: String, replacing old: String, with new: String) -> [(path: String, text: String)] {
        files.map { $0.path == path ? ($0.path, $0.text.replacingOccurrences(of: old, with: new)) : $0 }
    }
}
