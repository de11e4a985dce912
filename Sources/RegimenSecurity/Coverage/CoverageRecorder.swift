import RegimenLanguage

/// Counts, over a test run, how often each allow statement and function was evaluated and how
/// it came out, and how often each sub-expression ran (for per-line counts).
///
/// Not thread-safe: one recorder belongs to one sequential run.
package final class CoverageRecorder {
    package struct Counts: Sendable, Hashable {
        package var evaluated = 0
        package var isTrue = 0
        package var isFalse = 0
        package var errored = 0
    }

    package let policy: CompiledPolicy
    package private(set) var allowCounts: [Counts]
    package private(set) var functionCounts: [Counts]
    /// Evaluations per sub-expression: condition spans keyed by allow id, function spans by -1.
    private(set) var spanCounts: [SpanKey: Int] = [:]

    struct SpanKey: Hashable {
        var allow: Int
        var span: SourceSpan
    }

    package init(policy: CompiledPolicy) {
        self.policy = policy
        allowCounts = Array(repeating: Counts(), count: policy.allows.count)
        functionCounts = Array(repeating: Counts(), count: policy.functions.count)
    }

    func recordAllow(_ id: Int, outcome: AllowEvaluation.Outcome) {
        guard id < allowCounts.count else { return }
        allowCounts[id].evaluated += 1
        switch outcome {
        case .granted: allowCounts[id].isTrue += 1
        case .denied: allowCounts[id].isFalse += 1
        case .failed: allowCounts[id].errored += 1
        }
    }

    func record(_ id: Int, outcome: AllowEvaluation.Outcome, records: [(span: SourceSpan, outcome: Result<Value, EvaluationError>)], policy: CompiledPolicy) {
        recordAllow(id, outcome: outcome)
        for record in records {
            let namespace = SpanNamespaces.namespace(of: record.span, width: policy.namespaceWidth)
            spanCounts[SpanKey(allow: namespace == 0 ? id : -1, span: record.span), default: 0] += 1
            guard namespace > 0, namespace - 1 < policy.functions.count, policy.functions[namespace - 1].resultSpan == record.span else { continue }
            functionCounts[namespace - 1].evaluated += 1
            switch record.outcome {
            case .success(.bool(true)): functionCounts[namespace - 1].isTrue += 1
            case .success: functionCounts[namespace - 1].isFalse += 1
            case .failure: functionCounts[namespace - 1].errored += 1
            }
        }
    }

    /// Per file line, the largest number of evaluations of an expression that starts on it, plus
    /// the allow and function header lines with their own counts.
    package func lineCounts() -> [Int: Int] {
        var lines: [Int: Int] = [:]
        func note(_ line: Int, _ count: Int) { lines[line] = max(lines[line] ?? 0, count) }
        for (key, count) in spanCounts {
            let source: SourceText?
            var start = key.span.start
            if key.allow >= 0 {
                source = policy.allows[key.allow].condition?.source
            } else {
                let namespace = SpanNamespaces.namespace(of: key.span, width: policy.namespaceWidth)
                guard namespace > 0, namespace - 1 < policy.functions.count else { continue }
                let parts = policy.functions[namespace - 1].partSources
                var offset = 0
                var found: SourceText?
                for part in parts {
                    let length = part.text.unicodeScalars.count
                    if start < offset + length { found = part; start -= offset; break }
                    offset += length + 1
                }
                source = found
            }
            if let location = source?.location(ofScalarOffset: start) { note(location.line, count) }
        }
        for (id, allow) in policy.allows.enumerated() { note(allow.statement.location.line, allowCounts[id].evaluated) }
        for (index, function) in policy.functions.enumerated() { note(function.declaration.location.line, functionCounts[index].evaluated) }
        return lines
    }
}
