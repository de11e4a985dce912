package import Foundation
import RegimenRules

extension RegimenEngine {
    /// Loads the rules and catalogs as ``init(rules:catalogs:)`` does (or, without `rules`, as
    /// ``bundled(from:executable:)`` finds them), with every rule file named relative to the rules
    /// folder's parent (`rules/readiness.yaml:3:5`) in diagnostics and answers: what a service
    /// shows its clients instead of where its files live.
    /// - Throws: ``RegimenError/Code/option`` when a folder does not exist, ``RegimenError/Code/rules``
    ///   when the files do not load.
    package static func namingFilesRelatively(rules: URL?, catalogs: URL?, workingDirectory: URL, executable: URL?) throws(RegimenError) -> RegimenEngine {
        let located = RuleSources.locate(
            rules: rules?.standardizedFileURL.path, catalogs: catalogs?.standardizedFileURL.path,
            currentDirectory: rules == nil ? workingDirectory : URL(fileURLWithPath: "/"),
            executable: rules == nil ? executable : nil)
        switch located {
        case .success(let sources):
            return try RegimenEngine(sources: RuleSources(
                rules: sources.rules, catalogs: sources.catalogs, displayBase: sources.rules?.deletingLastPathComponent()))
        case .failure(let error):
            throw .option(error.description)
        }
    }
}
