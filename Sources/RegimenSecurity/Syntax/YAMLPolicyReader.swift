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
package enum YAMLPolicyReader {
    package static func parse(_ text: String, file: String) throws(DiagnosticsError) -> SecurityPolicy {
        var diagnostics = DiagnosticCollector()
        let root = try SecurityYAML.read(text, file: file)
        let reader = Reader()
        guard var top = YAMLMapping(root, context: "the policy", diagnostics: &diagnostics) else { throw DiagnosticsError(diagnostics.diagnostics) }
        // `security-rules` is the deprecated spelling (`regimen check` warns about it).
        let kind = top.string("kind", diagnostics: &diagnostics)
        if kind != "security_rules" && kind != "security-rules" {
            diagnostics.error("rules.kind", "expected 'kind: security_rules'", at: top.keyLocation("kind") ?? root.location)
        }
        if let version = top.value("version"), version.scalar?.text != "1" {
            diagnostics.error("rules.version", "unsupported version '\(version.scalar?.text ?? "?")'; expected 1", at: version.location)
        }
        var rulesVersion: String?
        if let node = top.value("rules_version") {
            rulesVersion = node.scalar?.text
            if rulesVersion != "1" && rulesVersion != "2" {
                diagnostics.error("rules.version", "rules_version must be \"1\" or \"2\"", at: node.location)
            }
        }
        var service = SecurityService.firestore
        if let name = top.string("service", diagnostics: &diagnostics) {
            if let s = SecurityService(rawValue: name) { service = s } else {
                diagnostics.error("rules.service", "unknown service '\(name)'; expected cloud.firestore or firebase.storage", at: top.keyLocation("service"))
            }
        } else {
            diagnostics.error("rules.service", "missing 'service: cloud.firestore' or 'service: firebase.storage'", at: root.location)
        }
        let functions = top.value("functions").map { reader.functions($0, diagnostics: &diagnostics) } ?? []
        let matches = top.value("match").map { reader.matches($0, diagnostics: &diagnostics) } ?? []
        top.reportUnknownKeys(&diagnostics)
        if diagnostics.hasErrors { throw DiagnosticsError(diagnostics.diagnostics) }
        let policy = SecurityPolicy(
            rulesVersion: rulesVersion, service: service, functions: functions, matches: matches,
            origin: PolicyOrigin(file: file, text: text, syntax: .yaml))
        return policy
    }

    private struct Reader {
        func matches(_ node: LocatedNode, diagnostics: inout DiagnosticCollector) -> [MatchBlock] {
            guard let items = node.sequence else {
                diagnostics.error("yaml.type", "'match' must be a list of blocks with 'path:'", at: node.location)
                return []
            }
            return items.compactMap { match($0, diagnostics: &diagnostics) }
        }

        func match(_ node: LocatedNode, diagnostics: inout DiagnosticCollector) -> MatchBlock? {
            guard var map = YAMLMapping(node, context: "a match block", diagnostics: &diagnostics) else { return nil }
            guard let pathText = map.string("path", diagnostics: &diagnostics) else {
                diagnostics.error("rules.match", "a match block needs 'path:'", at: node.location)
                return nil
            }
            let pattern: PathPattern
            switch PathPattern.parse(pathText) {
            case .success(let p): pattern = p
            case .failure(let error):
                diagnostics.error("rules.match", error.message, at: map.keyLocation("path"))
                return nil
            }
            let functions = map.value("functions").map { self.functions($0, diagnostics: &diagnostics) } ?? []
            let allows = map.value("allow").map { self.allows($0, diagnostics: &diagnostics) } ?? []
            let children = map.value("match").map { matches($0, diagnostics: &diagnostics) } ?? []
            map.reportUnknownKeys(&diagnostics)
            return MatchBlock(pattern: pattern, functions: functions, allows: allows, children: children, location: node.location)
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
                for word in key.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    if let m = MethodName(rawValue: word) { methods.append(m) } else {
                        diagnostics.error("rules.allow", "unknown method '\(word)'; expected read, write, get, list, create, update or delete", at: entry.key.location)
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
                var lets: [LetBinding] = []
                var body: PolicyExpression?
                if entry.value.mapping != nil {
                    guard var map = YAMLMapping(entry.value, context: "function '\(name)'", diagnostics: &diagnostics) else { continue }
                    if let letNode = map.value("let") {
                        for item in letNode.sequence ?? [] {
                            guard let pairs = item.mapping, pairs.count == 1, let pair = pairs.first, let variable = pair.key.scalar?.text else {
                                diagnostics.error("rules.function", "each let entry is one 'name: expression' pair", at: item.location)
                                continue
                            }
                            if let value = expression(pair.value, what: "let value", diagnostics: &diagnostics) {
                                lets.append(LetBinding(name: variable, value: value, location: pair.key.location))
                            }
                        }
                        if letNode.sequence == nil { diagnostics.error("yaml.type", "'let' must be a list of 'name: expression' pairs", at: letNode.location) }
                    }
                    if let returnNode = map.value("return") {
                        body = expression(returnNode, what: "return expression", diagnostics: &diagnostics)
                    } else {
                        diagnostics.error("rules.function", "function '\(name)' needs 'return:'", at: entry.value.location)
                    }
                    map.reportUnknownKeys(&diagnostics)
                } else {
                    body = expression(entry.value, what: "return expression", diagnostics: &diagnostics)
                }
                if let body {
                    out.append(FunctionDeclaration(name: name, parameters: parameters, lets: lets, body: body, location: entry.key.location))
                }
            }
            return out
        }

        func parseSignature(_ text: String) -> (String, [String])? {
            guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
            let name = text[..<open].trimmingCharacters(in: .whitespaces)
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            let parameters = inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard PathPattern.isIdentifier(name), parameters.allSatisfy(PathPattern.isIdentifier) else { return nil }
            return (name, parameters)
        }

        /// An expression scalar with the file position of each of its characters' lines.
        func expression(_ node: LocatedNode, what: String, diagnostics: inout DiagnosticCollector) -> PolicyExpression? {
            guard let source = ExpressionSource(node) else {
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
