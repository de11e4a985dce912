import RegimenLanguage

extension CompiledPolicy {
    /// Whether `request` is allowed: always the answer of `decide(request, store:).allowed`,
    /// without the record of each evaluated statement that `decide` keeps for tests, `--explain`
    /// and coverage. What an application asks on every request.
    ///
    /// Not recording what each statement evaluated to lets a condition stop at the first `&&`
    /// operand that is not true (``CompiledExpression/grants(slots:limits:host:)``): a deny
    /// need not find out whether it was false or an error. A policy that calls `get()` or the
    /// like (whose reads count against the whole request), list requests, and trees with a
    /// recursive wildcard are decided by `decide` itself.
    public func isAllowed(_ request: SecurityRequest, store: DocumentStore) -> Bool {
        guard let walk = program.walk, !program.callsHost else { return decide(request, store: store).allowed }
        if case .list = request.operation { return decide(request, store: store).allowed }
        let prepared: PreparedRequest
        do {
            prepared = try PreparedRequest.prepare(
                request, path: request.operation.path, service: policy.service, store: store, buildsResource: program.readsResource,
                buildsAccess: false)
        } catch {
            return false
        }
        let segments = prepared.matchSegments
        var next = 0
        while let index = walk.nextStop(from: next, segments) {
            let node = walk.nodes[index]
            var slots: [Value] = []
            for statement in walk.statements[node.statementStart..<node.statementEnd] where statement.methods.contains(prepared.method) {
                guard let condition = allows[statement.allowID].condition else { return true }
                if slots.isEmpty { slots = Self.blockSlots(walk, node, segments, request: prepared.request, resource: prepared.resource) }
                if condition.grants(slots: slots, limits: Self.limits) { return true }
            }
            next = index + 1
        }
        return false
    }
}
