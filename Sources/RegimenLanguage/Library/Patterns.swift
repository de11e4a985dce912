/// Regular expressions for `matches`, `split` and `replace`.
///
/// Firestore uses RE2; Swift's regex syntax accepts the RE2 constructs rules use in practice
/// (classes, anchors, quantifiers, groups, `(?i)`). A pattern that does not compile is an
/// evaluation error, never a crash.
enum Patterns {
    static func compile(_ pattern: String, _ span: SourceSpan) throws(EvaluationError) -> Regex<AnyRegexOutput> {
        do {
            return try Regex(pattern)
        } catch {
            throw EvaluationError(.invalidArgument, "Invalid regular expression '\(pattern)'.", span: span)
        }
    }

    static func wholeMatch(_ text: String, _ pattern: String, _ span: SourceSpan) throws(EvaluationError) -> Bool {
        let regex = try compile(pattern, span)
        return text.wholeMatch(of: regex) != nil
    }

    static func split(_ text: String, _ pattern: String, _ span: SourceSpan) throws(EvaluationError) -> [String] {
        let regex = try compile(pattern, span)
        return text.split(separator: regex, omittingEmptySubsequences: false).map(String.init)
    }

    static func replace(_ text: String, _ pattern: String, _ replacement: String, _ span: SourceSpan) throws(EvaluationError) -> String {
        let regex = try compile(pattern, span)
        return text.replacing(regex, with: replacement)
    }
}
