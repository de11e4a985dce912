public import RegimenLanguage
import Foundation

/// A policy mistake found without running any test: a ``Diagnostic`` (its id such as
/// `audit.shadowed-validation`, severity, message and location) with a paragraph saying why it
/// matters and what to do.
public struct AuditFinding: Sendable, Hashable {
    /// What was found and where; a finding always has a location.
    public private(set) var diagnostic: Diagnostic
    /// Where in the policy (the same as `diagnostic.location`, never absent).
    public let location: SourceLocation
    /// One paragraph: why this is a problem and what to do.
    public var explanation: String

    /// A finding of the given severity and id at `location`, with its explanation.
    public init(severity: Severity, id: String, message: String, location: SourceLocation, explanation: String) {
        self.diagnostic = Diagnostic(severity, id: id, message, at: location)
        self.location = location
        self.explanation = explanation
    }

    /// How serious the finding is.
    public var severity: Severity { diagnostic.severity }
    /// Stable id, e.g. `audit.shadowed-validation`.
    public var id: String { diagnostic.id }
    /// What is wrong, in one line.
    public var message: String { diagnostic.message }

    /// `file:line:col: severity: message [id]` followed by the indented explanation.
    public var rendered: String {
        "\(location): \(severity.rawValue): \(message) [\(id)]\n    \(explanation)"
    }
}

/// Static checks over a compiled policy (see ``audit(_:)``).
package enum PolicyAudit {
    /// Runs every check and returns the findings in file order.
    package static func audit(_ policy: CompiledPolicy) -> [AuditFinding] {
        var auditor = Auditor(policy: policy)
        auditor.run()
        auditor.findings += PatternAudit.findings(policy.policy)
        return auditor.findings.sorted { ($0.location, $0.id) < ($1.location, $1.id) }
    }
}

struct Auditor {
    let policy: CompiledPolicy
    var findings: [AuditFinding] = []
    /// Parsed function results by name (later declarations shadow earlier ones of the same name
    /// only in their own scope; for static checks any declaration of the name is considered).
    var functionBodies: [String: [Expr]] = [:]
    var functionParameters: [String: [String]] = [:]

    init(policy: CompiledPolicy) {
        self.policy = policy
        for info in policy.functions {
            if let parsed = info.parsedResult { functionBodies[info.declaration.name, default: []].append(parsed.expr) }
            functionParameters[info.declaration.name] = info.declaration.parameters
        }
    }

    mutating func run() {
        checkUnconditionalWrites()
        checkShadowedValidation()
        checkPlainAllowShadowingValidation()
        checkUserScopedOwnership()
        checkNegatedNonBooleans()
        checkRequestResourceInReads()
        checkUnusedFunctions()
        checkUnreachableMatches()
        checkRecursiveWildcards()
    }

    // MARK: Expression helpers

    /// The source text of an allow condition's sub-expression, whitespace collapsed and outer
    /// parentheses removed, for comparing conditions.
    func text(_ expr: Expr, of allow: CompiledAllow) -> String {
        guard let source = allow.condition?.source.text else { return "" }
        return normalize(slice(source, expr.span))
    }

    func slice(_ text: String, _ span: SourceSpan) -> String {
        let scalars = Array(text.unicodeScalars)
        let start = max(0, min(span.start, scalars.count)), end = max(start, min(span.end, scalars.count))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }

    func normalize(_ text: String) -> String {
        var t = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
        while t.hasPrefix("("), t.hasSuffix(")"), balanced(String(t.dropFirst().dropLast())) { t = String(t.dropFirst().dropLast()) }
        return t
    }

    func balanced(_ text: String) -> Bool {
        var depth = 0
        for c in text {
            if c == "(" { depth += 1 }
            if c == ")" { depth -= 1; if depth < 0 { return false } }
        }
        return depth == 0
    }

    func conjuncts(_ expr: Expr) -> [Expr] {
        if case .binary(.and, let l, let r, _) = expr { return conjuncts(l) + conjuncts(r) }
        return [expr]
    }

    func disjuncts(_ expr: Expr) -> [Expr] {
        if case .binary(.or, let l, let r, _) = expr { return disjuncts(l) + disjuncts(r) }
        return [expr]
    }

