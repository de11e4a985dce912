import RegimenKit

/// Decides authorize bodies with documents read from a database (``DocumentReading``) while
/// deciding, failing closed when a read fails.
///
/// The evaluator is synchronous and cannot wait for a read in the middle of a rule, and the
/// documents a rule reads depend on documents it read before (`get(/users/$(get(/rooms/$(r)).data.owner))`),
/// so prefetching "the paths a policy can read" is not possible in general. Instead each request
/// is decided in rounds: decide with the documents fetched so far, ask the decision which paths
/// its rules read (``Policy/decide(_:at:live:layering:explain:)``), fetch the ones not yet
/// fetched, decide again. A decision all of whose reads were fetched is final: every lookup it
/// made answered what the database holds, so it is the decision the database's documents give.
/// Each round fetches at least one new path of a request, and Firestore lets a request read at
/// most 10 distinct documents (the evaluator denies past that), so a request needs at most 11
/// rounds after the first read of its own document; ``maximumRounds`` leaves one more, and a
/// request still undecided then is denied.
///
/// The documents fetched for a body are its snapshot: each path is read once per body (from the
/// cache or one `batchGet` per round for every request still undecided), so the requests of a
/// batch and the rounds of one request see the same version of a document.
struct LiveDocumentDecider: Sendable {
    /// 1 round for the request's own document and the first evaluation, 10 for Firestore's
    /// distinct-read limit, 1 to spare.
    static let maximumRounds = 12

    /// One request's decision in a round, with the paths its rules read.
    package struct Evaluated: Sendable {
        package var index: Int
        package var decision: Decision
        var reads: [String]
    }

    /// Runs one round's evaluations (inline, or on the work executor for a large body).
    package typealias RoundRunner = @Sendable (@escaping @Sendable () -> [Evaluated]) async throws -> [Evaluated]

    let reader: any DocumentReading
    let cache: LiveDocumentCache

    /// One decision per request of `body`, in order.
    /// - Throws: only what `run` throws (the work executor's busy or over-budget answers).
    package func decide(
        _ body: PolicyRequestBody, policy: Policy, layering: BodyDocumentLayering, explain: Bool,
        run: RoundRunner = { work in work() }
    ) async throws -> [Decision] {
        let count = body.count
        let shownPaths = body.requestPaths
        var decisions = [Decision?](repeating: nil, count: count)
        var fetched: [String: OrderedDictionary<String, Value>?] = [:]
        var pending = Set(body.ownDocumentPaths.compactMap { $0 })
        for _ in 0..<Self.maximumRounds {
            if !pending.isEmpty {
                do {
                    for (path, fields) in try await read(pending) { fetched[path] = fields }
                } catch {
                    return zip(decisions, shownPaths).map { decision, path in
                        decision ?? Policy.documentsUnavailable(path: path, reason: error.description)
                    }
                }
            }
            var present: [String: OrderedDictionary<String, Value>] = [:]
            for (path, fields) in fetched { if let fields { present[path] = fields } }
            let live = DocumentStore(present)
            let undecided = decisions.indices.filter { decisions[$0] == nil }
            let known = Set(fetched.keys)
            let evaluated = try await run {
                undecided.map { index in
                    let (decision, reads) = policy.decide(body, at: index, live: live, layering: layering, explain: explain)
                    return Evaluated(index: index, decision: decision, reads: reads)
                }
            }
            pending = []
            for result in evaluated {
                let missing = result.reads.filter { !known.contains($0) }
                if missing.isEmpty {
                    decisions[result.index] = result.decision
                } else {
                    pending.formUnion(missing)
                }
            }
            if pending.isEmpty { break }
        }
        return zip(decisions, shownPaths).map { decision, path in
            decision ?? Policy.documentsUnavailable(path: path, reason: "its reads did not settle within \(Self.maximumRounds) rounds")
        }
    }

    /// `paths` from the cache where it holds them, the rest from the database (then cached).
    private func read(_ paths: Set<String>) async throws(LiveDocumentError) -> [String: OrderedDictionary<String, Value>?] {
        var result = cache.lookUp(paths)
        let missing = paths.filter { result.index(forKey: $0) == nil }.sorted()
        guard !missing.isEmpty else { return result }
        let read = try await reader.read(missing)
        for path in missing {
            guard let fields = read[path] else { throw LiveDocumentError("the database's answer left out \(path)") }
            result[path] = fields
        }
        let asked = Set(missing)
        cache.store(read.filter { asked.contains($0.key) })
        return result
    }
}
