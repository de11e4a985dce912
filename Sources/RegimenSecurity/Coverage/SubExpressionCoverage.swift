package import RegimenLanguage

/// One sub-expression of an allow condition or a function body, where it is in the policy text
/// and what it produced over a run.
package struct SubExpressionCoverage: Sendable {
    /// Which statement the sub-expression belongs to.
    package enum Owner: Sendable, Hashable, Comparable {
        /// An allow condition, by allow id (source order).
        case allow(Int)
        /// A function body, by function index (source order).
        case function(Int)
    }

    package var owner: Owner
    /// The span as recorded (in the condition's text or the function's namespace).
    var span: SourceSpan
    /// File line and column (from 1) of the first scalar, and of the scalar just past the end.
    package var start: SourceLocation
    package var end: SourceLocation
    /// Unicode-scalar offsets of the same range in the policy file's text.
    package var startOffset: Int
    package var endOffset: Int
    /// The sub-expression's text, runs of white space (line breaks too) written as one space.
    package var text: String
    package var summary: ValueSummary
}

extension CoverageReport {
    /// Every sub-expression of every allow condition and function, evaluated or not, ordered by
    /// where it starts in the file (an enclosing expression before the ones inside it).
    package func subExpressions() -> [SubExpressionCoverage] {
        var keys = Set<CoverageRecorder.SpanKey>(recorder.spanSummaries.keys)
        var functionSpans = Set<SourceSpan>()
        for allow in policy.allows {
            guard let condition = allow.condition else { continue }
            for span in condition.tracedSpans { keys.insert(.init(allow: allow.id, span: span)) }
            functionSpans.formUnion(condition.functionTracedSpans)
        }
        for span in functionSpans { keys.insert(.init(allow: -1, span: span)) }
        let file = FileText(policy.policy.origin.text)
        var entries: [SubExpressionCoverage] = []
        for key in keys {
            guard let (start, end) = recorder.fileLocations(of: key),
                  let startOffset = file.offset(of: start), let endOffset = file.offset(of: end), startOffset <= endOffset else { continue }
            let owner: SubExpressionCoverage.Owner
            if key.allow >= 0 {
                owner = .allow(key.allow)
            } else {
                owner = .function(SpanNamespaces.namespace(of: key.span, width: policy.namespaceWidth) - 1)
            }
            entries.append(SubExpressionCoverage(
                owner: owner, span: key.span, start: start, end: end, startOffset: startOffset, endOffset: endOffset,
                text: file.collapsedText(from: startOffset, to: endOffset),
                summary: recorder.spanSummaries[key] ?? ValueSummary()))
        }
        return entries.sorted {
            ($0.startOffset, -$0.endOffset, $0.owner, $0.span.start, $0.span.end) < ($1.startOffset, -$1.endOffset, $1.owner, $1.span.start, $1.span.end)
        }
    }
}

/// A policy file's text as Unicode scalars with where each line starts, to turn file locations
/// into offsets and offsets into text.
package struct FileText: Sendable {
    let scalars: [Unicode.Scalar]
    /// Offset of the first scalar of each line.
    let lineStarts: [Int]

    package init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (index, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(index + 1) }
        lineStarts = starts
    }

    /// The offset of `location` (line and column from 1), or `nil` when it is not in the text.
    package func offset(of location: SourceLocation) -> Int? {
        guard location.line >= 1, location.line <= lineStarts.count, location.column >= 1 else { return nil }
        let lineStart = lineStarts[location.line - 1]
        let lineEnd = location.line < lineStarts.count ? lineStarts[location.line] - 1 : scalars.count
        let offset = lineStart + location.column - 1
        return offset <= lineEnd ? offset : nil
    }

    package func text(from start: Int, to end: Int) -> String {
        let from = max(0, min(start, scalars.count)), to = max(from, min(end, scalars.count))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[from..<to])
        return String(view)
    }

    func collapsedText(from start: Int, to end: Int) -> String {
        text(from: start, to: end).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
