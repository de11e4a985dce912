import RegimenLanguage

/// `s.matches(pattern)` with a literal pattern, encoded exactly: the pattern's RE2 syntax tree
/// (parsed by the evaluator's own parser, flags applied) as an SMT-LIB regular expression, for
/// texts short enough that the evaluator's step budget cannot end the match (longer texts are
/// left to an abstract value). Patterns with constructs a plain regular language cannot say
/// (`^`/`$` inside the pattern, `\b`, multi-line anchors) are not encoded (nil).
struct RegexEncoding {
    /// The SMT-LIB regular expression (sort `RegLan`).
    let language: String
    /// The longest text (in code points) whose match the evaluator always decides.
    let decidedLength: Int

    /// Deepest syntax tree encoded (patterns from rule files are untrusted input).
    static let maxDepth = 64
    /// The largest code point an SMT-LIB string holds (the standard's alphabet).
    static let maxCharacter: UInt32 = 0x2FFFF

    init?(_ pattern: String, budget: Int) {
        guard let (tree, decided) = RegularExpression.syntaxTree(pattern, budget: budget),
              let language = Self.encode(Self.strippingOuterAnchors(tree), depth: 0) else { return nil }
        self.language = language
        self.decidedLength = decided
    }

    /// A whole match ignores `^` at the start and `$` at the end of the pattern.
    static func strippingOuterAnchors(_ node: RegexNode) -> RegexNode {
        guard case .concatenation(var items) = node else { return node }
        if case .assertion(.beginText)? = items.first { items.removeFirst() }
        if case .assertion(.endText)? = items.last { items.removeLast() }
        return .concatenation(items)
    }

    static func encode(_ node: RegexNode, depth: Int) -> String? {
        guard depth < maxDepth else { return nil }
        switch node {
        case .empty: return "(str.to_re \"\")"
        case .set(let set): return characters(set)
        case .assertion: return nil
        case .capture(_, let inner): return encode(inner, depth: depth + 1)
        case .concatenation(let items):
            let parts = items.map { encode($0, depth: depth + 1) }
            guard parts.allSatisfy({ $0 != nil }) else { return nil }
            let encoded = parts.compactMap { $0 }
            switch encoded.count {
            case 0: return "(str.to_re \"\")"
            case 1: return encoded[0]
            default: return "(re.++ \(encoded.joined(separator: " ")))"
            }
        case .alternation(let items):
            let parts = items.map { encode($0, depth: depth + 1) }
            guard parts.allSatisfy({ $0 != nil }) else { return nil }
            let encoded = parts.compactMap { $0 }
            switch encoded.count {
            case 0: return "re.none"
            case 1: return encoded[0]
            default: return "(re.union \(encoded.joined(separator: " ")))"
            }
        case .repetition(let inner, let min, let max, _):
            // Greedy or not, a whole match accepts the same texts.
            guard let r = encode(inner, depth: depth + 1) else { return nil }
            switch (min, max) {
            case (0, nil): return "(re.* \(r))"
            case (1, nil): return "(re.+ \(r))"
            case (let least, nil): return "(re.++ ((_ re.loop \(least) \(least)) \(r)) (re.* \(r)))"
            case (let least, let most?): return "((_ re.loop \(least) \(most)) \(r))"
            }
        }
    }

    /// A character class as a union of ranges (code points past the SMT alphabet dropped: no
    /// SMT string holds them).
    static func characters(_ set: ScalarSet) -> String {
        let ranges = set.ranges.compactMap { range -> String? in
            guard range.lowerBound <= maxCharacter else { return nil }
            let upper = Swift.min(range.upperBound, maxCharacter)
            return "(re.range \(character(range.lowerBound)) \(character(upper)))"
        }
        switch ranges.count {
        case 0: return "re.none"
        case 1: return ranges[0]
        default: return "(re.union \(ranges.joined(separator: " ")))"
        }
    }

    /// One code point as an SMT-LIB string literal.
    static func character(_ scalar: UInt32) -> String {
        "\"\\u{\(String(scalar, radix: 16))}\""
    }
}
