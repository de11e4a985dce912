import Tracing

/// A traced request's span and the tracer that started it (``RequestTracing`` sets it on the
/// request context when tracing is on): a route starts its work's span under the request's, so
/// a collector shows where a request spent its time and what it decided.
struct RequestTrace: Sendable {
    let tracer: any Tracer
    /// The request's own (server) span.
    let span: any Span

    /// Runs `work` inside a child span of the request's: an error it throws is recorded on that
    /// span and marks it failed, then rethrown. The span ends when `work` returns or throws.
    func child<Result>(
        _ name: String, attributes: SpanAttributes = [:], _ work: (any Span) async throws -> Result
    ) async rethrows -> Result {
        let child = tracer.startSpan(name, context: span.context, ofKind: .internal)
        child.attributes.merge(attributes)
        defer { child.end() }
        do {
            return try await work(child)
        } catch {
            child.recordError(error)
            child.setStatus(SpanStatus(code: .error))
            throw error
        }
    }
}

extension RequestTrace? {
    /// ``RequestTrace/child(_:attributes:_:)`` when the request is traced; otherwise `work` alone,
    /// with no span: tracing off costs nothing.
    func child<Result>(
        _ name: String, attributes: @autoclosure () -> SpanAttributes = [:], _ work: ((any Span)?) async throws -> Result
    ) async rethrows -> Result {
        guard let trace = self else { return try await work(nil) }
        return try await trace.child(name, attributes: attributes()) { span in try await work(span) }
    }
}
