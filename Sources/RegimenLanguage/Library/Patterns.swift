/// Regular expressions for `matches`, `split` and `replace`, with RE2's semantics where Swift's
/// regex engine differs: matching by Unicode scalar, ASCII-only `\\w \\d \\s \\b`, and no
/// backreferences (RE2 rejects `\\1`). A pattern that does not compile is an evaluation error.
enum Patterns {
    static func compile(_ pattern: String, _ span: SourceSpan) throws(EvaluationError) -> Regex<AnyRegexOutput> {
        let invalid = EvaluationError(.invalidArgument, "Invalid regular expression pattern. Pattern: \(pattern).", span: span)
        if hasBackreference(pattern) { throw invalid }
        do {
            return try Regex(pattern)
                .matchingSemantics(.unicodeScalar)
                .asciiOnlyWordCharacters()
                .asciiOnlyDigits()
                .asciiOnlyWhitespace()
        } catch {
            throw invalid
        }
    }

    /// `\\1`…`\\9` outside a character class, which RE2 does not support.
    private static func hasBackreference(_ pattern: String) -> Bool {
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                if ("1"..."9").contains(scalar) { return true }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            }
        }
        return false
    }

    static func wholeMatch(_ text: String, _ pattern: String, _ span: SourceSpan) throws(EvaluationError) -> Bool {
        let regex = try compile(pattern, span)
        return text.wholeMatch(of: regex) != nil
    }

    /// Splits like Java's `String.split`: trailing empty strings are dropped, but one element stays.
    static func split(_ text: String, _ pattern: String, _ span: SourceSpan) throws(EvaluationError) -> [String] {
        let regex = try compile(pattern, span)
        var parts = text.split(separator: regex, omittingEmptySubsequences: false).map(String.init)
        while parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        return parts
    }

    /// Replaces every match; in the replacement `$n` is group n and `\\x` is a literal `x`.
    static func replace(_ text: String, _ pattern: String, _ replacement: String, _ span: SourceSpan) throws(EvaluationError) -> String {
        let regex = try compile(pattern, span)
        let template = Array(replacement.unicodeScalars)
        return text.replacing(regex) { match in
            var out = String.UnicodeScalarView()
            var index = 0
            while index < template.count {
                let c = template[index]
                if c == "\\", index + 1 < template.count {
                    out.append(template[index + 1])
                    index += 2
                } else if c == "$", index + 1 < template.count, let group = Int(String(template[index + 1])), group < match.output.count {
                    if let substring = match.output[group].substring { out.append(contentsOf: substring.unicodeScalars) }
                    index += 2
                } else {
                    out.append(c)
                    index += 1
                }
            }
            return String(out)
        }
    }
}
