import RegimenLanguage

/// Counts, over a test run, how often each allow statement and function was evaluated and how
/// it came out, and what each sub-expression produced (counts and a bounded summary of values).
///
/// Not thread-safe: one recorder belongs to one sequential run.
package final class CoverageRecorder {
    struct Counts: Sendable, Hashable {
        package var evaluated = 0
        package var isTrue = 0
        package var isFalse = 0
        package var errored = 0
    }

    package let policy: CompiledPolicy
    private(set) var allowCounts: [Counts]
    private(set) var functionCounts: [Counts]
    /// What each sub-expression produced: condition spans keyed by allow id, function spans by -1.
    private(set) var spanSummaries: [SpanKey: ValueSummary] = [:]

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
            spanSummaries[SpanKey(allow: namespace == 0 ? id : -1, span: record.span), default: ValueSummary()].record(record.outcome)
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
    func lineCounts() -> [Int: Int] {
        var lines: [Int: Int] = [:]
        func note(_ line: Int, _ count: Int) { lines[line] = max(lines[line] ?? 0, count) }
        for (key, summary) in spanSummaries {
            if let location = fileLocations(of: key)?.start { note(location.line, summary.evaluated) }
        }
        for (id, allow) in policy.allows.enumerated() { note(allow.statement.location.line, allowCounts[id].evaluated) }
        for (index, function) in policy.functions.enumerated() { note(function.declaration.location.line, functionCounts[index].evaluated) }
        return lines
    }

    /// Where a recorded span starts and ends in the policy file: condition spans through their
    /// allow's condition text, function spans through the part (`let` or result) they fall in.
    func fileLocations(of key: SpanKey) -> (start: SourceLocation, end: SourceLocation)? {
        var start = key.span.start, end = key.span.end
        let source: SourceText?
        if key.allow >= 0 {
            guard key.allow < policy.allows.count else { return nil }
            source = policy.allows[key.allow].condition?.source
        } else {
            let namespace = SpanNamespaces.namespace(of: key.span, width: policy.namespaceWidth)
            guard namespace > 0, namespace - 1 < policy.functions.count else { return nil }
            var offset = 0
            var found: SourceText?
            for part in policy.functions[namespace - 1].partSources {
                let length = part.text.unicodeScalars.count
                if start < offset + length {
                    found = part
                    start -= offset
                    end = min(end - offset, length)
                    break
                }
                offset += length + 1
            }
            source = found
        }
        guard let source, start >= 0, end >= start, let from = source.location(ofScalarOffset: start),
              let to = source.location(ofScalarOffset: end) else { return nil }
        return (from, to)
    }
}