    /// Whether `a` implies `b`, judged on the syntax: equal text, `a` is one of `b`'s
    /// disjuncts, or one of `a`'s conjuncts implies `b`; and for a conjunction `b`, `a` implies
    /// each of its conjuncts.
    func implies(_ a: Expr, _ b: Expr, _ allowA: CompiledAllow, _ allowB: CompiledAllow) -> Bool {
        let bConjuncts = conjuncts(b)
        if bConjuncts.count > 1 { return bConjuncts.allSatisfy { implies(a, $0, allowA, allowB) } }
        let bText = text(b, of: allowB)
        for conjunct in conjuncts(a) {
            let aText = text(conjunct, of: allowA)
            if aText == bText || aText == "false" { return true }
            if disjuncts(b).count > 1, disjuncts(b).contains(where: { text($0, of: allowB) == aText }) { return true }
        }
        return bText == "true"
    }

    func location(_ expr: Expr, of allow: CompiledAllow) -> SourceLocation {
        allow.condition?.source.location(ofScalarOffset: expr.span.start) ?? allow.statement.location
    }

    /// Every allow with the match block it belongs to and the block's absolute pattern.
    var allowsWithBlocks: [(allow: CompiledAllow, block: CompiledMatch, pattern: [PathPatternSegment])] {
        var out: [(CompiledAllow, CompiledMatch, [PathPatternSegment])] = []
        func visit(_ node: CompiledMatch, _ prefix: [PathPatternSegment]) {
            let pattern = prefix + node.pattern
            for id in node.allowIDs { out.append((policy.allows[id], node, pattern)) }
            for child in node.children { visit(child, pattern) }
        }
        for root in policy.roots { visit(root, []) }
        return out
    }

    mutating func add(_ severity: Severity, _ id: String, _ message: String, at location: SourceLocation, _ explanation: String) {
        let finding = AuditFinding(severity: severity, id: id, message: message, location: location, explanation: explanation)
        if !findings.contains(finding) { findings.append(finding) }
    }

    // MARK: Checks

    /// `allow write;` or `allow create: if true;`
    mutating func checkUnconditionalWrites() {
        for allow in policy.allows {
            let writes = allow.methods.filter(\.isWrite)
            guard !writes.isEmpty else { continue }
            let unconditional = allow.condition == nil || allow.expression.map { text($0, of: allow) == "true" } == true
            guard unconditional else { continue }
            add(.error, "audit.unconditional-write", "'allow \(allow.statement.methodList)' grants writes to everyone", at: allow.statement.location,
                "An allow statement for \(writes.sorted().map(\.rawValue).joined(separator: ", ")) without a condition (or with `if true`) lets any client, signed in or not, write any data to every document this match covers, and no other statement can take that back: Firestore grants a request when any allow is true. Check at least `request.auth != null`, ownership, and the shape of `request.resource.data`.")
        }
    }

    /// An allow that grants whenever a stricter allow on the same match and method would, so
    /// the stricter one's extra checks never decide anything.
    mutating func checkShadowedValidation() {
        let entries = allowsWithBlocks
        for (i, weak) in entries.enumerated() {
            for (j, strict) in entries.enumerated() where i != j && weak.block.block.location == strict.block.block.location {
                let shared = weak.allow.methods.intersection(strict.allow.methods)
                guard !shared.isEmpty, let strictExpr = strict.allow.expression else { continue }
                let weakExpr = weak.allow.expression
                let methods = shared.sorted().map(\.rawValue).joined(separator: ", ")
                // Everything `strict` grants, `weak` grants too: strict is redundant.
                let weakAlways = weakExpr == nil || weakExpr.map { text($0, of: weak.allow) == "true" } == true
                let strictConjuncts = conjuncts(strictExpr)
                if weakAlways || (weakExpr.map { implies(strictExpr, $0, strict.allow, weak.allow) } ?? false) {
                    let extra = strictConjuncts.filter { c in
                        guard let weakExpr else { return true }
                        return !implies(weakExpr, c, weak.allow, strict.allow)
                    }
                    guard !extra.isEmpty else { continue }
                    let checks = extra.map { "`\(text($0, of: strict.allow))`" }.joined(separator: " and ")
                    add(.error, "audit.shadowed-validation",
                        "'allow \(weak.allow.statement.methodList)' at line \(weak.allow.statement.location.line) grants every \(methods) that 'allow \(strict.allow.statement.methodList)' here validates, so \(checks) never takes effect",
                        at: strict.allow.statement.location,
                        "Firestore grants a request when any allow statement of any matching block is true. The statement at line \(weak.allow.statement.location.line) is true whenever this one is, without \(checks), so for \(methods) this statement's extra checks can never turn a request down. Fold the checks into the weaker statement (or remove it) so that every grant of \(methods) passes them.")
                    continue
                }
                // `weak` grants, for part of `strict`'s callers, without strict's checks.
                guard let weakExpr else { continue }
                // Only when the weak statement adds no restriction of its own: each of its
                // conjuncts implies one of the strict statement's (a guard such as ownership).
                // Two statements for different roles that share `signedIn()` are not a bypass.
                let weakOnlyGuards = conjuncts(weakExpr).allSatisfy { wc in
                    strictConjuncts.contains { implies(wc, $0, weak.allow, strict.allow) }
                }
                let skipped = strictConjuncts.filter { c in !implies(weakExpr, c, weak.allow, strict.allow) }
                guard weakOnlyGuards, !skipped.isEmpty else { continue }
                let checks = skipped.map { "`\(text($0, of: strict.allow))`" }.joined(separator: " and ")
                add(.error, "audit.shadowed-validation",
                    "'allow \(weak.allow.statement.methodList)' at line \(weak.allow.statement.location.line) grants \(methods) when `\(text(weakExpr, of: weak.allow))` without \(checks) that this statement requires",
                    at: strict.allow.statement.location,
                    "Whenever `\(text(weakExpr, of: weak.allow))` holds, the statement at line \(weak.allow.statement.location.line) already grants \(methods), so \(checks) is skipped for exactly those callers (for example the owner writing invalid data). Any allow that is true decides; a validation only takes effect when every allow for the method includes it.")
            }
        }
    }

