import Foundation
import RegimenLanguage
import RegimenRules

/// Reads the YAML form of a policy (`kind: security_rules`):
///
/// ```yaml
/// kind: security_rules
/// version: 1
/// rules_version: "2"
/// service: cloud.firestore
/// functions:                      # visible everywhere; a string is the return expression
///   isSignedIn(): request.auth != null
/// match:
///   - path: /databases/{database}/documents
///     functions:
///       validSet(data):
///         let:
///           - hasMetric: data.reps != null || data.duration != null
///         return: hasMetric
///     match:
///       - path: /users/{userId}
///         allow:
///           - read: isOwner(userId) || isAdmin()
///           - update, delete: isOwner(userId)
///           - list:               # no condition: always allowed, like `allow list;`
/// ```
enum YAMLPolicyReader {
    /// Reads a policy as the rule loader reads a `security_rules` file of the tree.
    package static func parse(_ text: String, file: String) throws(DiagnosticsError) -> SecurityPolicy {
        try RuleSetLoader.decodeFile(text, file: file, as: SecurityRulesFile.self) { top in
            decodeFile(&top, file: file, text: text)
        }.get()
    }

    /// Reads a policy's keys besides `kind` and `version` (in describing mode, records their
    /// shapes and returns `nil`).
    static func decodeFile(_ top: inout MappingDecoder, file: String, text: String) -> SecurityPolicy? {
        let context = top.context
        top.summary("A security policy in Regimen's YAML form of Firestore (or Storage) rules.")
        var rulesVersion: String?
        if let node = top.node("rules_version", shape: rulesVersionShape) {
            rulesVersion = node.scalar?.text
            if rulesVersion != "1" && rulesVersion != "2" {
                context.error("rules.version", "rules_version must be \"1\" or \"2\"", at: node.location)
            }
        }
        var service = SecurityService.firestore
        if let node = top.node(
            "service", shape: .oneOf(serviceNames), required: true, missing: "missing 'service: cloud.firestore' or 'service: firebase.storage'"),
            let name = context.decode(node, as: String.self, at: top.path.appending(key: "service")) {
            if let s = SecurityService(rawValue: name) { service = s } else {
                context.error("rules.service", "unknown service '\(name)'; expected \(serviceNames.joined(separator: " or "))", at: node.location)
            }
        }
        let reader = Reader(context: context)
        let functions = top.node("functions", shape: functionsShape(context)).map { reader.functions($0, at: top.path.appending(key: "functions")) } ?? []
        let matches = top.list("match", required: false) { node, path in reader.match(node, at: path) } ?? []
        if context.isDescribing { return nil }
        return SecurityPolicy(
            rulesVersion: rulesVersion, service: service, functions: functions, matches: matches,
            origin: PolicyOrigin(file: file, text: text, syntax: .yaml))
    }

    static let serviceNames = [SecurityService.firestore.rawValue, SecurityService.storage.rawValue]

    /// The words an allow entry's key lists (`update, delete`), from the methods the policy model has.
    static let methodNames = MethodName.allCases.map(\.rawValue)

    struct Reader {
        let context: DecodingContext

        func matches(_ node: LocatedNode, at path: DecodingPath) -> [MatchBlock] {
            context.list(node, at: path) { item, itemPath in match(item, at: itemPath) } ?? []
        }

        func match(_ node: LocatedNode, at path: DecodingPath) -> MatchBlock? {
            context.mapping(node, at: path) { map in match(&map) }
        }

        /// Reads a match block from `map` (in describing mode, records its keys and returns `nil`):
        /// every key is read before the path is checked, so one pass reports every problem.
        func match(_ map: inout MappingDecoder) -> MatchBlock? {
            map.summary("A match block: a path pattern, the functions visible inside it, its allow statements and nested blocks.")
            let node = map.node
            let pathNode = map.node("path", shape: YAMLPolicyReader.pathPatternShape, required: true, missing: "a match block needs 'path:'")
            let pathText = pathNode.flatMap { context.decode($0, as: String.self, at: map.path.appending(key: "path")) }
            if let pathText { map.path = DecodingPath(subject: "match '\(pathText)'") }
            let functions = map.node("functions", shape: YAMLPolicyReader.functionsShape(context))
                .map { self.functions($0, at: map.path.appending(key: "functions")) } ?? []
            let allows = map.node("allow", shape: .list(YAMLPolicyReader.allowShape)).map { self.allows($0, at: map.path.appending(key: "allow")) } ?? []
            // A nested block has the shape of the top-level `match` list's blocks.
            let children = map.node("match", shape: .list(.reference(YAMLPolicyReader.matchPointer)))
                .map { matches($0, at: map.path.appending(key: "match")) } ?? []
            guard let pathNode, let pathText else { return nil }
            switch PathPattern.parse(pathText) {
            case .success(let pattern):
                return MatchBlock(pattern: pattern, functions: functions, allows: allows, children: children, location: node.location)
            case .failure(let error):
                context.error("rules.match", error.message, at: pathNode.location)
                return nil
            }
        }

