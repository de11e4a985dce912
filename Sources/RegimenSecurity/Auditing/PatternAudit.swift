import RegimenLanguage

/// Regular expressions in a policy that Firestore's emulator accepts (through RE2/J, as
/// Regimen does) but RE2 itself rejects or reads differently: the emulator is not the only
/// rules engine such a policy meets, so these deserve a warning. A literal pattern outside
/// both grammars is already a compile error and never reaches the audit.
enum PatternAudit {
    static let patternMethods: Set<String> = ["matches", "split", "replace"]

    static func findings(_ policy: SecurityPolicy) -> [AuditFinding] {
        var sources: [SourceText] = policy.allAllows.compactMap { $0.condition?.source }
        for function in policy.allFunctions {
            sources.append(contentsOf: function.lets.map(\.value.source))
            sources.append(function.body.source)
        }
        var findings: [AuditFinding] = []
        for source in sources {
            guard case .success(let root) = Parser.parse(source.text) else { continue }
            for (pattern, span) in literalPatterns(root) {
                let differences = RegularExpression.differencesFromRE2(in: pattern)
                guard !differences.isEmpty,
                      let location = source.location(ofScalarOffset: span.start) ?? source.lineOrigins.first else { continue }
                findings.append(AuditFinding(
                    severity: .warning, id: "audit.pattern-outside-re2",
                    message: "pattern '\(pattern)' is read differently by RE2: \(differences.joined(separator: "; "))",
                    location: location,
                    explanation: "Firestore's emulator matches with RE2/J, which accepts this pattern (and Regimen follows it), but RE2, the library Firestore's rules language names, rejects it or matches other text. Rewrite the pattern so both agree: drop an empty `(?)`, keep nested counts within 1000 in product, and spell out case variants instead of relying on `(?i)` with a Unicode class."))
            }
        }
        return findings
    }

    /// Every string literal passed as the pattern of `matches`, `split` or `replace`, with its
    /// span. The tree is walked with a stack of its own, so any depth is safe.
    static func literalPatterns(_ root: Expr) -> [(String, SourceSpan)] {
        var found: [(String, SourceSpan)] = []
        var stack = [root]
        while let expr = stack.popLast() {
            if case .call(.member(_, let name, _), let arguments, _) = expr, patternMethods.contains(name),
               case .literal(.string(let pattern), let span) = arguments.first {
                found.append((pattern, span))
            }
            stack.append(contentsOf: expr.children)
        }
        return found
    }
}