    /// Helper functions that are pure type tests: `isString(v) { return v is string; }`.
    var typeTestFunctions: [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for (name, bodies) in functionBodies {
            guard let body = bodies.first, functionParameters[name]?.count == 1 else { continue }
            var types = Set<String>()
            var pure = true
            for d in disjuncts(body) {
                if case .isType(.identifier, let type, _) = d { types.insert(type) } else { pure = false }
            }
            if pure, !types.isEmpty { out[name] = types }
        }
        return out
    }

    /// `!x` where `x` is a field read that is elsewhere treated as a non-bool: `!` on a string,
    /// number or missing field is an error, so the condition errors for every input.
    mutating func checkNegatedNonBooleans() {
        let typeTests = typeTestFunctions
        func nonBoolTexts(_ expr: Expr, _ source: String) -> Set<String> {
            var out = Set<String>()
            func walk(_ e: Expr) {
                switch e {
                case .isType(let inner, let type, _) where type != "bool":
                    out.insert(normalize(slice(source, inner.span)))
                case .call(.identifier(let name, _), let args, _) where args.count == 1 && typeTests[name].map { !$0.contains("bool") } == true:
                    out.insert(normalize(slice(source, args[0].span)))
                case .call(.member(let receiver, "size", _), _, _):
                    out.insert(normalize(slice(source, receiver.span)))
                case .binary(let op, let l, let r, _) where [.less, .lessEqual, .greater, .greaterEqual].contains(op):
                    out.insert(normalize(slice(source, l.span)))
                    out.insert(normalize(slice(source, r.span)))
                case .binary(let op, let l, let r, _) where op == .equal || op == .notEqual:
                    // Compared with something that is not a bool or null literal: a non-bool value.
                    func isBoolOrNull(_ e: Expr) -> Bool {
                        if case .literal(let v, _) = e { return v.boolValue != nil || v.isNull }
                        return false
                    }
                    if !isBoolOrNull(r) { out.insert(normalize(slice(source, l.span))) }
                    if !isBoolOrNull(l) { out.insert(normalize(slice(source, r.span))) }
                default: break
                }
                e.children.forEach(walk)
            }
            walk(expr)
            return out
        }
        func check(_ expr: Expr, _ source: SourceText, _ context: String) {
            let nonBool = nonBoolTexts(expr, source.text)
            func walk(_ e: Expr) {
                if case .unary(.not, let operand, _) = e, case .member = operand {
                    let operandText = normalize(slice(source.text, operand.span))
                    if nonBool.contains(operandText) {
                        add(.error, "audit.always-errors",
                            "`!\(operandText)` errors for every input: \(operandText) is used as a non-bool value in \(context)",
                            at: source.location(ofScalarOffset: e.span.start) ?? SourceLocation(file: policy.policy.origin.file, line: 1, column: 1),
                            "`!` only accepts a bool. When \(operandText) holds a string or number, `!\(operandText)` is an error, and when the field is missing, reading it is an error too, so this never means \"the field is absent\". The `||` around it may absorb the error when the other side is true, but when that side is false or errors (a missing field), the whole condition errors and denies. Test presence with `!('\(operandText.split(separator: ".").last ?? "")' in \(operandText.split(separator: ".").dropLast().joined(separator: ".")))` or `\(operandText.split(separator: ".").dropLast().joined(separator: ".")).get('\(operandText.split(separator: ".").last ?? "")', null) == null`.")
                    }
                }
                e.children.forEach(walk)
            }
            walk(expr)
        }
        for info in policy.functions {
            guard let parsed = info.parsedResult else { continue }
            check(parsed.expr, parsed.text, "function '\(info.declaration.name)'")
        }
        for allow in policy.allows {
            guard let expr = allow.expression, let source = allow.condition?.source else { continue }
            check(expr, source, "this condition")
        }
    }

