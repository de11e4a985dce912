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
    package static func parse(_ text: String, file: String) throws(DiagnosticsError) -> SecurityPolicy {
        var diagnostics = DiagnosticCollector()
        let root = try SecurityYAML.read(text, file: file)
        guard var top = YAMLMapping(root, context: "the policy", diagnostics: &diagnostics) else { throw DiagnosticsError(diagnostics.diagnostics) }
        let policy = decodeFile(&top, file: file, text: text, diagnostics: &diagnostics)
        if diagnostics.hasErrors { throw DiagnosticsError(diagnostics.diagnostics) }
        guard let policy else { throw DiagnosticsError(diagnostics.diagnostics) }
        return policy
    }

    /// Reads a policy's keys from `top` (in describing mode, records their shapes and returns
    /// `nil`; see ``fileShape``).
    static func decodeFile(_ top: inout YAMLMapping, file: String, text: String, diagnostics: inout DiagnosticCollector) -> SecurityPolicy? {
        let root = top.node
        // `security-rules` is the deprecated spelling (`regimen check` warns about it).
        let kind = top.string("kind", shape: .oneOf(["security_rules", "security-rules"]), required: true, diagnostics: &diagnostics)
        if !top.isDescribing, kind != "security_rules" && kind != "security-rules" {
            diagnostics.error("rules.kind", "expected 'kind: security_rules'", at: top.keyLocation("kind") ?? root.location)
        }
        if let version = top.value("version", shape: .integer(minimum: 1, maximum: 1), required: true), version.scalar?.text != "1" {
            diagnostics.error("rules.version", "unsupported version '\(version.scalar?.text ?? "?")'; expected 1", at: version.location)
        }
        var rulesVersion: String?
        if let node = top.value("rules_version", shape: rulesVersionShape) {
            rulesVersion = node.scalar?.text
            if rulesVersion != "1" && rulesVersion != "2" {
                diagnostics.error("rules.version", "rules_version must be \"1\" or \"2\"", at: node.location)
            }
        }
        var service = SecurityService.firestore
        let serviceName = top.string("service", shape: .oneOf(serviceNames), required: true, diagnostics: &diagnostics)
        if let name = serviceName {
            if let s = SecurityService(rawValue: name) { service = s } else {
                diagnostics.error("rules.service", "unknown service '\(name)'; expected \(serviceNames.joined(separator: " or "))", at: top.keyLocation("service"))
            }
        } else if !top.isDescribing, top.value("service") == nil {
            diagnostics.error("rules.service", "missing 'service: cloud.firestore' or 'service: firebase.storage'", at: root.location)
        }
        let reader = Reader()
        let functions = top.value("functions", shape: functionsShape).map { reader.functions($0, diagnostics: &diagnostics) } ?? []
        let matches = top.value("match", shape: .list(matchShape)).map { reader.matches($0, diagnostics: &diagnostics) } ?? []
        top.reportUnknownKeys(&diagnostics)
        if top.isDescribing { return nil }
        return SecurityPolicy(
            rulesVersion: rulesVersion, service: service, functions: functions, matches: matches,
            origin: PolicyOrigin(file: file, text: text, syntax: .yaml))
    }

    static let serviceNames = [SecurityService.firestore.rawValue, SecurityService.storage.rawValue]

    /// The words an allow entry's key lists (`update, delete`), from the methods the policy model has.
    static let methodNames = MethodName.allCases.map(\.rawValue)

    struct Reader {
        func matches(_ node: LocatedNode, diagnostics: inout DiagnosticCollector) -> [MatchBlock] {
            guard let items = node.sequence else {
                diagnostics.error("yaml.type", "'match' must be a list of blocks with 'path:'", at: node.location)
                return []
            }
            return items.compactMap { match($0, diagnostics: &diagnostics) }
        }

        func match(_ node: LocatedNode, diagnostics: inout DiagnosticCollector) -> MatchBlock? {
            guard var map = YAMLMapping(node, context: "a match block", diagnostics: &diagnostics) else { return nil }
            return match(&map, diagnostics: &diagnostics)
        }

        /// Reads a match block from `map` (in describing mode, records its keys and returns `nil`):
        /// every key is read before the path is checked, so one pass reports every problem.
        func match(_ map: inout YAMLMapping, diagnostics: inout DiagnosticCollector) -> MatchBlock? {
            let node = map.node
            let pathText = map.string("path", shape: YAMLPolicyReader.pathPatternShape, required: true, diagnostics: &diagnostics)
            let functions = map.value("functions", shape: YAMLPolicyReader.functionsShape).map { self.functions($0, diagnostics: &diagnostics) } ?? []
            let allows = map.value("allow", shape: .list(YAMLPolicyReader.allowShape)).map { self.allows($0, diagnostics: &diagnostics) } ?? []
            // A nested block has the shape of the top-level `match` list's blocks.
            let children = map.value("match", shape: .list(.reference(YAMLPolicyReader.matchPointer))).map { matches($0, diagnostics: &diagnostics) } ?? []
            map.reportUnknownKeys(&diagnostics)
            if map.isDescribing { return nil }
            guard let pathText else {
                if map.value("path") == nil { diagnostics.error("rules.match", "a match block needs 'path:'", at: node.location) }
                return nil
            }
            switch PathPattern.parse(pathText) {
            case .success(let pattern):
                return MatchBlock(pattern: pattern, functions: functions, allows: allows, children: children, location: node.location)
            case .failure(let error):
                diagnostics.error("rules.match", error.message, at: map.keyLocation("path"))
                return nil
            }
        }

        func allows(_ node: LocatedNode, diagnostics: inout DiagnosticCollector) -> [AllowStatement] {
            guard let items = node.sequence else {
                diagnostics.error("yaml.type", "'allow' must be a list of 'methods: condition' entries", at: node.location)
                return []
            }
            var out: [AllowStatement] = []
            for item in items {
                guard let entries = item.mapping, entries.count == 1, let entry = entries.first, let key = entry.key.scalar?.text else {
                    diagnostics.error("rules.allow", "each allow entry is one 'methods: condition' pair, e.g. '- update, delete: isOwner(userId)'", at: item.location)
                    continue
                }
                var methods: [MethodName] = []
                // Empty words (`read,` or `,`) are unknown methods too: each comma separates two.
                for word in key.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    if let m = MethodName(rawValue: word) { methods.append(m) } else {
                        diagnostics.error(
                            "rules.allow", "unknown method '\(word)'; expected \(YAMLPolicyReader.methodNames.joined(separator: ", "))", at: entry.key.location)
                    }
                }
                let condition = entry.value.isNull ? nil : expression(entry.value, what: "allow condition", diagnostics: &diagnostics)
                out.append(AllowStatement(methods: methods, condition: condition, location: entry.key.location))
            }
            return out
        }

        func functions(_ node: LocatedNode, diagnostics: inout DiagnosticCollector) -> [FunctionDeclaration] {
            guard let entries = node.mapping else {
                diagnostics.error("yaml.type", "'functions' must map 'name(params)' to a return expression or to let/return", at: node.location)
                return []
            }
            var out: [FunctionDeclaration] = []
            for entry in entries {
                guard let signature = entry.key.scalar?.text, let (name, parameters) = parseSignature(signature) else {
                    diagnostics.error("rules.function", "a function key is its signature, e.g. 'isOwner(userId)'", at: entry.key.location)
                    continue
                }
                if entry.value.mapping != nil {
                    guard var map = YAMLMapping(entry.value, context: "function '\(name)'", diagnostics: &diagnostics) else { continue }
                    if let (lets, body) = functionBody(&map, name: name, diagnostics: &diagnostics) {
                        out.append(FunctionDeclaration(name: name, parameters: parameters, lets: lets, body: body, location: entry.key.location))
                    }
                } else if let body = expression(entry.value, what: "return expression", diagnostics: &diagnostics) {
                    out.append(FunctionDeclaration(name: name, parameters: parameters, lets: [], body: body, location: entry.key.location))
                }
            }
            return out
        }

        /// Reads a function written as `let:` and `return:` from `map` (in describing mode,
        /// records the two keys and returns `nil`).
        func functionBody(_ map: inout YAMLMapping, name: String, diagnostics: inout DiagnosticCollector) -> ([LetBinding], PolicyExpression)? {
            var lets: [LetBinding] = []
            if let letNode = map.value("let", shape: .list(YAMLPolicyReader.letShape)) {
                for item in letNode.sequence ?? [] {
                    guard let pairs = item.mapping, pairs.count == 1, let pair = pairs.first, let variable = pair.key.scalar?.text,
                          PathPattern.isIdentifier(variable)
                    else {
                        diagnostics.error("rules.function", "each let entry is one 'name: expression' pair, its name a word", at: item.location)
                        continue
                    }
                    if let value = expression(pair.value, what: "let value", diagnostics: &diagnostics) {
                        lets.append(LetBinding(name: variable, value: value, location: pair.key.location))
                    }
                }
                if letNode.sequence == nil { diagnostics.error("yaml.type", "'let' must be a list of 'name: expression' pairs", at: letNode.location) }
            }
            var body: PolicyExpression?
            if let returnNode = map.value("return", shape: YAMLPolicyReader.expressionShape, required: true) {
                body = expression(returnNode, what: "return expression", diagnostics: &diagnostics)
            } else if !map.isDescribing {
                diagnostics.error("rules.function", "function '\(name)' needs 'return:'", at: map.node.location)
            }
            map.reportUnknownKeys(&diagnostics)
            return body.map { (lets, $0) }
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
        func expression(_ node: LocatedNode, what: String, diagnostics: inout DiagnosticCollector) -> PolicyExpression? {
            // A plain null is no expression (write `"null"` for the literal).
            guard !node.isNull, let source = ExpressionSource(node) else {
                diagnostics.error("yaml.type", "the \(what) must be a string, not \(node.kindDescription)", at: node.location)
                return nil
            }
            // A `|` block keeps its final line break, which is no part of the expression.
            let text = source.text
            guard text.hasSuffix("\n") else { return PolicyExpression(source.sourceText) }
            return PolicyExpression(SourceText(String(text.dropLast()), lineOrigins: source.sourceText.lineOrigins))
        }
    }
}
