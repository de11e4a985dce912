@testable import RegimenLanguage
@testable import RegimenSecurity

/// Generated mutants of a policy: one small change each, of the kinds that model real mistakes
/// (drop a conjunct, negate a comparison, swap `&&`/`||`, change a constant, remove a method,
/// widen a match segment to a wildcard).
struct PolicyMutant {
    var description: String
    var policy: SecurityPolicy
}

enum PolicyMutants {
    /// Every mutant of `policy`, in a fixed order.
    static func all(_ policy: SecurityPolicy) -> [PolicyMutant] {
        var out: [PolicyMutant] = []
        // Conditions of allow statements, addressed by their index in source order.
        let allows = policy.allAllows
        for (index, allow) in allows.enumerated() {
            if let condition = allow.condition {
                for (what, text) in expressionMutants(condition.text) {
                    out.append(PolicyMutant(description: "\(allow.location): \(what)", policy: replacingCondition(policy, index, text)))
                }
            }
            if allow.methods.count > 1 {
                for removed in allow.methods.indices {
                    out.append(PolicyMutant(
                        description: "\(allow.location): remove method \(allow.methods[removed].rawValue)",
                        policy: mapAllows(policy) { i, a in
                            guard i == index else { return a }
                            var copy = a
                            copy.methods.remove(at: removed)
                            return copy
                        }))
                }
            } else {
                out.append(PolicyMutant(description: "\(allow.location): remove the statement", policy: mapAllows(policy) { i, a in
                    guard i == index else { return a }
                    var copy = a
                    copy.condition = PolicyExpression(SourceText("false"))
                    return copy
                }))
            }
        }
        for function in policy.allFunctions {
            for (what, text) in expressionMutants(function.body.text) {
                out.append(PolicyMutant(description: "\(function.location) \(function.name): \(what)", policy: replacingFunction(policy, function.location, text)))
            }
        }
        out += widenedSegments(policy)
        return out
    }

    /// Text mutants of one expression: each applicable node changed once.
    static func expressionMutants(_ text: String) -> [(String, String)] {
        guard case .success(let root) = Parser.parse(text) else { return [] }
        let scalars = Array(text.unicodeScalars)
        func slice(_ span: SourceSpan) -> String {
            guard span.start >= 0, span.end <= scalars.count, span.start <= span.end else { return "" }
            return String(String.UnicodeScalarView(scalars[span.start..<span.end]))
        }
        func replacing(_ span: SourceSpan, with replacement: String) -> String {
            slice(SourceSpan(start: 0, end: span.start)) + replacement + slice(SourceSpan(start: span.end, end: scalars.count))
        }
        var out: [(String, String)] = []
        var stack = [root]
        while let node = stack.popLast() {
            stack.append(contentsOf: node.children)
            switch node {
            case .binary(let op, let l, let r, let span):
                let lt = slice(l.span), rt = slice(r.span)
                switch op {
                case .and:
                    out.append(("drop conjunct '\(rt)'", replacing(span, with: "(\(lt))")))
                    out.append(("drop conjunct '\(lt)'", replacing(span, with: "(\(rt))")))
                    out.append(("&& → ||", replacing(span, with: "((\(lt)) || (\(rt)))")))
                case .or:
                    out.append(("|| → &&", replacing(span, with: "((\(lt)) && (\(rt)))")))
                case .equal: out.append(("== → !=", replacing(span, with: "((\(lt)) != (\(rt)))")))
                case .notEqual: out.append(("!= → ==", replacing(span, with: "((\(lt)) == (\(rt)))")))
                case .less: out.append(("< → <=", replacing(span, with: "((\(lt)) <= (\(rt)))")))
                case .lessEqual: out.append(("<= → <", replacing(span, with: "((\(lt)) < (\(rt)))")))
                case .greater: out.append(("> → >=", replacing(span, with: "((\(lt)) >= (\(rt)))")))
                case .greaterEqual: out.append((">= → >", replacing(span, with: "((\(lt)) > (\(rt)))")))
                default: break
                }
            case .literal(.int(let i), let span): out.append(("\(i) → \(i + 1)", replacing(span, with: "\(i + 1)")))
            case .literal(.string(let s), let span): out.append(("'\(s)' → '\(s)x'", replacing(span, with: "'\(s)x'")))
            case .literal(.bool(let b), let span): out.append(("\(b) → \(!b)", replacing(span, with: "\(!b)")))
            default: break
            }
        }
        return out
    }

    static func mapAllows(_ policy: SecurityPolicy, _ transform: (Int, AllowStatement) -> AllowStatement) -> SecurityPolicy {
        var index = 0
        func visit(_ block: MatchBlock) -> MatchBlock {
            var copy = block
            copy.allows = block.allows.map { allow in
                defer { index += 1 }
                return transform(index, allow)
            }
            copy.children = block.children.map(visit)
            return copy
        }
        var copy = policy
        copy.matches = policy.matches.map(visit)
        return copy
    }

    static func replacingCondition(_ policy: SecurityPolicy, _ index: Int, _ text: String) -> SecurityPolicy {
        mapAllows(policy) { i, allow in
            guard i == index, let old = allow.condition else { return allow }
            var copy = allow
            copy.condition = PolicyExpression(SourceText(text, lineOrigins: old.source.lineOrigins))
            return copy
        }
    }

    static func replacingFunction(_ policy: SecurityPolicy, _ location: SourceLocation, _ text: String) -> SecurityPolicy {
        func change(_ functions: [FunctionDeclaration]) -> [FunctionDeclaration] {
            functions.map { f in
                guard f.location == location else { return f }
                var copy = f
                copy.body = PolicyExpression(SourceText(text, lineOrigins: f.body.source.lineOrigins))
                return copy
            }
        }
        func visit(_ block: MatchBlock) -> MatchBlock {
            var copy = block
            copy.functions = change(block.functions)
            copy.children = block.children.map(visit)
            return copy
        }
        var copy = policy
        copy.functions = change(policy.functions)
        copy.matches = policy.matches.map(visit)
        return copy
    }

    /// Each literal match segment (below the documents root) widened to a wildcard.
    static func widenedSegments(_ policy: SecurityPolicy) -> [PolicyMutant] {
        var out: [PolicyMutant] = []
        var counter = 0
        func widen(_ blocks: [MatchBlock], target: Int, depth: Int) -> [MatchBlock] {
            blocks.map { block in
                var copy = block
                for (i, segment) in block.pattern.segments.enumerated() {
                    guard case .literal(let text) = segment, depth > 0 || !["databases", "documents"].contains(text) else { continue }
                    if counter == target { copy.pattern.segments[i] = .wildcard("widened_\(text.filter { $0.isLetter })") }
                    counter += 1
                }
                copy.children = widen(block.children, target: target, depth: depth + 1)
                return copy
            }
        }
        var target = 0
        while true {
            counter = 0
            var copy = policy
            copy.matches = widen(policy.matches, target: target, depth: 0)
            if target >= counter { break }
            out.append(PolicyMutant(description: "widen match segment #\(target + 1) to a wildcard", policy: copy))
            target += 1
        }
        return out
    }
}
