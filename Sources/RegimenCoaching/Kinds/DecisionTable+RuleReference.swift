import RegimenLanguage
import RegimenRules

extension DecisionTable {
    /// ``DecisionTable/rows(resolvedOver:describe:context:)`` with each winning row as the output
    /// and the ``RuleReference`` a plan cites for it (`training_volume.bands.rows[0]`, `when …`).
    func resolve(
        over inputs: [[String: Value]], describe: ([String: Value]) -> String, context: DecodingContext
    ) -> [(Output, RuleReference)?] {
        rows(resolvedOver: inputs, describe: describe, context: context).map { row in
            row.map { ($0.output, RuleReference(rule: RowAddress.of(table: name, index: $0.number - 1), location: $0.location, summary: "when \($0.whenText)")) }
        }
    }

    /// The values the table's first input must cover, as its `domain:` lists them.
    var domain: [String]? {
        guard case .values(let values)? = inputs.first?.domain else { return nil }
        return values.compactMap(\.stringValue)
    }
}
