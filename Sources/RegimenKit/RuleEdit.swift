package import Foundation
import RegimenLanguage
import RegimenRules

/// One rule or catalog file's text tried in memory in place of the loaded file: what the rules
/// playground checks and plans with. The file on disk is neither read nor written.
package struct RuleEdit: Sendable, Hashable {
    /// The file, as the engine's diagnostics name it (`rules/nutrition.yaml`).
    package var path: String
    /// The text to read instead of the file's.
    package var text: String

    package init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

extension RegimenEngine {
    /// How the engine names the file at `url` in diagnostics (relative to its display folder).
    package func displayPath(for url: URL) -> String { sources.displayPath(for: url) }

    /// Every problem `regimen check` reports for this engine's rules and catalogs with `edit` in
    /// place of its file (every kind, every file, collected in one pass), then, when they load,
    /// the planner's checks across files, which a set must also pass to be served; and the
    /// edited planner when it loads (``replacing(_:)``'s answer, made once).
    package func check(_ edit: RuleEdit) -> (diagnostics: [Diagnostic], engine: RegimenEngine?) {
        let overrides = [edit.path: edit.text]
        let result = RuleSetLoader(kinds: RegimenRuleKinds.all).load(from: sources, replacing: overrides)
        var diagnostics = result.diagnostics
        var engine: RegimenEngine?
        if !result.hasErrors {
            do {
                engine = try RegimenEngine(sources: sources, replacing: overrides, tracking: tracking)
            } catch {
                let known = Set(diagnostics)
                diagnostics += error.diagnostics.filter { !known.contains($0) }
            }
        }
        return (diagnostics.sorted(by: Diagnostic.sortKey), engine)
    }

    /// The planner with `edit` in place of its file; the tracker's rules stay this engine's.
    /// - Throws: ``RegimenError/Code/rules`` with every problem, when the edited set does not load.
    package func replacing(_ edit: RuleEdit) throws(RegimenError) -> RegimenEngine {
        try RegimenEngine(sources: sources, replacing: [edit.path: edit.text], tracking: tracking)
    }
}
