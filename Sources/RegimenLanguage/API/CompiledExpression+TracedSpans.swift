extension CompiledExpression {
    /// The spans a ``RecordingTracer`` can report for the expression itself, each once, in
    /// source order: every sub-expression the traced evaluation records when it reaches it. A
    /// coverage report lists them, so one that never ran shows as never evaluated.
    ///
    /// The base of a projected field (`request` in `request.auth`) and of a field read in place
    /// (`resource` in `resource.metadata`, see ``FieldSite``) is left out: evaluation reads the
    /// field directly and never evaluates the base on its own, so listing it would report a
    /// sub-expression as never evaluated that cannot be.
    package var tracedSpans: [SourceSpan] { Self.tracedSpans(of: [root]) }

    /// The spans of every function body in the expression's environment (`let`s and results, in
    /// their span namespaces), each once, called or not.
    package var functionTracedSpans: [SourceSpan] { Self.tracedSpans(of: functions.flatMap { $0.letNodes + [$0.resultNode] }) }

    private static func tracedSpans(of bodies: [Node]) -> [SourceSpan] {
        var spans = Set<SourceSpan>()
        for body in bodies {
            _ = body.rewritten { node in
                if let span = node.span { spans.insert(span) }
                // Returning the node stops the walk below it: these bases are not evaluated alone.
                if case .projected = node { return node }
                if FieldSite(node) != nil { return node }
                return nil
            }
        }
        return spans.sorted { ($0.start, -$0.end) < ($1.start, -$1.end) }
    }
}
