import Foundation
package import RegimenKit

/// One loaded and checked set of rules, catalogs, policies and documents: what a request is
/// answered with, wholly. Immutable; a reload builds a new one and swaps it in.
package final class RuleSnapshot: Sendable {
    /// The content hash of every file the snapshot was read from (paths and bytes).
    let revision: String
    /// The planner and tracker.
    package let engine: RegimenEngine
    /// Every policy, compiled, by name (`workout-tracker/corrected`).
    let policies: [String: Policy]
    /// The documents of `--documents`, per service, for authorize requests.
    let documents: [SecurityService: DocumentStore]
    /// Every file read, with its kind.
    package let files: [RuleFile]
    /// When it was loaded.
    let loadedAt: Date
    /// The rows of each rules and catalogs table (``RowCounts``), for the next reload to compare.
    let rowCounts: [String: Int]

    init(
        revision: String, engine: RegimenEngine, policies: [String: Policy], documents: [SecurityService: DocumentStore], files: [RuleFile],
        loadedAt: Date, rowCounts: [String: Int]
    ) {
        self.revision = revision
        self.engine = engine
        self.policies = policies
        self.documents = documents
        self.files = files
        self.loadedAt = loadedAt
        self.rowCounts = rowCounts
    }

    /// The documents that exist for every request to `policy`.
    func documents(for policy: Policy) -> DocumentStore { documents[policy.service] ?? DocumentStore() }
}

/// A file of a snapshot: its path (relative to its folder's parent) and its kind.
package struct RuleFile: Sendable, Hashable {
    package var path: String
    /// The file's `kind:` (`security-rules` for a `.rules` file, `documents` for a documents file).
    package var kind: String
}
