import Foundation
import RegimenKit

/// The rows of every table of a rule set: each top-level list or map of a rules or catalogs
/// YAML file (`catalogs/ingredients.yaml: ingredients` → 105). A reload compares them with the
/// serving set's, so a file cut short (a half-written save, a bad merge) that still parses is
/// refused rather than served with half its catalog.
enum RowCounts {
    /// Each table of `files` (YAML files, named as ``RuleFile`` names them), by "path: key".
    static func count(_ files: [(path: String, url: URL)], engine: RegimenEngine) -> [String: Int] {
        var counts: [String: Int] = [:]
        for file in files where ["yaml", "yml"].contains(file.url.pathExtension) {
            guard let data = try? Data(contentsOf: file.url), let value = try? engine.document(from: data, name: file.path),
                  case .map(let fields) = value
            else { continue }
            for (key, field) in fields {
                switch field {
                case .list(let rows): counts["\(file.path): \(key)"] = rows.count
                case .map(let rows): counts["\(file.path): \(key)"] = rows.count
                default: continue
                }
            }
        }
        return counts
    }

    /// A diagnostic for each table of `old` that has lost more than `maximumShare` of its rows
    /// in `new` (a table gone entirely has lost all of them); none when `old` has no tables.
    static func losses(from old: [String: Int], to new: [String: Int], maximumShare: Double) -> [Diagnostic] {
        old.keys.sorted().compactMap { table in
            guard let before = old[table], before > 0 else { return nil }
            let after = new[table] ?? 0
            let lost = Double(before - after) / Double(before)
            guard lost > maximumShare else { return nil }
            let percent = Int((lost * 100).rounded())
            return .error(
                "reload.row-loss",
                "\(table) would go from \(before) to \(after) rows (−\(percent)%), more than the \(Int((maximumShare * 100).rounded()))% a reload may drop; "
                    + "the served set stays. If the cut is meant, reload with POST /v1/admin/reload?allow-row-loss=true",
                at: nil)
        }
    }
}
