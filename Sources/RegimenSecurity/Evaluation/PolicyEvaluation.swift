import RegimenLanguage

/// Options for one decision.
package struct DecisionOptions: Sendable {
    /// Find the deciding sub-expression of every false or failed statement (slower).
    package var explain: Bool
    /// Evaluate every candidate statement even after one granted (explain output lists them all).
    package var evaluateAll: Bool
    /// Collects the documents `get()`, `exists()`, `getAfter()` and `existsAfter()` read, for a
    /// caller that fetches documents on demand (a live document source); `nil`: not collected.
    var readLog: DocumentReadLog?

    package init(explain: Bool = false, evaluateAll: Bool = false, readLog: DocumentReadLog? = nil) {
        self.explain = explain
        self.evaluateAll = evaluateAll
        self.readLog = readLog
    }
}

extension CompiledPolicy {
    /// Decides `request` against the documents in `store`. Never throws and never traps: every
    /// failure of the rules or the request ends in a deny with its reason (fail closed).
    package func decide(_ request: SecurityRequest, store: DocumentStore, options: DecisionOptions = DecisionOptions(), coverage: CoverageRecorder? = nil) -> Decision {
        // Read once: each read of the operation's path copies the whole operation.
        let requestPath = request.operation.path
        let shownPath = requestPath.description
        var prepared: PreparedRequest
        do {
            prepared = try PreparedRequest.prepare(
                request, path: requestPath, service: policy.service, store: store, layout: layout, buildsResource: program.readsResource,
                buildsAccess: program.callsHost)
        } catch {
            switch error {
            case .precondition(let reason):
                return Decision(allowed: false, method: nil, path: shownPath, granting: nil, evaluations: [], note: reason)
            }
        }
        if let readLog = options.readLog { prepared.access?.readLog = readLog }
        if prepared.method != .list {
            return decideSingle(&prepared, path: shownPath, options: options, coverage: coverage)
        }
        var slots = slotBuffer(&prepared, count: maxSlotCount)
        var bindings: [(name: String, value: Value)] = []
        let keepBindings = options.explain || options.evaluateAll
        var candidates: [Candidate] = []
        for root in roots {
            _ = collect(root, prepared.matchSegments, from: 0, slots: &slots, bindings: &bindings, keepBindings: keepBindings, method: prepared.method) { id, slots, bindings in
                candidates.append(Candidate(allowID: id, slots: Array(slots[0..<allows[id].slotCount]), bindings: bindings))
                return false
            }
        }
        if candidates.isEmpty {
            return Decision(allowed: false, method: prepared.method, path: shownPath, granting: nil, evaluations: [], reason: .noMatch(prepared.method, path: shownPath))
        }
        if prepared.branches.isEmpty {
            return Decision(allowed: false, method: prepared.method, path: shownPath, granting: nil, evaluations: [], note: "the query has too many branches to check (more than \(QueryConstraints.maxCombinations))")
        }
        let access = prepared.access
        var evaluations: [AllowEvaluation] = []
        var grantedBy: CompiledAllow?
        var allBranchesGranted = true
        for branch in prepared.branches {
            var branchGranted = false
            // A branch with nothing to evaluate must not grant by default (fail closed).
            guard !branch.resources.isEmpty else {
                allBranchesGranted = false
                break
            }
            for candidate in candidates {
                var evaluation = AllowEvaluation(allow: allows[candidate.allowID], outcome: .granted, bindings: [], branch: nil, culprit: nil)
                for resource in branch.resources {
                    var slots = candidate.slots
                    slots[1] = resource
                    evaluation = evaluate(allows[candidate.allowID], slots: slots, access: access, explain: options.explain, coverage: coverage)
                    if !evaluation.outcome.isGranted { break }
                }
                let outcome = evaluation.outcome
                evaluation.bindings = candidate.bindings
                evaluation.branch = branch.label
                evaluations.append(evaluation)
                if access?.limitExceeded == true {
                    return Decision(
                        allowed: false, method: prepared.method, path: shownPath, granting: nil, evaluations: evaluations,
                        note: "denied: more than \(DocumentAccess.maxDistinctReads) distinct get()/exists() reads in one request")
                }
                if outcome.isGranted {
                    branchGranted = true
                    if grantedBy == nil { grantedBy = allows[candidate.allowID] }
                    if !options.evaluateAll { break }
                }
            }
            if !branchGranted {
                allBranchesGranted = false
                if !options.evaluateAll { break }
            }
        }
        let allowed = allBranchesGranted && grantedBy != nil
        return Decision(allowed: allowed, method: prepared.method, path: shownPath, granting: allowed ? grantedBy : nil, evaluations: evaluations, note: nil)
    }

