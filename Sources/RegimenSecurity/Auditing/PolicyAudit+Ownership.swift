import RegimenLanguage

/// Checks about who may write a user's documents: the owner comparison on user-scoped paths, and
/// plain allows that grant a write another allow of the same match only grants with validation.
extension Auditor {
    /// The source texts of a function's body, and of every function it calls, transitively.
    func expandedText(ofFunction name: String, visited: inout Set<String>) -> String {
        guard visited.insert(name).inserted else { return "" }
        var text = ""
        for info in policy.functions where info.declaration.name == name {
            let parts = info.partSources.map(\.text) + [info.parsedResult?.text.text ?? ""]
            text += parts.joined(separator: "\n") + "\n"
        }
        for other in functionParameters.keys where other != name && text.contains(other + "(") {
            text += expandedText(ofFunction: other, visited: &visited)
        }
        return text
    }

    /// The condition of `allow` with the bodies of the functions it calls, as text.
    func expandedText(of allow: CompiledAllow) -> String {
        guard let condition = allow.condition?.source.text else { return "" }
        var text = condition + "\n"
        var visited = Set<String>()
        for name in functionParameters.keys where condition.contains(name + "(") {
            text += expandedText(ofFunction: name, visited: &visited)
        }
        return text
    }

    /// Whether `expr` contains `request.auth.uid == wildcard` (either order), following calls
    /// into user functions with their parameters bound to the arguments' names.
    func comparesUid(_ expr: Expr, with wildcard: String, bindings: [String: String], depth: Int = 0) -> Bool {
        guard depth < 16 else { return false }
        func isUid(_ e: Expr) -> Bool {
            if case .member(.member(.identifier("request", _), "auth", _), "uid", _) = e { return true }
            return false
        }
        func names(_ e: Expr) -> Bool {
            if case .identifier(let name, _) = e { return (bindings[name] ?? name) == wildcard }
            return false
        }
        switch expr {
        case .binary(.equal, let l, let r, _) where (isUid(l) && names(r)) || (isUid(r) && names(l)):
            return true
        case .call(.identifier(let name, _), let arguments, _):
            let parameters = functionParameters[name] ?? []
            var inner: [String: String] = [:]
            for (parameter, argument) in zip(parameters, arguments) {
                if case .identifier(let argumentName, _) = argument { inner[parameter] = bindings[argumentName] ?? argumentName }
            }
            for body in functionBodies[name] ?? [] where comparesUid(body, with: wildcard, bindings: inner, depth: depth + 1) {
                return true
            }
            return arguments.contains { comparesUid($0, with: wildcard, bindings: bindings, depth: depth + 1) }
        default:
            return expr.children.contains { comparesUid($0, with: wildcard, bindings: bindings, depth: depth + 1) }
        }
    }

    /// On a path under `users/{id}`, an allow that never compares `request.auth.uid` with the
    /// path's user id (nor restricts itself to a token claim such as `admin`) lets every signed-in
    /// user act on every user's documents.
    mutating func checkUserScopedOwnership() {
        for (allow, _, pattern) in allowsWithBlocks {
            var userWildcard: String?
            for (index, segment) in pattern.enumerated() {
                guard case .literal("users") = segment, index + 1 < pattern.count, case .wildcard(let name) = pattern[index + 1] else { continue }
                userWildcard = name
                break
            }
            guard let wildcard = userWildcard else { continue }
            if let expression = allow.expression, comparesUid(expression, with: wildcard, bindings: [:]) { continue }
            // A grant for a claim-holding role (admins, support) is a deliberate decision, not a missing owner check.
            if expandedText(of: allow).contains("request.auth.token") { continue }
            let methods = allow.methods.sorted().map(\.rawValue).joined(separator: ", ")
            add(.error, "audit.missing-owner-check",
                "'allow \(allow.statement.methodList)' on a path of user {\(wildcard)} never compares request.auth.uid with \(wildcard)",
                at: allow.statement.location,
                "This match is scoped to one user (users/{\(wildcard)}/…), but the condition grants \(methods) without checking `request.auth.uid == \(wildcard)`, so any signed-in user (or anyone, when it does not check sign-in) can act on every user's documents. Add the ownership comparison, or restrict the grant to a role claim such as `request.auth.token.admin == true`.")
        }
    }

    /// A plain allow (one that never reads `request.resource`) for a write method that another
    /// allow of the same match grants only with validation: the plain one decides alone.
    mutating func checkPlainAllowShadowingValidation() {
        let entries = allowsWithBlocks
        for plain in entries {
            guard !expandedText(of: plain.allow).contains("request.resource") else { continue }
            for validated in entries where validated.allow.id != plain.allow.id && validated.block.block.location == plain.block.block.location {
                let shared = plain.allow.methods.intersection(validated.allow.methods).filter { $0 == .create || $0 == .update }
                guard !shared.isEmpty, expandedText(of: validated.allow).contains("request.resource") else { continue }
                // The general shadowing check already explains this pair.
                if findings.contains(where: { $0.id == "audit.shadowed-validation" && $0.location == validated.allow.statement.location }) { continue }
                let methods = shared.sorted().map(\.rawValue).joined(separator: ", ")
                add(.error, "audit.plain-allow-shadows-validation",
                    "'allow \(plain.allow.statement.methodList)' at line \(plain.allow.statement.location.line) grants \(methods) without validating request.resource, so the validation of 'allow \(validated.allow.statement.methodList)' here never decides",
                    at: validated.allow.statement.location,
                    "Firestore grants a request when any allow statement is true. The statement at line \(plain.allow.statement.location.line) never looks at the written data, so whenever it is true any data is accepted for \(methods), and this statement's checks of request.resource only matter for callers the plain one already refuses. Put the validation into every allow that grants \(methods) (or remove the plain one).")
            }
        }
    }
}
