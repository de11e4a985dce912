package import Foundation
package import RegimenLanguage
package import RegimenRules

/// What `regimen check` reports: every rule and catalog file of every module's kinds, loaded and
/// validated together.
package struct RuleCheck: Sendable {
    /// Every error and warning of every file, sorted by file, line and column.
    package let diagnostics: [Diagnostic]
    /// How many files were read.
    package let fileCount: Int
    /// How many rules the files hold (meaningful when there is no error).
    package let ruleCount: Int
    /// How many catalog entries the files hold (meaningful when there is no error).
    package let catalogEntryCount: Int

    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Loads every kind under `--rules DIR` and `--catalogs DIR` as the `regimen` command
    /// resolves them (see ``RegimenEngine/init(rules:catalogs:currentDirectory:executable:)``).
    /// - Parameter kinds: the kinds to load: every module's by default.
    /// - Throws: ``RegimenError/Code/option`` when a folder does not exist or none is found.
    package init(
        rules: String?, catalogs: String?, currentDirectory: URL, executable: URL?, kinds: [any RuleFileKind.Type] = RegimenRuleKinds.all
    ) throws(RegimenError) {
        switch RuleSources.locate(rules: rules, catalogs: catalogs, currentDirectory: currentDirectory, executable: executable) {
        case .success(let sources):
            let result = RuleSetLoader(kinds: kinds).load(from: sources)
            diagnostics = result.diagnostics
            fileCount = result.fileCount
            ruleCount = result.ruleSet.ruleCount
            catalogEntryCount = result.ruleSet.catalogEntryCount
        case .failure(let error):
            throw .option(error.description)
        }
    }
}