    /// Get and write requests have one resource: each applicable statement is evaluated as the
    /// path walk finds it, stopping at the first grant.
    private func decideSingle(_ prepared: inout PreparedRequest, path: String, options: DecisionOptions, coverage: CoverageRecorder?) -> Decision {
        var outcome = SingleOutcome(access: prepared.access, options: options, coverage: coverage)
        let segments = prepared.matchSegments
        if let walk = program.walk {
            let method = prepared.method
            var next = 0
            blocks: while let index = walk.nextStop(from: next, segments) {
                let node = walk.nodes[index]
                // Built once per block that has a statement to evaluate (usually one block per
                // request), exactly as large as its conditions need.
                var slots: [Value] = []
                for statement in walk.statements[node.statementStart..<node.statementEnd] where statement.methods.contains(method) {
                    if slots.isEmpty {
                        slots = blockSlots(walk, node, segments, &prepared)
                    }
                    var bindings: [(name: String, value: Value)] = []
                    if outcome.keepBindings {
                        bindings = zip(walk.names[node.nameStart..<node.nameEnd], slots[walk.firstSlot...]).map { (name: $0, value: $1) }
                    }
                    if outcome.consider(allows[statement.allowID], slots: slots, bindings: bindings, policy: self) { break blocks }
                }
                next = index + 1
            }
        } else {
            var slots = slotBuffer(&prepared, count: maxSlotCount)
            var bindings: [(name: String, value: Value)] = []
            for root in roots {
                let stop = collect(root, segments, from: 0, slots: &slots, bindings: &bindings, keepBindings: outcome.keepBindings, method: prepared.method) { id, slots, bindings in
                    outcome.consider(allows[id], slots: slots, bindings: bindings, policy: self)
                }
                if stop { break }
            }
        }
        // One `Decision` built in one place: a return per outcome made the compiler build each
        // in a temporary and copy it out.
        let reason: Decision.Reason?
        var granting: CompiledAllow?
        if outcome.access?.limitExceeded == true {
            reason = .text("denied: more than \(DocumentAccess.maxDistinctReads) distinct get()/exists() reads in one request")
        } else if outcome.evaluations.isEmpty {
            reason = .noMatch(prepared.method, path: path)
        } else {
            reason = nil
            granting = outcome.grantedBy
        }
        return Decision(allowed: granting != nil, method: prepared.method, path: path, granting: granting, evaluations: outcome.evaluations, reason: reason)
    }

    /// The slot buffer of a block of the flattened walk: `request`, `resource` and their
    /// projected fields, then each wildcard's segment of the request path (nulls pad it to the
    /// block's size).
    private func blockSlots(_ walk: MatchWalk, _ node: MatchWalk.Node, _ segments: [String], _ prepared: inout PreparedRequest) -> [Value] {
        var slots = slotBuffer(&prepared, count: node.slotCount)
        slots.withUnsafeMutableBufferPointer { Self.fillBlockSlots($0, walk, node, segments) }
        return slots
    }

    /// Writes the block's wildcard values into `buffer`, whose request slots are filled already.
    static func fillBlockSlots(_ buffer: UnsafeMutableBufferPointer<Value>, _ walk: MatchWalk, _ node: MatchWalk.Node, _ segments: [String]) {
        var slot = walk.firstSlot
        for index in node.nameStart..<node.nameEnd where slot < buffer.count {
            let position = walk.positions[index]
            // Null where no segment is bound: the buffer may hold an earlier block's values.
            buffer[slot] = position >= 0 ? unbindPlaceholder(segments[position]) : .null
            slot += 1
        }
    }

    /// What a get or write decision has found so far. A struct with a mutating method rather than
    /// a closure over local variables, which made every record pay for dynamic exclusivity checks.
    private struct SingleOutcome {
        let access: DocumentAccess?
        let options: DecisionOptions
        let coverage: CoverageRecorder?
        var evaluations: [AllowEvaluation] = []
        var grantedBy: CompiledAllow?
        var keepBindings: Bool { options.explain || options.evaluateAll }

