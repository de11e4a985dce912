/// The one way every output names a decision-table row: `training_volume.bands.rows[1]`, the
/// table's key path, `rows` and the row's zero-based index, exactly as `regimen check` names the
/// row's keys (`bands.rows[1].sets`). `check`, `test`, coverage, explanations and the page all
/// use it, so a coach reads one address for one row wherever it appears (with its file:line).
package enum RowAddress {
    /// `table.rows[index]` for the row at zero-based `index` of `table`.
    package static func of(table: String, index: Int) -> String { "\(table).rows[\(index)]" }

    /// `rows[index]`, the row's address inside its table.
    static func inTable(index: Int) -> String { "rows[\(index)]" }
}
