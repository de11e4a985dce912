import RegimenLanguage

/// `kind: functions`: helper functions shared by every rule file's expressions.
///
/// ```yaml
/// kind: functions
/// version: 1
/// functions:
///   - name: clamp
///     params: [x, low, high]
///     return: "x < low ? low : (x > high ? high : x)"
///   - name: bmi
///     params: [weight_kg, height_cm]
///     let:
///       metres: height_cm / 100
///     return: weight_kg / (metres * metres)
/// ```
/// The loader decodes these files before any other kind, so expressions elsewhere can call them.
package struct FunctionsFile: RuleFileKind {
    package static let kind = "functions"
    /// The file's declarations in file order.
    let declarations: [FunctionDeclaration]

    package var ruleCount: Int { declarations.count }

    package static func decode(_ document: inout MappingDecoder) -> FunctionsFile? {
        let context = document.context
        let declarations = document.list("functions") { node, path in
            decodeDeclaration(node, at: path, in: context)
        }
        return declarations.map { FunctionsFile(declarations: $0) }
    }

    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        let all = ruleSet.all(FunctionsFile.self).flatMap(\.declarations)
        context.checkUnique(all.map { ($0.name, $0.location) }, what: "function")
    }

    private static func decodeDeclaration(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> FunctionDeclaration? {
        context.mapping(node, at: path) { map in
            guard let nameNode = map.requiredNode("name"), let name = context.decode(nameNode, as: String.self, at: path.appending(key: "name")) else {
                map.allow("params", "let", "return", "description")
                return nil
            }
            map.path = DecodingPath(subject: "function '\(name)'")
            map.allow("description")
            var valid = checkIdentifier(name, node: nameNode, path: map.path.appending(key: "name"), context: context)
            let parameterNodes = map.optional("params", as: [LocatedNode].self) ?? []
            var parameters: [String] = []
            for (index, parameterNode) in parameterNodes.enumerated() {
                let parameterPath = map.path.appending(key: "params").appending(index: index)
                guard let parameter = context.decode(parameterNode, as: String.self, at: parameterPath) else {
                    valid = false
                    continue
                }
                valid = checkIdentifier(parameter, node: parameterNode, path: parameterPath, context: context) && valid
                if parameters.contains(parameter) {
                    context.error("rules.duplicate-id", map.path.prefixed("parameter '\(parameter)' is declared twice"), at: parameterNode.location)
                    valid = false
                }
                parameters.append(parameter)
            }
            var bindings: [(name: String, expression: ExpressionSource)] = []
            if let letNode = map.node("let") {
                if let pairs = letNode.mapping {
                    for pair in pairs {
                        guard let bindingName = pair.key.scalar?.text else { continue }
                        let bindingPath = map.path.appending(key: "let").appending(key: bindingName)
                        valid = checkIdentifier(bindingName, node: pair.key, path: bindingPath, context: context) && valid
                        guard let expression = expressionSource(pair.value, at: bindingPath, in: context) else {
                            valid = false
                            continue
                        }
                        bindings.append((bindingName, expression))
                    }
                } else {
                    context.wrongType(letNode, expected: "a mapping of names to expressions", at: map.path.appending(key: "let"))
                    valid = false
                }
            }
            guard let bodyNode = map.requiredNode("return"),
                  let body = expressionSource(bodyNode, at: map.path.appending(key: "return"), in: context),
                  valid
            else { return nil }
            return FunctionDeclaration(name: name, parameters: parameters, bindings: bindings, body: body, location: nameNode.location)
        }
    }

    private static func checkIdentifier(_ name: String, node: LocatedNode, path: DecodingPath, context: DecodingContext) -> Bool {
        guard isIdentifier(name) else {
            context.error("rules.invalid-name", path.message("must be a name of letters, digits and '_' not starting with a digit, not '\(name)'"), at: node.location)
            return false
        }
        return true
    }

    private static func expressionSource(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> ExpressionSource? {
        guard let scalar = node.scalar, scalar.plainType != .null, let source = ExpressionSource(node) else {
            context.wrongType(node, expected: "an expression", at: path)
            return nil
        }
        return source
    }
}
