import RegimenLanguage

/// Options for one decision.
public struct DecisionOptions: Sendable {
    /// Find the deciding sub-expression of every false or failed statement (slower).
    public var explain: Bool
    /// Evaluate every candidate statement even after one granted (explain output lists them all).
    public var evaluateAll: Bool

    public init(explain: Bool = false, evaluateAll: Bool = false) {
        self.explain = explain
        self.evaluateAll = evaluateAll
    }
}

extension CompiledPolicy {
    /// Decides `request` against the documents in `store`. Never throws and never traps: every
    /// failure of the rules or the request ends in a deny with its reason (fail closed).
    public func decide(_ request: SecurityRequest, store: DocumentStore, options: DecisionOptions = DecisionOptions(), coverage: CoverageRecorder? = nil) -> Decision {
        let prepared: PreparedRequest
        do {
            prepared = try PreparedRequest.prepare(request, service: policy.service, store: store)
        } catch {
            switch error {
            case .precondition(let reason):
                return Decision(allowed: false, method: nil, path: request.operation.path.description, grantedBy: nil, evaluations: [], note: reason)
            }
        }
        let shownPath = request.operation.path.description
        var candidates: [(allow: CompiledAllow, slots: [Value], bindings: [(name: String, value: Value)])] = []
        let base: [Value] = [prepared.request, .null]
        for root in roots {
            collect(root, prepared.matchSegments, from: 0, slots: base, bindings: [], method: prepared.method, into: &candidates)
        }
        if candidates.isEmpty {
            return Decision(allowed: false, method: prepared.method, path: shownPath, grantedBy: nil, evaluations: [], note: "no matching allow statements for '\(prepared.method.rawValue)' on \(shownPath)")
        }
        if prepared.branches.isEmpty {
            return Decision(allowed: false, method: prepared.method, path: shownPath, grantedBy: nil, evaluations: [], note: "the query has too many branches to check (more than \(QueryConstraints.maxCombinations))")
        }
        let access = DocumentAccess(before: prepared.before, after: prepared.after)
        var evaluations: [AllowEvaluation] = []
        var grantedBy: AllowStatement?
        var allBranchesGranted = true
        for branch in prepared.branches {
            var branchGranted = false
            for candidate in candidates {
                var outcome = AllowEvaluation.Outcome.granted
                var culprit: Culprit?
                for resource in branch.resources {
                    var slots = candidate.slots
                    slots[1] = resource
                    let result = evaluate(candidate.allow, slots: slots, access: access, explain: options.explain, coverage: coverage)
                    outcome = result.outcome
                    culprit = result.culprit
                    if outcome != .granted { break }
                }
                evaluations.append(AllowEvaluation(statement: candidate.allow.statement, outcome: outcome, bindings: candidate.bindings, branch: branch.label, culprit: culprit))
                if access.limitExceeded {
                    return Decision(
                        allowed: false, method: prepared.method, path: shownPath, grantedBy: nil, evaluations: evaluations,
                        note: "denied: more than \(DocumentAccess.maxDistinctReads) distinct get()/exists() reads in one request")
                }
                if outcome == .granted {
                    branchGranted = true
                    if grantedBy == nil { grantedBy = candidate.allow.statement }
                    if !options.evaluateAll { break }
                }
            }
            if !branchGranted {
                allBranchesGranted = false
                if !options.evaluateAll { break }
            }
        }
        let allowed = allBranchesGranted && grantedBy != nil
        return Decision(allowed: allowed, method: prepared.method, path: shownPath, grantedBy: allowed ? grantedBy : nil, evaluations: evaluations, note: nil)
    }

    /// Collects every complete match of the request path with its bindings, and the allow
    /// statements of those matches that apply to `method`.
    private func collect(
        _ node: CompiledMatch, _ segments: [String], from start: Int, slots: [Value], bindings: [(name: String, value: Value)],
        method: RequestMethod, into candidates: inout [(allow: CompiledAllow, slots: [Value], bindings: [(name: String, value: Value)])]
    ) {
        for match in PathMatcher.matches(node.pattern, segments, from: start, version2: policy.usesVersion2) {
            var nodeSlots = slots
            if nodeSlots.count < node.slotCount { nodeSlots += Array(repeating: .null, count: node.slotCount - nodeSlots.count) }
            var nodeBindings = bindings
            for (offset, capture) in match.captures.enumerated() {
                let value = Self.unbindPlaceholder(capture.value)
                let slot = node.firstSlot + offset
                if slot < nodeSlots.count { nodeSlots[slot] = value }
                nodeBindings.append((capture.name, value))
            }
            if match.end == segments.count {
                for id in node.allowIDs where allows[id].methods.contains(method) {
                    candidates.append((allows[id], Array(nodeSlots.prefix(allows[id].slotCount)), nodeBindings))
                }
            }
            for child in node.children {
                collect(child, segments, from: match.end, slots: nodeSlots, bindings: nodeBindings, method: method, into: &candidates)
            }
        }
    }

    /// In a list request the document-id wildcard is unbound: it reads as null.
    private static func unbindPlaceholder(_ value: Value) -> Value {
        switch value {
        case .string(let s) where s == PreparedRequest.listPlaceholder: .null
        case .path(let p) where p.segments.last == PreparedRequest.listPlaceholder: .null
        default: value
        }
    }

    private func evaluate(
        _ allow: CompiledAllow, slots: [Value], access: DocumentAccess, explain: Bool, coverage: CoverageRecorder?
    ) -> (outcome: AllowEvaluation.Outcome, culprit: Culprit?) {
        guard let condition = allow.condition else {
            coverage?.recordAllow(allow.id, outcome: .granted)
            return (.granted, nil)
        }
        let tracer = (explain || coverage != nil) ? RecordingTracer() : nil
        let result = condition.evaluateCondition(slots: slots, limits: Self.limits, host: access, tracer: tracer)
        let outcome: AllowEvaluation.Outcome
        switch result {
        case .success(true): outcome = .granted
        case .success(false): outcome = .denied
        case .failure(let error): outcome = .failed(error)
        }
        if let tracer { coverage?.record(allow.id, outcome: outcome, records: tracer.records, policy: self) }
        guard explain, outcome != .granted, let tracer, let expression = allow.expression else { return (outcome, nil) }
        var finder = CulpritFinder(policy: self, records: tracer.records, conditionSource: condition.source)
        return (outcome, finder.culprit(of: expression, outcome: result.map { Value.bool($0) }))
    }
}
