package import RegimenLanguage

extension DecisionTable {
    /// Decodes the compact form rule files use when the code supplies the inputs: `key` holds
    /// `{hit_policy, domain, rows}` and each row is a `when:` expression next to the output's own
    /// keys, which `row` reads.
    ///
    /// ```yaml
    /// split_by_days:
    ///   hit_policy: unique
    ///   rows:
    ///     - when: days == 1
    ///       split: full_body
    /// ```
    /// The `when:` expressions compile against `inputs` with their declared types (and the shared
    /// functions), so a condition that cannot give true or false is a load error at its character.
    /// `domain:` (a list of strings) names the values of a single input the table must cover; the
    /// caller reads it back from ``inputs`` and resolves the table over every input with
    /// ``rows(resolvedOver:describe:context:)``. With `domainRequired`, a table without
    /// `domain:` is a missing key (and no table).
    package static func decode(
        _ key: String, in map: inout MappingDecoder, named name: String, inputs: [VariableDeclaration],
        defaultPolicy: HitPolicy = .unique, domainRequired: Bool = false, row: (inout MappingDecoder) -> Output?
    ) -> DecisionTable? {
        guard let node = map.requiredNode(key) else { return nil }
        let context = map.context
        let path = map.path.appending(key: key)
        let environment = context.environment(declaring: inputs)
        return context.mapping(node, at: path) { table -> DecisionTable? in
            let policy = table.optional("hit_policy", as: HitPolicy.self) ?? defaultPolicy
            let domain = domainRequired ? table.required("domain", as: [String].self) : table.optional("domain", as: [String].self)
            var number = 0
            let rows: [DecisionRow<Output>]? = table.list("rows") { rowNode, rowPath in
                number += 1
                let rowNumber = number
                return context.mapping(rowNode, at: rowPath) { rowMap -> DecisionRow<Output>? in
                    // The row's other keys are read even without `when`, so a missing `when`
                    // is one error, not one more per key beside it.
                    let whenNode = rowMap.requiredNode("when")
                    let condition = whenNode.flatMap { compileCondition($0, at: rowPath.appending(key: "when"), in: environment, context: context) }
                    guard let output = row(&rowMap), let whenNode, let condition else { return nil }
                    return DecisionRow(
                        id: nil, number: rowNumber, output: output, location: rowNode.location, whenText: whenNode.scalar?.text ?? "",
                        condition: .expression(condition))
                }
            }
            // A row that did not decode leaves no table: resolving the rest would report gaps
            // that are only echoes of that row's error.
            guard let rows, rows.count == table.node["rows"]?.sequence?.count, domain != nil || !domainRequired else { return nil }
            var tableInputs = inputs.map { TableInput(name: $0.name, domain: TableInput.Domain($0.type)) }
            if let domain, let first = tableInputs.first {
                tableInputs[0] = TableInput(name: first.name, domain: .values(domain.map(Value.string)))
            }
            return DecisionTable(
                name: name, hitPolicy: policy, inputs: tableInputs, extraVariables: [], rows: rows, location: node.location)
        }
    }

    /// Compiles a row's `when:` and rejects one whose type the compiler knows is not `bool`: such
    /// a row could never match, and the coach meant a condition.
    static func compileCondition(
        _ node: LocatedNode, at path: DecodingPath, in environment: ExpressionEnvironment, context: DecodingContext
    ) -> CompiledExpression? {
        guard let condition = context.compileExpression(node, at: path, in: environment) else { return nil }
        if let type = condition.inferredTypeName, type != "bool" {
            context.error("rules.table-condition", path.message("gives \(type), not true or false"), at: node.location)
            return nil
        }
        return condition
    }

    /// The winning row for each of `inputs`, resolved when the rules load, so planning never
    /// meets a gap or an ambiguity. Each problem is reported to `context` and leaves that input
    /// without a row: an input no row matches (a gap), several rows matching under `unique`, and
    /// a condition that fails or does not give true or false (a failing row is no answer; taking
    /// a later row instead would apply a rule the coach did not write for that input).
    /// - Parameters:
    ///   - inputs: every input the caller can ask about, as values by input name;
    ///   - describe: the input in words for messages, e.g. `days == 7`.
    package func rows(
        resolvedOver inputs: [[String: Value]], describe: ([String: Value]) -> String, context: DecodingContext
    ) -> [DecisionRow<Output>?] {
        inputs.map { bindings in
            var slots: [Value] = []
            for input in self.inputs.map(\.name) + extraVariables {
                guard let value = bindings[input] else {
                    context.error("rules.table-input", "\(name): no value for input '\(input)'", at: location)
                    return nil
                }
                slots.append(value)
            }
            for input in bindings.keys.sorted() where !self.inputs.contains(where: { $0.name == input }) && !extraVariables.contains(input) {
                context.error("rules.table-input", "\(name): '\(input)' is bound but no declared input", at: location)
                return nil
            }
            var matches: [Int] = []
            for (index, row) in rows.enumerated() {
                switch row.condition.evaluate(slots) {
                case .success(true): matches.append(index)
                case .success(false): break
                case .failure(let error):
                    var at = row.location
                    if case .expression(let expression) = row.condition { at = expression.location(of: error) ?? row.location }
                    context.error("rules.table-condition", "\(RowAddress.of(table: name, index: index)): 'when' fails for \(describe(bindings)): \(error)", at: at)
                    return nil
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
                    "\(name): \(matches.map { RowAddress.inTable(index: $0) }.joined(separator: " and ")) all match \(describe(bindings)) under hit policy 'unique'",
                    at: rows[matches[1]].location)
                return nil
            }
            return rows[first]
        }
    }
}