        func allows(_ node: LocatedNode, at path: DecodingPath) -> [AllowStatement] {
            context.list(node, at: path) { item, _ in
                guard let entries = item.mapping, entries.count == 1, let entry = entries.first, let key = entry.key.scalar?.text else {
                    context.error("rules.allow", "each allow entry is one 'methods: condition' pair, e.g. '- update, delete: isOwner(userId)'", at: item.location)
                    return nil
                }
                var methods: [MethodName] = []
                // Empty words (`read,` or `,`) are unknown methods too: each comma separates two.
                for word in key.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    if let m = MethodName(rawValue: word) { methods.append(m) } else {
                        context.error(
                            "rules.allow", "unknown method '\(word)'; expected \(YAMLPolicyReader.methodNames.joined(separator: ", "))", at: entry.key.location)
                    }
                }
                let condition = entry.value.isNull ? nil : expression(entry.value, what: "allow condition")
                return AllowStatement(methods: methods, condition: condition, location: entry.key.location)
            } ?? []
        }

        func functions(_ node: LocatedNode, at path: DecodingPath) -> [FunctionDeclaration] {
            guard let entries = node.mapping else {
                context.wrongType(node, expected: "a mapping of 'name(params)' to a return expression or to let/return", at: path)
                return []
            }
            var out: [FunctionDeclaration] = []
            for entry in entries {
                guard let signature = entry.key.scalar?.text, let (name, parameters) = parseSignature(signature) else {
                    context.error("rules.function", "a function key is its signature, e.g. 'isOwner(userId)'", at: entry.key.location)
                    continue
                }
                if entry.value.mapping != nil {
                    let body = context.mapping(entry.value, at: DecodingPath(subject: "function '\(name)'")) { map in functionBody(&map, name: name) }
                    if let (lets, body) = body {
                        out.append(FunctionDeclaration(name: name, parameters: parameters, lets: lets, body: body, location: entry.key.location))
                    }
                } else if let body = expression(entry.value, what: "return expression") {
                    out.append(FunctionDeclaration(name: name, parameters: parameters, lets: [], body: body, location: entry.key.location))
                }
            }
            return out
        }

        /// Reads a function written as `let:` and `return:` from `map` (in describing mode,
        /// records the two keys and returns `nil`).
        func functionBody(_ map: inout MappingDecoder, name: String) -> ([LetBinding], PolicyExpression)? {
            map.summary("A function with local variables: 'let' binds names in order, 'return' is the result.")
            var lets: [LetBinding] = []
            if let letNode = map.node("let", shape: .list(YAMLPolicyReader.letShape)) {
                lets = context.list(letNode, at: map.path.appending(key: "let")) { item, _ in
                    guard let pairs = item.mapping, pairs.count == 1, let pair = pairs.first, let variable = pair.key.scalar?.text,
                          PathPattern.isIdentifier(variable)
                    else {
                        context.error("rules.function", "each let entry is one 'name: expression' pair, its name a word", at: item.location)
                        return nil
                    }
                    return expression(pair.value, what: "let value").map { LetBinding(name: variable, value: $0, location: pair.key.location) }
                } ?? []
            }
            let returnNode = map.node("return", shape: YAMLPolicyReader.expressionShape, required: true, missing: "needs 'return:'")
            return returnNode.flatMap { expression($0, what: "return expression") }.map { (lets, $0) }
        }

        /// `name(a, b)`: a name and its parameters, each a word; `nil` when `text` is not one.
        func parseSignature(_ text: String) -> (String, [String])? {
            guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
            let name = text[..<open].trimmingCharacters(in: .whitespaces)
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            // `f()` has no parameters; otherwise every comma separates two names (`f(a,,b)` is wrong).
            let parameters = inner.isEmpty ? [] : inner.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard PathPattern.isIdentifier(name), parameters.allSatisfy(PathPattern.isIdentifier) else { return nil }
            return (name, parameters)
        }

        /// An expression scalar with the file position of each of its characters' lines.
        func expression(_ node: LocatedNode, what: String) -> PolicyExpression? {
            // A plain null is no expression (write `"null"` for the literal).
            guard !node.isNull, let source = ExpressionSource(node) else {
                context.error("rules.wrong-type", "the \(what) must be a string, not \(node.kindDescription)", at: node.location)
                return nil
            }
            // A `|` block keeps its final line break, which is no part of the expression.
            let text = source.text
            guard text.hasSuffix("\n") else { return PolicyExpression(source.sourceText) }
            return PolicyExpression(SourceText(String(text.dropLast()), lineOrigins: source.sourceText.lineOrigins))
        }
    }
}
