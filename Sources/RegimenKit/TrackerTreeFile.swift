package import Foundation
package import RegimenLanguage
import RegimenRules
package import RegimenTracking

/// A tracker tree read from a file with where each of its documents is written, so that what is
/// found later (validation's violations) can be placed at its line and column: how `regimen
/// validate` and `regimen export` read their tree.
package struct TrackerTreeFile: Sendable {
    /// Why a tree file could not be read.
    package enum Failure: Error {
        /// The file is not JSON or YAML (or not readable): every problem, located. Empty when
        /// the file holds no document.
        case syntax([Diagnostic])
        /// The document is not a tracker tree: every structural problem, placed at its line and
        /// column.
        case structure([TrackerViolation])
    }

    /// The tree.
    package let tree: TrackerTree
    /// Where each document is written.
    private let sources: TrackerSourceMap

    /// Reads the tree at `url` (JSON or YAML), naming it `displayPath` in problems.
    package init(contentsOf url: URL, displayPath: String) throws(Failure) {
        let read = YAMLReader.read(contentsOf: url, displayPath: displayPath)
        guard read.diagnostics.isEmpty, let document = read.document else { throw .syntax(read.diagnostics) }
        let sources = TrackerSourceMap(document)
        let (tree, problems) = TrackerTree.read(document.value())
        guard problems.isEmpty else { throw .structure(sources.locate(problems)) }
        self.tree = tree
        self.sources = sources
    }

    /// `violations`, each placed at the line and column of its document (or field) in the file.
    package func locate(_ violations: [TrackerViolation]) -> [TrackerViolation] {
        sources.locate(violations)
    }
}