        /// Evaluates `allow` with the walk's slots and records it; `true` stops the walk.
        /// `bindings` is taken over: it moves into the record instead of being retained for it
        /// and released by the caller.
        mutating func consider(
            _ allow: CompiledAllow, slots: [Value], bindings: consuming [(name: String, value: Value)], policy: CompiledPolicy
        ) -> Bool {
            // Most requests evaluate one or two statements: room for a few up front saves
            // growing the array on the second.
            if evaluations.isEmpty { evaluations.reserveCapacity(4) }
            let granted: Bool
            if let condition = allow.condition, coverage == nil, !options.explain {
                // Nothing traced (what `conditionOutcome` does without a tracer), and each
                // outcome built where the record is: going through the general path copied
                // every outcome, error included, twice.
                switch condition.evaluateCondition(slots: slots, limits: CompiledPolicy.limits, host: access, tracer: nil) {
                case .success(true):
                    granted = true
                    evaluations.append(AllowEvaluation(allow: allow, outcome: .granted, bindings: bindings, branch: nil, culprit: nil))
                case .success(false):
                    granted = false
                    evaluations.append(AllowEvaluation(allow: allow, outcome: .denied, bindings: bindings, branch: nil, culprit: nil))
                case .failure(let error):
                    granted = false
                    evaluations.append(AllowEvaluation(allow: allow, outcome: .failed(error), bindings: bindings, branch: nil, culprit: nil))
                }
            } else {
                let (outcome, culprit) = policy.conditionOutcome(allow, slots: slots, access: access, explain: options.explain, coverage: coverage)
                granted = outcome.isGranted
                evaluations.append(AllowEvaluation(allow: allow, outcome: outcome, bindings: bindings, branch: nil, culprit: culprit))
            }
            if access?.limitExceeded == true { return true }
            if granted, grantedBy == nil {
                grantedBy = allow
                return !options.evaluateAll
            }
            return false
        }
    }

    /// A statement that applies to the request, with the variable values it is evaluated with.
    struct Candidate {
        var allowID: Int
        var slots: [Value]
        var bindings: [(name: String, value: Value)]
    }

    /// Collects every complete match of the request path with its bindings, and the allow
    /// statements of those matches that apply to `method`. `slots` is one buffer shared by the
    /// whole walk: each block writes its own wildcard slots before its statements copy them.
    private func collect(
        _ node: CompiledMatch, _ segments: [String], from start: Int, slots: inout [Value], bindings: inout [(name: String, value: Value)],
        keepBindings: Bool, method: RequestMethod, onCandidate: (Int, [Value], [(name: String, value: Value)]) -> Bool
    ) -> Bool {
        if !node.hasRecursiveWildcard {
            // The common case: literals and single-segment wildcards, at most one alignment.
            var position = start
            var slot = node.firstSlot
            let bindingCount = bindings.count
            for step in node.steps {
                guard position < segments.count else { return false }
                if step.isLiteral {
                    guard segments[position] == step.text else {
                        if keepBindings { bindings.removeSubrange(bindingCount...) }
                        return false
                    }
                } else {
                    let value = Self.unbindPlaceholder(.string(segments[position]))
                    slots[slot] = value
                    slot += 1
                    if keepBindings { bindings.append((step.text, value)) }
                }
                position += 1
            }
            let stop = visit(node, segments, end: position, slots: &slots, bindings: &bindings, keepBindings: keepBindings, method: method, onCandidate: onCandidate)
            if keepBindings { bindings.removeSubrange(bindingCount...) }
            return stop
        }
        for match in PathMatcher.matches(node.pattern, segments, from: start, version2: policy.usesVersion2) {
            let bindingCount = bindings.count
            for (offset, capture) in match.captures.enumerated() {
                let value = Self.unbindPlaceholder(capture.value)
                slots[node.firstSlot + offset] = value
                if keepBindings { bindings.append((capture.name, value)) }
            }
            let stop = visit(node, segments, end: match.end, slots: &slots, bindings: &bindings, keepBindings: keepBindings, method: method, onCandidate: onCandidate)
            if keepBindings { bindings.removeSubrange(bindingCount...) }
            if stop { return true }
        }
        return false
    }

