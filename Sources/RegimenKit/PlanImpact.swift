import Dispatch
public import Foundation
import RegimenLanguage

/// What a rule edit changes for a panel of clients: each client planned under the base rules and
/// under the new rules, the differences in the terms a coach uses (split, weekly sets per muscle,
/// kcal and macros, meal options, exercises, supplements), grouped across clients.
///
/// ```swift
/// let impact = PlanImpact.compare(base: try RegimenEngine(rules: oldRules), new: .bundled, panel: clients)
/// print(impact.text())
/// ```
public struct PlanImpact: Sendable, Hashable {
    /// One client of the panel: a name (its file) and its profile (YAML or JSON).
    public struct Client: Sendable, Hashable {
        /// How reports name the client (its file, as given).
        public var name: String
        /// The profile's text, as `regimen plan` reads it.
        public var profile: Data

        /// A client named `name` whose profile is `profile`.
        public init(name: String, profile: Data) {
            self.name = name
            self.profile = profile
        }
    }

    /// One difference for one client: `measure` ("chest weekly sets") went from `before` to `after`.
    public struct Change: Sendable, Hashable {
        /// What changed, as a coach names it.
        public var measure: String
        /// The value under the base rules; empty when a set member was added.
        public var before: String
        /// The value under the new rules; empty when a set member was dropped.
        public var after: String
        /// The relative change of a number (kcal, macros, indexes), for grouping by size; `nil` for
        /// a change that is not a number.
        public var percent: Double?

        /// "chest weekly sets: 10 → 12", "exercises: adds goblet_squat", "kcal: 2137 → 2031 (−5%)".
        public var summary: String {
            if before.isEmpty { return "\(measure): adds \(after)" }
            if after.isEmpty { return "\(measure): drops \(before)" }
            return "\(measure): \(before) → \(after)" + (percent.map { " (\(PlanFacts.percentText($0)))" } ?? "")
        }
    }

    /// One client's differences, or the error its plan met under either rule set.
    public struct ClientImpact: Sendable, Hashable {
        /// The client's name.
        public var client: String
        /// Its differences, in a fixed order.
        public var changes: [Change]
    }

    /// Clients that share a change: "37 of 240 clients: chest weekly sets 10 → 12", or for a
    /// number, every client whose value moved, with the range of the moves.
    public struct Group: Sendable, Hashable {
        /// "N of M clients: …", as the text report prints it.
        public var summary: String
        /// The clients that share the change, in panel order.
        public var clients: [String]
    }

    /// How many clients were compared.
    public var clientCount: Int
    /// Per client, in panel order, those with at least one change.
    public var changed: [ClientImpact]
    /// The changes shared across clients, most clients first.
    public var groups: [Group]
    /// Clients whose plans are the same under both rule sets.
    public var unchangedCount: Int { clientCount - changed.count }

    /// Plans every client of `panel` under `base` and `new` (both cores at once) and compares.
    public static func compare(base: RegimenEngine, new: RegimenEngine, panel: [Client]) -> PlanImpact {
        let outcomes = ConcurrentResults<[Change]>(count: panel.count)
        DispatchQueue.concurrentPerform(iterations: panel.count) { index in
            let client = panel[index]
            let before = PlanFacts(engine: base, profile: client.profile, name: client.name)
            let after = PlanFacts(engine: new, profile: client.profile, name: client.name)
            outcomes.set(index, PlanFacts.changes(from: before, to: after))
        }
        let perClient = zip(panel, outcomes.values).compactMap { client, changes in
            changes.map { $0.isEmpty ? nil : ClientImpact(client: client.name, changes: $0) } ?? nil
        }
        return PlanImpact(clientCount: panel.count, changed: perClient, groups: group(perClient, of: panel.count))
    }

    /// One client planned under `base` and `new`, each plan made once: both plans (or the error
    /// each met), the changes, worded as ``compare(base:new:panel:)`` words them, and every
    /// workout block of both plans placed as those changes place them.
    package static func compare(base: RegimenEngine, new: RegimenEngine, client: Client)
        -> (base: Result<GeneratedPlan, RegimenError>, new: Result<GeneratedPlan, RegimenError>, changes: [Change], blocks: [BlockRow])
    {
        let before = PlanFacts.plan(engine: base, profile: client.profile, name: client.name)
        let after = PlanFacts.plan(engine: new, profile: client.profile, name: client.name)
        let beforeFacts = PlanFacts(engine: base, planned: before), afterFacts = PlanFacts(engine: new, planned: after)
        let changes = PlanFacts.changes(from: beforeFacts, to: afterFacts)
        return (before.map(\.1), after.map(\.1), changes, PlanFacts.blockRows(from: beforeFacts.days, to: afterFacts.days))
    }

    /// Categorical changes group by their exact before → after; numbers group by measure and
    /// direction, with the range of the relative moves.
    static func group(_ impacts: [ClientImpact], of total: Int) -> [Group] {
        struct Key: Hashable { var measure: String; var text: String }
        var members: [Key: [String]] = [:]
        var ranges: [Key: (low: Double, high: Double)] = [:]
        var order: [Key] = []
        for impact in impacts {
            for change in impact.changes {
                let key: Key
                if let percent = change.percent {
                    key = Key(measure: change.measure, text: percent < 0 ? "down" : "up")
                    let range = ranges[key] ?? (percent, percent)
                    ranges[key] = (min(range.low, percent), max(range.high, percent))
                } else {
                    key = Key(measure: change.measure, text: change.summary)
                }
                if members[key] == nil { order.append(key) }
                members[key, default: []].append(impact.client)
            }
        }
        let groups = order.map { key -> Group in
            let clients = members[key] ?? []
            let text: String
            if let range = ranges[key] {
                let low = PlanFacts.percentText(range.low), high = PlanFacts.percentText(range.high)
                // Closest to zero first: "−3% to −5%".
                let (near, far) = abs(range.low) <= abs(range.high) ? (low, high) : (high, low)
                text = "\(key.measure) \(near == far ? near : "\(near) to \(far)")"
            } else {
                text = key.text
            }
            return Group(summary: "\(clients.count) of \(total) clients: \(text)", clients: clients)
        }
        // Most clients first; ties keep the order first met (panel order), so output is stable.
        return groups.enumerated().sorted { lhs, rhs in
            lhs.element.clients.count != rhs.element.clients.count
                ? lhs.element.clients.count > rhs.element.clients.count : lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// Results written by concurrent iterations, each to its own slot.
private final class ConcurrentResults<T: Sendable>: @unchecked Sendable {
    // Each index is written by exactly one iteration and read after all have finished; the lock
    // keeps the array's storage itself safe while slots are written.
    private var storage: [T?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    /// Every slot, in order (`nil` only for a slot never written).
    var values: [T?] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
