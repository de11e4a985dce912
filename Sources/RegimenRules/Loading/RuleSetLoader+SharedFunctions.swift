import Foundation
package import RegimenLanguage

extension RuleSetLoader {
    /// Every `kind: functions` file under the rules directory, read as text. A module that loads
    /// a fixed list of its own files adds these, so its expressions can call the shared helpers
    /// exactly as the rule set loaded from the whole tree does.
    package static func sharedFunctionFiles(in sources: RuleSources) -> (files: [(path: String, text: String)], diagnostics: [Diagnostic]) {
        guard let rules = sources.rules else { return ([], []) }
        let listing = RuleSources.yamlFiles(under: rules)
        var files: [(path: String, text: String)] = []
        var diagnostics = listing.diagnostics.map { $0.relativized(by: sources) }
        for url in listing.files {
            let display = sources.displayPath(for: url)
            do {
                let text = try InputFile.read(url, displayPath: display)
                if declaresFunctions(text) { files.append((display, text)) }
            } catch {
                diagnostics.append(contentsOf: error.diagnostics)
            }
        }
        return (files, diagnostics)
    }
}