    /// Names of user functions an expression calls, directly or through other functions.
    func calledFunctions(_ expr: Expr) -> Set<String> {
        var out = Set<String>()
        var pending = [expr]
        while let e = pending.popLast() {
            if case .call(.identifier(let name, _), _, _) = e, functionBodies[name] != nil, out.insert(name).inserted {
                pending.append(contentsOf: functionBodies[name] ?? [])
                for info in policy.functions where info.declaration.name == name {
                    for part in info.partSources.dropLast() { if case .success(let letExpr) = Parser.parse(part.text) { pending.append(letExpr) } }
                }
            }
            pending.append(contentsOf: e.children)
        }
        return out
    }

    func mentionsRequestResource(_ expr: Expr) -> Bool {
        var found = false
        func walk(_ e: Expr) {
            if case .member(.identifier("request", _), "resource", _) = e { found = true }
            e.children.forEach(walk)
        }
        walk(expr)
        return found
    }

    /// `request.resource` in a rule for get or list: it is undefined on reads, so the statement
    /// errors and never grants the read.
    mutating func checkRequestResourceInReads() {
        for allow in policy.allows {
            let reads = allow.methods.filter(\.isRead)
            guard !reads.isEmpty, let expr = allow.expression else { continue }
            var direct = mentionsRequestResource(expr)
            var via: [String] = []
            for name in calledFunctions(expr).sorted() where (functionBodies[name] ?? []).contains(where: mentionsRequestResource) {
                via.append(name)
                direct = true
            }
            guard direct else { continue }
            let through = via.isEmpty ? "" : " (through \(via.map { "\($0)()" }.joined(separator: ", ")))"
            add(.warning, "audit.request-resource-in-read",
                "'allow \(allow.statement.methodList)' reads request.resource\(through) but also applies to \(reads.sorted().map(\.rawValue).joined(separator: ", "))",
                at: allow.statement.location,
                "`request.resource` is the document as it would be after a write; on get and list it is undefined, so reading it is an error and the statement never grants a read. If the statement is meant for writes, list only write methods; if it is meant for reads, test `resource.data` instead.")
        }
    }

    /// Functions declared but never called from any condition or other function.
    mutating func checkUnusedFunctions() {
        var used = Set<String>()
        for allow in policy.allows { if let expr = allow.expression { used.formUnion(calledFunctions(expr)) } }
        for info in policy.functions where !used.contains(info.declaration.name) {
            add(.warning, "audit.unused-function", "function '\(info.declaration.name)' is never called", at: info.declaration.location,
                "No allow condition calls this function, directly or through another function, so it decides nothing. Remove it, or call it where it was meant to apply; an unused validation helper often means a check that was intended but never wired in.")
        }
    }

