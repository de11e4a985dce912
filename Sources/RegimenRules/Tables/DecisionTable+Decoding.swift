import RegimenLanguage

extension DecisionTable {
    /// Decodes a table (`hit_policy:`, `inputs:`, `rows:` with `when:`/`then:`/optional `id:`).
    ///
    /// - Parameters:
    ///   - name: The table's name in messages: `table 'split_by_days': …`.
    ///   - expectedInputs: The inputs the calling code will supply; when given, the declared
    ///     inputs must be exactly these (in any order).
    ///   - extraVariables: Variables row expressions may read besides the inputs.
    ///   - output: Decodes a row's `then:` node.
    /// - Returns: The table, or `nil` when it has errors (all reported).
    package static func decode(
        from node: LocatedNode, named name: String, in context: DecodingContext,
        expectedInputs: [String]? = nil, extraVariables: [String] = [],
        output: (LocatedNode, DecodingPath) -> Output?
    ) -> DecisionTable? {
        let path = DecodingPath(subject: "table '\(name)'")
        return context.mapping(node, at: path) { map -> DecisionTable? in
            map.allow("description")
            let hitPolicy = map.required("hit_policy", as: HitPolicy.self)
            var inputs: [TableInput] = []
            var inputsValid = true
            if let inputsNode = map.requiredNode("inputs") {
                if let pairs = inputsNode.mapping, !pairs.isEmpty {
                    for pair in pairs {
                        guard let inputName = pair.key.scalar?.text else { continue }
                        if let input = TableInput.decode(name: inputName, node: pair.value, at: path.appending(key: "inputs").appending(key: inputName), in: context) {
                            inputs.append(input)
                        } else {
                            inputsValid = false
                        }
                    }
                } else {
                    context.wrongType(inputsNode, expected: "a mapping of input names to their values", at: path.appending(key: "inputs"))
                    inputsValid = false
                }
                if let expectedInputs, inputsValid {
                    let declared = Set(inputs.map(\.name))
                    for missing in expectedInputs where !declared.contains(missing) {
                        context.error("rules.missing-key", path.prefixed("'inputs' must declare '\(missing)'"), at: inputsNode.location)
                        inputsValid = false
                    }
                    for input in inputs where !expectedInputs.contains(input.name) {
                        let suggestion = Suggestion.clause(for: input.name, among: expectedInputs)
                        context.error("rules.unknown-key", path.prefixed("unknown input '\(input.name)'\(suggestion)"), at: map.node("inputs")?.mapping?.first { $0.key.scalar?.text == input.name }?.key.location)
                        inputsValid = false
                    }
                }
            } else {
                inputsValid = false
            }
            // Inputs are typed by their domains, so a row comparing `days` with a string or a
            // `when:` that gives a number is a load error at its character.
            let declarations = inputs.map { VariableDeclaration($0.name, $0.domain.expressionType, "table input") }
                + extraVariables.map { VariableDeclaration($0, .any, "extra variable") }
            let environment = context.environment(declaring: declarations)
            let rowsNode = map.requiredNode("rows")
            var number = 0
            let rows: [DecisionRow<Output>]? = rowsNode.flatMap { rowsNode in
                context.list(rowsNode, at: path.appending(key: "rows")) { rowNode, _ in
                    number += 1
                    guard inputsValid else { return nil }
                    return decodeRow(rowNode, number: number, tableName: name, inputs: inputs, environment: environment, context: context, output: output)
                }
            }
            guard let hitPolicy, inputsValid, let rows, let rowsNode, rows.count == rowsNode.sequence?.count else { return nil }
            if rows.isEmpty {
                context.error("rules.empty", path.prefixed("'rows' must have at least one row"), at: rowsNode.location)
                return nil
            }
            let table = DecisionTable(
                name: name, hitPolicy: hitPolicy, inputs: inputs, extraVariables: extraVariables, rows: rows, location: node.location)
            table.checkCoverage(at: rowsNode.location, in: context)
            return table
        }
    }

    private static func decodeRow(
        _ node: LocatedNode, number: Int, tableName: String, inputs: [TableInput], environment: ExpressionEnvironment,
        context: DecodingContext, output: (LocatedNode, DecodingPath) -> Output?
    ) -> DecisionRow<Output>? {
        context.mapping(node, at: DecodingPath(subject: "table '\(tableName)' \(RowAddress.inTable(index: number - 1))")) { map -> DecisionRow<Output>? in
            let id = map.optional("id", as: String.self)
            if let id { map.path = DecodingPath(subject: "table '\(tableName)' row '\(id)'") }
            map.allow("description", "note")
            let rowPath = map.path
            var condition: RowCondition? = .always
            if let whenNode = map.node("when") {
                condition = decodeCondition(whenNode, inputs: inputs, environment: environment, at: rowPath.appending(key: "when"), context: context)
            }
            let thenNode = map.requiredNode("then")
            let value = thenNode.flatMap { output($0, rowPath.appending(key: "then")) }
            guard let condition, let value else { return nil }
            let whenText = map.node["when"].map { $0.scalar?.text ?? $0.description } ?? ""
            return DecisionRow(id: id, number: number, output: value, location: node.location, whenText: whenText, condition: condition)
        }
    }

    private static func decodeCondition(
        _ node: LocatedNode, inputs: [TableInput], environment: ExpressionEnvironment, at path: DecodingPath, context: DecodingContext
    ) -> RowCondition? {
        guard let pairs = node.mapping else {
            return compileCondition(node, at: path, in: environment, context: context).map { .expression($0) }
        }
        var columns: [(input: Int, matcher: ColumnMatcher)] = []
        var valid = true
        for pair in pairs {
            guard let column = pair.key.scalar?.text else { continue }
            guard let index = inputs.firstIndex(where: { $0.name == column }) else {
                let suggestion = Suggestion.clause(for: column, among: inputs.map(\.name))
                context.error("rules.unknown-key", path.prefixed("'when' names unknown input '\(column)'\(suggestion)"), at: pair.key.location)
                valid = false
                continue
            }
            guard let matcher = ColumnMatcher.decode(pair.value, input: inputs[index], at: path.appending(key: column), in: context) else {
                valid = false
                continue
            }
            columns.append((index, matcher))
        }
        guard valid else { return nil }
        return columns.isEmpty ? .always : .columns(columns)
    }
}
