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
    package func isAllowed(_ request: SecurityRequest, store: DocumentStore) -> Bool {
        guard let walk = program.walk, !program.callsHost else { return decide(request, store: store).allowed }
        if case .list = request.operation { return decide(request, store: store).allowed }
        var prepared: PreparedRequest
        do {
            prepared = try PreparedRequest.prepare(
                request, path: request.operation.path, service: policy.service, store: store, layout: layout,
                buildsResource: program.readsResource, buildsAccess: false)
        } catch {
            return false
        }
        let segments = prepared.matchSegments
        let method = prepared.method
        /// The next block with a statement for the method, from preorder index `start`.
        func nextBlock(from start: Int) -> Int? {
            var next = start
            while let index = walk.nextStop(from: next, segments) {
                let node = walk.nodes[index]
                if walk.statements[node.statementStart..<node.statementEnd].contains(where: { $0.methods.contains(method) }) { return index }
                next = index + 1
            }
            return nil
        }
        guard var index = nextBlock(from: 0) else { return false }
        let layout = layout
        // One buffer for the whole decision, on the stack: the request's values move into it
        // once, and each block only writes the wildcards it reads.
        return withUnsafeTemporaryAllocation(of: Value.self, capacity: walk.maxSlotCount) { buffer -> Bool in
            buffer.initialize(repeating: .null)
            // Element by element: a bulk deinitialize goes through the runtime per element.
            defer { for slot in buffer.indices { _ = buffer.moveElement(from: slot) } }
            layout.place(&prepared, into: buffer, moving: true)
            let slots = UnsafeBufferPointer(buffer)
            while true {
                let node = walk.nodes[index]
                // Only the wildcards the block's conditions read: the rest are never looked at.
                for read in node.readStart..<node.readEnd {
                    let position = walk.readPositions[read]
                    buffer[walk.readSlots[read]] = position >= 0 ? Self.unbindPlaceholder(segments[position]) : .null
                }
                for statement in walk.statements[node.statementStart..<node.statementEnd] where statement.methods.contains(method) {
                    guard let condition = allows[statement.allowID].condition else { return true }
                    if condition.grants(slots: slots, limits: Self.limits) { return true }
                }
                guard let following = nextBlock(from: index + 1) else { return false }
                index = following
            }
        }
    }
}