    /// Matches that no request path can reach completely.
    mutating func checkUnreachableMatches() {
        let prefix: [String] = policy.policy.service == .firestore ? ["databases", "*", "documents"] : ["b", "*", "o"]
        func visit(_ node: CompiledMatch, _ pattern: [PathPatternSegment], reachable: Bool) {
            let full = pattern + node.pattern
            let hasRecursive = full.contains { if case .recursive = $0 { true } else { false } }
            var ok = reachable
            // The service prefix must line up with the pattern's first segments.
            for (index, expected) in prefix.enumerated() where index < full.count {
                if case .literal(let literal) = full[index], expected != "*", literal != expected { ok = false }
                if case .recursive = full[index] { break }
            }
            if !hasRecursive, full.count < prefix.count, node.children.isEmpty { ok = false }
            if ok, !hasRecursive, policy.policy.service == .firestore, full.count >= prefix.count, (full.count - prefix.count) % 2 == 1, !node.allowIDs.isEmpty {
                add(.warning, "audit.collection-match", "match \(node.block.pattern) points to a collection, not to documents",
                    at: node.block.location,
                    "A Firestore request always names a document (a collection path plus a document id; a list is matched as its collection plus any id). This match ends on a collection segment, so its allow statements are never a complete match and never grant anything. Add the document wildcard, e.g. `match \(node.block.pattern)/{id}`.")
            } else if !ok, reachable {
                add(.warning, "audit.unreachable-match", "no request path can reach match \(node.block.pattern)", at: node.block.location,
                    "Every \(policy.policy.service == .firestore ? "Firestore" : "Storage") request path starts with /\(prefix.joined(separator: "/").replacingOccurrences(of: "*", with: "{…}")). This match (with its enclosing matches) cannot line up with that, so its allow statements never apply.")
            }
            // After a version-1 recursive wildcard nothing is left for nested matches.
            let consumesAll = !policy.policy.usesVersion2 && node.pattern.contains { if case .recursive = $0 { true } else { false } }
            for child in node.children {
                if consumesAll, ok {
                    add(.warning, "audit.unreachable-match", "no request path can reach match \(child.block.pattern)", at: child.block.location,
                        "Without rules_version = '2' a recursive wildcard takes every remaining segment, so a match nested under it never sees a path.")
                    visit(child, full, reachable: false)
                } else {
                    visit(child, full, reachable: ok)
                }
            }
        }
        for root in policy.roots { visit(root, [], reachable: true) }
    }

    /// A recursive wildcard whose allows grant methods on paths that another match covers more
    /// strictly (or not at all), including, in v2, the parent document itself.
    mutating func checkRecursiveWildcards() {
        let entries = allowsWithBlocks
        for recursive in entries where recursive.block.pattern.contains(where: { if case .recursive = $0 { true } else { false } }) {
            for other in entries where other.block.block.location != recursive.block.block.location {
                guard covers(recursive.pattern, other.pattern) else { continue }
                let shared = recursive.allow.methods.intersection(other.allow.methods)
                for method in shared.sorted() {
                    let stricter: Bool
                    if let recursiveExpr = recursive.allow.expression, let otherExpr = other.allow.expression {
                        stricter = implies(otherExpr, recursiveExpr, other.allow, recursive.allow) && text(otherExpr, of: other.allow) != text(recursiveExpr, of: recursive.allow)
                    } else {
                        stricter = recursive.allow.expression == nil && other.allow.expression != nil
                    }
                    guard stricter else { continue }
                    add(.warning, "audit.recursive-wildcard-opens",
                        "recursive wildcard match \(recursive.block.block.pattern) grants \(method.rawValue) on \(describe(other.pattern)) more widely than its own match at line \(other.block.block.location.line)",
                        at: recursive.allow.statement.location,
                        "`{name=**}` matches every path below it (in rules_version 2 also zero segments, i.e. the parent document itself). Its 'allow \(recursive.allow.statement.methodList)' is true whenever the stricter 'allow \(other.allow.statement.methodList)' at line \(other.allow.statement.location.line) is, so for \(method.rawValue) that match's checks never decide. Narrow the recursive match (name the collections it is for) or give it the same checks.")
                    break
                }
            }
        }
    }

    /// Whether `general` (with a recursive wildcard) matches every path `specific` matches.
    func covers(_ general: [PathPatternSegment], _ specific: [PathPatternSegment]) -> Bool {
        func step(_ g: Int, _ s: Int) -> Bool {
            if g == general.count { return s == specific.count }
            switch general[g] {
            case .recursive:
                if !policy.policy.usesVersion2, s == specific.count { return false }
                return (s...specific.count).contains { step(g + 1, $0) }
            case .wildcard:
                guard s < specific.count else { return false }
                if case .recursive = specific[s] { return false }
                return step(g + 1, s + 1)
            case .literal(let literal):
                guard s < specific.count, case .literal(let other) = specific[s], other == literal else { return false }
                return step(g + 1, s + 1)
            }
        }
        return step(0, 0)
    }

    func describe(_ pattern: [PathPatternSegment]) -> String { "/" + pattern.map(\.text).joined(separator: "/") }
}