    private func visit(
        _ node: CompiledMatch, _ segments: [String], end: Int, slots: inout [Value], bindings: inout [(name: String, value: Value)],
        keepBindings: Bool, method: RequestMethod, onCandidate: (Int, [Value], [(name: String, value: Value)]) -> Bool
    ) -> Bool {
        if end == segments.count {
            for id in node.allowIDs where allows[id].methodMask.contains(method) {
                if onCandidate(id, slots, bindings) { return true }
            }
        }
        for child in node.children {
            if collect(child, segments, from: end, slots: &slots, bindings: &bindings, keepBindings: keepBindings, method: method, onCandidate: onCandidate) {
                return true
            }
        }
        return false
    }

    /// In a list request the document-id wildcard is unbound: it reads as null.
    @inline(__always)
    static func unbindPlaceholder(_ segment: String) -> Value {
        // The length test first: almost no segment is as long as the placeholder, and comparing
        // two different strings in full is a library call per wildcard per request.
        segment.utf8.count == PreparedRequest.listPlaceholder.utf8.count && segment == PreparedRequest.listPlaceholder ? .null : .string(segment)
    }

    /// In a list request the document-id wildcard is unbound: it reads as null.
    private static func unbindPlaceholder(_ value: Value) -> Value {
        switch value {
        case .string(let s) where s == PreparedRequest.listPlaceholder: .null
        case .path(let p) where p.segments.last == PreparedRequest.listPlaceholder: .null
        default: value
        }
    }

    /// A fresh slot buffer of at least `count` slots (the evaluator needs at least as many as the
    /// block has variables; extra ones are never read): nulls, then `request`, `resource` and
    /// their projected fields written by the policy's ``RequestLayout``. `prepared` is only read
    /// (copied from, not moved): `inout` passes it without copying the whole request first.
    private func slotBuffer(_ prepared: inout PreparedRequest, count: Int) -> [Value] {
        var slots = [Value](repeating: .null, count: count)
        slots.withUnsafeMutableBufferPointer { layout.place(&prepared, into: $0, moving: false) }
        return slots
    }

    /// One statement's record, without a branch (the caller knows it).
    fileprivate func evaluate(
        _ allow: CompiledAllow, slots: [Value], bindings: [(name: String, value: Value)] = [], access: DocumentAccess?, explain: Bool,
        coverage: CoverageRecorder?
    ) -> AllowEvaluation {
        let (outcome, culprit) = conditionOutcome(allow, slots: slots, access: access, explain: explain, coverage: coverage)
        return AllowEvaluation(allow: allow, outcome: outcome, bindings: bindings, branch: nil, culprit: culprit)
    }

    /// How `allow` fares with `slots`, and (when explaining a statement that did not grant) why.
    fileprivate func conditionOutcome(
        _ allow: CompiledAllow, slots: [Value], access: DocumentAccess?, explain: Bool, coverage: CoverageRecorder?
    ) -> (AllowEvaluation.Outcome, Culprit?) {
        guard let condition = allow.condition else {
            coverage?.recordAllow(allow.id, outcome: .granted)
            return (.granted, nil)
        }
        let tracer = (explain || coverage != nil) ? RecordingTracer() : nil
        // The result is switched on as a temporary so a failure's error moves into the outcome.
        let outcome: AllowEvaluation.Outcome
        switch condition.evaluateCondition(slots: slots, limits: Self.limits, host: access, tracer: tracer) {
        case .success(true): outcome = .granted
        case .success(false): outcome = .denied
        case .failure(let error): outcome = .failed(error)
        }
        var culprit: Culprit?
        if let tracer {
            coverage?.record(allow.id, outcome: outcome, records: tracer.records, policy: self)
            if explain, !outcome.isGranted, let expression = allow.expression {
                let result: Result<Value, EvaluationError>
                switch outcome {
                case .granted: result = .success(.bool(true))
                case .denied: result = .success(.bool(false))
                case .failed(let error): result = .failure(error)
                }
                var finder = CulpritFinder(policy: self, records: tracer.records, conditionSource: condition.source)
                culprit = finder.culprit(of: expression, outcome: result)
            }
        }
        return (outcome, culprit)
    }
}
