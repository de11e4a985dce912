import RegimenLanguage

/// Gives each user function its own range of span offsets.
///
/// An ``EvaluationTracer`` reports spans only, and spans index into whichever text the node came
/// from: an allow condition, or a function's combined `let`/`return` text. To tell them apart
/// (for explanations and per-function coverage), function `k` is compiled with its text shifted
/// `k × width` scalars to the right by leading spaces, while conditions keep offsets below
/// `width`. The line origins are moved left by the same amount, so diagnostics still point at
/// the right file column.
enum SpanNamespaces {
    struct Shifted {
        var source: FunctionSource
        /// The span of the function's result expression in the shifted combined text.
        var resultSpan: SourceSpan?
        /// The parsed result expression, its text and the offset of that text in the combined text.
        var parsedResult: ParsedResult?
        /// The shifted texts of the `let`s and the result, in the order the environment joins them.
        var parts: [SourceText]
    }

    static func shift(_ declaration: FunctionDeclaration, by padding: Int) -> Shifted {
        var parts = declaration.lets.map(\.value.source) + [declaration.body.source]
        if let first = parts.first {
            let origins = first.lineOrigins.enumerated().map { index, origin in
                index == 0 ? SourceLocation(file: origin.file, line: origin.line, column: origin.column - padding) : origin
            }
            parts[0] = SourceText(String(repeating: " ", count: padding) + first.text, lineOrigins: origins)
        }
        // The environment joins the parts with "\n"; the result is the last part.
        var offset = 0
        for part in parts.dropLast() { offset += part.text.unicodeScalars.count + 1 }
        var resultSpan: SourceSpan?
        var parsed: ParsedResult?
        if let last = parts.last, case .success(let expr) = Parser.parse(last.text) {
            resultSpan = SourceSpan(start: expr.span.start + offset, end: expr.span.end + offset)
            parsed = ParsedResult(expr: expr, text: last, offset: offset)
        }
        let lets = zip(declaration.lets, parts.dropLast()).map { (name: $0.name, value: $1) }
        let source = FunctionSource(
            name: declaration.name, parameters: declaration.parameters, lets: lets, result: parts[parts.count - 1],
            location: declaration.location)
        return Shifted(source: source, resultSpan: resultSpan, parsedResult: parsed, parts: parts)
    }

    /// Which namespace a span belongs to: 0 for a condition, `k + 1` for function `k`.
    static func namespace(of span: SourceSpan, width: Int) -> Int { span.start / max(width, 1) }
}

/// A function's result expression as parsed, with the text its spans index into.
struct ParsedResult: Sendable {
    var expr: Expr
    var text: SourceText
    var offset: Int
}
