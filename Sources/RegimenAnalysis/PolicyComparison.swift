package import RegimenLanguage
package import RegimenSecurity

/// `rules diff` and `rules prove`: questions over every path a policy matches, per method.
package enum PolicyComparison {
    /// One question's answer for one shape.
    package struct Entry: Sendable {
        package var shape: RequestShape
        /// For a diff: what the new version newly allows; for a proof: the counterexample search.
        package var first: Verdict
        /// For a diff: what the new version newly denies.
        package var second: Verdict?

        package init(shape: RequestShape, first: Verdict, second: Verdict?) {
            self.shape = shape
            self.first = first
            self.second = second
        }
    }

    /// Every full match path of `policy` that holds an allow statement (below
    /// `/databases/{database}/documents`), with the methods its statements name.
    static func matchPaths(_ policy: SecurityPolicy) -> [(pattern: [PathPatternSegment], methods: Set<AnalysedMethod>)] {
        var out: [(pattern: [PathPatternSegment], methods: Set<AnalysedMethod>)] = []
        func visit(_ block: MatchBlock, _ prefix: [PathPatternSegment]) {
            let full = prefix + block.pattern.segments
            let methods = Set(block.allows.flatMap { allow in allow.requestMethods.compactMap { AnalysedMethod(rawValue: $0.rawValue) } })
            if !methods.isEmpty {
                var relative = full
                if relative.count >= 3, case .literal("databases") = relative[0], case .literal("documents") = relative[2] { relative.removeFirst(3) }
                out.append((relative, methods))
            }
            block.children.forEach { visit($0, full) }
        }
        policy.matches.forEach { visit($0, []) }
        return out
    }

    /// The shapes `rules diff` asks about: each match path of either policy (recursive wildcards
    /// unrolled), with each method a statement at that path names in either policy.
    package static func diffShapes(_ old: SecurityPolicy, _ new: SecurityPolicy, maxRecursive: Int = 3) -> [RequestShape] {
        var shapes: [RequestShape] = []
        var seen = Set<String>()
        for (pattern, methods) in matchPaths(old) + matchPaths(new) {
            for method in AnalysedMethod.allCases where methods.contains(method) {
                for shape in RequestShape.shapes(method: method, pattern: pattern, maxRecursive: maxRecursive) {
                    let key = shape.method.rawValue + " " + shape.segments.map { if case .literal(let s) = $0 { "L" + s } else { "*" } }.joined(separator: "/")
                    if seen.insert(key).inserted { shapes.append(shape) }
                }
            }
        }
        return shapes
    }

    /// What `new` newly allows and newly denies compared with `old`, per shape.
    package static func diff(_ old: SecurityPolicy, _ new: SecurityPolicy, analyzer: PolicyAnalyzer) -> [Entry] {
        diffShapes(old, new).map { shape in
            let (allows, denies) = analyzer.equivalent(old, new, shape)
            return Entry(shape: shape, first: allows, second: denies)
        }
    }

    /// The policy that allows `methods` on `pattern` exactly when `assertion` holds: every
    /// request the real policy allows must satisfy it.
    package static func assertionPolicy(methodWord: String, pattern: String, assertion: String) throws(DiagnosticsError) -> SecurityPolicy {
        var text = pattern
        if text.hasSuffix("/**") { text = String(text.dropLast(3)) + "/{rest=**}" }
        let source = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match \(text) {
              allow \(methodWord): if \(assertion);
            }
          }
        }

        """
        return try PolicyLoader.parse(source, file: "--assert")
    }

    /// Every request of `shapes` that `policy` allows satisfies the assertion policy's condition.
    package static func prove(_ policy: SecurityPolicy, assertion: SecurityPolicy, shapes: [RequestShape], analyzer: PolicyAnalyzer) -> [Entry] {
        shapes.map { shape in
            Entry(shape: shape, first: analyzer.implies(policy, assertion, shape, name: "allowed but the assertion fails"), second: nil)
        }
    }
}

extension Verdict {
    /// The verdict for people: a headline, then (indented) the counterexample or the reason.
    package func rendered(proved: String, found: String) -> String {
        switch self {
        case .proved: return proved + "\n"
        case .counterexample(let c):
            return "\(found), confirmed by replay — counterexample (a security_tests case):\n" + c.testCase
        case .possible(let reason, let abstractions):
            var text = "\(found)? possible, unconfirmed: \(reason)\n"
            if !abstractions.isEmpty {
                text += "      the encoding abstracts: " + abstractions.map(\.description).joined(separator: "; ") + "\n"
            }
            return text
        case .unknown(let reason): return "unknown (\(reason))\n"
        }
    }
}
