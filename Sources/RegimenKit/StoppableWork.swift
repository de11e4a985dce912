import Dispatch
import Foundation
import RegimenSecurity
import Synchronization

// Variants of the engine's long loops that a service can stop between units of work: each
// unit (a client of a panel, a request of a batch) begins only while `proceed()` answers true.
// `proceed` is monotonic (once false, false for good), so an answer is either whole or `nil`.

extension PlanImpact {
    /// ``compare(base:new:panel:)``, stopped between clients once `proceed()` answers false.
    /// - Returns: the impact, or `nil` when it was stopped before every client was planned.
    package static func compare(base: RegimenEngine, new: RegimenEngine, panel: [Client], proceed: @Sendable () -> Bool) -> PlanImpact? {
        let outcomes = Mutex<[[Change]?]>(Array(repeating: nil, count: panel.count))
        DispatchQueue.concurrentPerform(iterations: panel.count) { index in
            guard proceed() else { return }
            let client = panel[index]
            let before = PlanFacts(engine: base, profile: client.profile, name: client.name)
            let after = PlanFacts(engine: new, profile: client.profile, name: client.name)
            let changes = PlanFacts.changes(from: before, to: after)
            outcomes.withLock { $0[index] = changes }
        }
        let changes = outcomes.withLock { $0 }
        guard changes.allSatisfy({ $0 != nil }) else { return nil }
        let perClient = zip(panel, changes).compactMap { client, changes in
            changes.map { $0.isEmpty ? nil : ClientImpact(client: client.name, changes: $0) } ?? nil
        }
        return PlanImpact(clientCount: panel.count, changed: perClient, groups: group(perClient, of: panel.count))
    }
}

extension Policy {
    /// ``decide(_:explain:)``, stopped between requests once `proceed()` answers false.
    /// - Returns: one decision per request, or `nil` when it was stopped before the last.
    package func decide(_ body: PolicyRequestBody, explain: Bool = false, proceed: () -> Bool) -> [Decision]? {
        let options = DecisionOptions(explain: explain, evaluateAll: explain)
        var decisions: [Decision] = []
        decisions.reserveCapacity(body.body.items.count)
        for item in body.body.items {
            guard proceed() else { return nil }
            decisions.append(compiled.decide(item.request, store: item.documents, options: options))
        }
        return decisions
    }
}
