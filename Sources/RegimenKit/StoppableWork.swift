import Foundation
import RegimenSecurity

// Variants of the engine's long loops that a service can stop between units of work: each
// unit (a client of a panel, a request of a batch) begins only while `proceed()` answers true,
// so an answer is either whole or `nil`.

extension PlanImpact {
    /// ``compare(base:new:panel:)``, one client after another on the calling thread, stopped
    /// between clients once `proceed()` answers false.
    ///
    /// It does not spread over the cores as ``compare(base:new:panel:)`` does: a service runs
    /// it on a thread pool of its own, and `DispatchQueue.concurrentPerform` would take its
    /// threads from the pool Swift's concurrency runs on (on Linux, one pool), starving the
    /// timers and health checks it must never delay.
    /// - Returns: the impact, or `nil` when it was stopped before every client was planned.
    package static func compare(base: RegimenEngine, new: RegimenEngine, panel: [Client], proceed: () -> Bool) -> PlanImpact? {
        var perClient: [ClientImpact] = []
        for client in panel {
            guard proceed() else { return nil }
            let before = PlanFacts(engine: base, profile: client.profile, name: client.name)
            let after = PlanFacts(engine: new, profile: client.profile, name: client.name)
            let changes = PlanFacts.changes(from: before, to: after)
            if !changes.isEmpty { perClient.append(ClientImpact(client: client.name, changes: changes)) }
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
