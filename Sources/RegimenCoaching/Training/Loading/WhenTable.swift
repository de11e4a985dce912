import RegimenLanguage
import RegimenRules

/// A decision table of rows with `when:` conditions and a hit policy, resolved at load time over
/// every input the planner can give it. A gap (an input no row covers) and, under `unique`, an
/// overlap (two rows matching one input) are load errors, so planning never meets either.
struct WhenTable<Output: Sendable>: Sendable {
    enum HitPolicy: String, NodeEnum {
        case first, unique
    }

    struct Row {
        var condition: CompiledExpression?
        var whenText: String
        var output: Output
        var location: SourceLocation
    }

    var name: String
    var hitPolicy: HitPolicy
    /// The inputs the table must cover, when the table itself lists them (`domain: [a, b]`).
    var domain: [String]?
    var rows: [Row]
    var location: SourceLocation

    /// Reads `key` as `{hit_policy, rows: [{when, ...}]}`; `row` reads each row's other keys.
    static func decode(
        _ key: String, in map: inout MappingDecoder, name: String, variables: [String],
        defaultPolicy: HitPolicy = .unique, row: @escaping (inout MappingDecoder) -> Output?
    ) -> WhenTable? {
        guard let node = map.requiredNode(key) else { return nil }
        let context = map.context
        let path = map.path.appending(key: key)
        // The loader's environment: the table's variables plus the `kind: functions` helpers.
        let environment = context.environment(variables: variables)
        return context.mapping(node, at: path) { table in
            let policy = table.optional("hit_policy", as: HitPolicy.self) ?? defaultPolicy
            let domain = table.optional("domain", as: [String].self)
            let rows: [Row]? = table.list("rows") { rowNode, rowPath in
                context.mapping(rowNode, at: rowPath) { rowMap -> Row? in
                    guard let whenNode = rowMap.requiredNode("when") else { return nil }
                    let whenText = whenNode.scalar?.text ?? ""
                    var condition: CompiledExpression?
                    if let source = ExpressionSource(whenNode) {
                        do throws(DiagnosticsError) {
                            condition = try CompiledExpression(source.sourceText, environment: environment)
                        } catch {
                            context.report(contentsOf: error.diagnostics.map(source.correcting))
                        }
                    } else {
                        context.wrongType(whenNode, expected: "a condition expression", at: rowPath.appending(key: "when"))
                    }
                    guard let output = row(&rowMap) else { return nil }
                    return Row(condition: condition, whenText: whenText, output: output, location: rowNode.location)
                }
            }
            guard let rows else { return nil }
            return WhenTable(name: name, hitPolicy: policy, domain: domain, rows: rows, location: node.location)
        }
    }

    /// The winning row for each input, or errors for inputs with no row (gaps) and, under
    /// `unique`, inputs with several.
    /// - Parameters:
    ///   - inputs: every input the planner can ask about, as variable bindings;
    ///   - describe: the input in words for messages, e.g. `days == 7`.
    func resolve(
        over inputs: [[String: Value]], describe: ([String: Value]) -> String, context: DecodingContext
    ) -> [(Output, RuleReference)?] {
        guard rows.allSatisfy({ $0.condition != nil }) else { return inputs.map { _ in nil } }
        return inputs.map { bindings in
            var matches: [Int] = []
            for (index, row) in rows.enumerated() {
                guard let condition = row.condition else { continue }
                do throws(EvaluationError) {
                    let value = try condition.evaluate(bindings)
                    guard case .bool(let hit) = value else {
                        context.error("rules.table-condition", "\(name) row \(index + 1): 'when' must be true or false, got \(value.typeName) for \(describe(bindings))", at: row.location)
                        continue
                    }
                    if hit { matches.append(index) }
                } catch {
                    context.error("rules.table-condition", "\(name) row \(index + 1): 'when' fails for \(describe(bindings)): \(error)", at: condition.location(of: error) ?? row.location)
                }
                if hitPolicy == .first, !matches.isEmpty { break }
            }
            guard let first = matches.first else {
                context.error("rules.table-gap", "\(name): no row matches \(describe(bindings))", at: location)
                return nil
            }
            if hitPolicy == .unique, matches.count > 1 {
                context.error(
                    "rules.table-overlap",
                    "\(name): rows \(matches.map { String($0 + 1) }.joined(separator: " and ")) all match \(describe(bindings)) under hit policy 'unique'",
                    at: rows[matches[1]].location)
                return nil
            }
            let row = rows[first]
            return (row.output, RuleReference(rule: "\(name)[\(first + 1)]", location: row.location, summary: "when \(row.whenText)"))
        }
    }
}
