import RegimenLanguage
import RegimenRules

extension DecisionTable {
    /// ``DecisionTable/rows(resolvedOver:describe:context:)`` with each winning row as the output
    /// and the ``RuleReference`` a plan cites for it (`training_volume.bands[1]`, `when …`).
    func resolve(
        over inputs: [[String: Value]], describe: ([String: Value]) -> String, context: DecodingContext
    ) -> [(Output, RuleReference)?] {
        rows(resolvedOver: inputs, describe: describe, context: context).map { row in
            row.map { ($0.output, RuleReference(rule: "\(name)[\($0.number)]", location: $0.location, summary: "when \($0.whenText)")) }
        }
    }

    /// The values the table's first input must cover, as its `domain:` lists them.
    var domain: [String]? {
        guard case .values(let values)? = inputs.first?.domain else { return nil }
        return values.compactMap(\.stringValue)
    }
}
