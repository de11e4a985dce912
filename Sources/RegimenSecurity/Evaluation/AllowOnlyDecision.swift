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
                request, path: request.operation.path, service: policy.service, store: store, layout: layout,
                buildsResource: program.readsResource, buildsAccess: false)
        } catch {
            return false
        }
        // Taken out once: the closure below would otherwise copy them out of the prepared request.
        let segments = prepared.matchSegments
        let method = prepared.method
        let layout = layout
        var next = 0
        while let index = walk.nextStop(from: next, segments) {
            let node = walk.nodes[index]
            let statements = walk.statements[node.statementStart..<node.statementEnd]
            next = index + 1
            guard statements.contains(where: { $0.methods.contains(method) }) else { continue }
            // The block's variables live on the stack for its statements: a heap array would be
            // allocated and freed again right after.
            let granted = withUnsafeTemporaryAllocation(of: Value.self, capacity: node.slotCount) { buffer -> Bool in
                buffer.initialize(repeating: .null)
                // Element by element: a bulk deinitialize goes through the runtime per element.
                defer { for slot in buffer.indices { _ = buffer.moveElement(from: slot) } }
                layout.fill(buffer, prepared)
                Self.fillBlockSlots(buffer, walk, node, segments)
                for statement in statements where statement.methods.contains(method) {
                    guard let condition = allows[statement.allowID].condition else { return true }
                    if condition.grants(slots: UnsafeBufferPointer(buffer), limits: Self.limits) { return true }
                }
                return false
            }
            if granted { return true }
        }
        return false
    }
}
