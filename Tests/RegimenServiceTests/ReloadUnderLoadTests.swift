import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Synchronization
import Testing

/// Twenty reloads, some of them broken, while at least 64 requests are in flight: no request
/// fails, each answer is computed wholly with the revision its header names, and the revision
/// a client sees only moves forward, to good sets.
@Suite struct ReloadUnderLoadTests {
    typealias Support = ServiceTestSupport

    /// A policy whose one rule is flipped by each good reload, so a decision tells which
    /// revision computed it.
    /// The workers' client waits as long as a starved sanitizer run needs: the test checks what
    /// is answered, not how fast (the default read timeout is 15 s).
    static let patientClient = TestClient.Configuration(timeout: .seconds(600))

    static func flipPolicy(allow: Bool, generation: Int) -> String {
        """
        rules_version = '2';
        // generation \(generation)
        service cloud.firestore {
          match /databases/{database}/documents {
            match /flips/{id} {
              allow read: if \(allow);
            }
          }
        }

        """
    }

    /// What the reloading task and the clients share.
    final class LoadState: Sendable {
        /// The decision each good revision gives, in the order the revisions served.
        let good: Mutex<[(revision: String, allow: Bool)]>
        let sent = Atomic<Int>(0)
        let reloadsDone = Atomic<Bool>(false)

        init(first: String) { good = Mutex([(first, true)]) }
    }

    struct Observation: Sendable {
        var worker: Int
        var status: Int
        var revision: String
        /// `allow`/`deny` for an authorize, the body's revision for `/v1/rules`.
        var answer: String
        var isRules: Bool
    }

    @Test func twentyReloadsUnderSixtyFourInFlightRequests() async throws {
        let folder = try Support.copyOfRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let flip = folder.appendingPathComponent("rules/security/flip.rules")
        try Self.flipPolicy(allow: true, generation: 0).write(to: flip, atomically: true, encoding: .utf8)
        let server = try Support.server(Support.configuration(rules: folder.appendingPathComponent("rules")))
        let state = LoadState(first: server.store.current.revision)
        let total = 10_000, workers = 72, reloads = 20

        let observations: [Observation] = try await server.application(.public).test(.live) { client in
            let port = try #require(client.port)
            return try await withThrowingTaskGroup(of: [Observation].self) { group in
                group.addTask {
                    for generation in 1...reloads {
                        try await Task.sleep(for: .milliseconds(40))
                        // Every fourth edit is broken: it must never serve.
                        let broken = generation % 4 == 0
                        let allow = generation % 2 == 0
                        let text = broken ? "rules_version = '2';\nservice cloud.firestore { match /x { allow read: if (; } }\n" : Self.flipPolicy(allow: allow, generation: generation)
                        try text.write(to: flip, atomically: true, encoding: .utf8)
                        let outcome = await server.reloader.reload(reason: "test")
                        switch outcome {
                        case .loaded(let revision):
                            #expect(!broken)
                            state.good.withLock { $0.append((revision, allow)) }
                        case .failed:
                            #expect(broken, "a good edit failed: \(outcome)")
                        case .unchanged:
                            Issue.record("reload \(generation) saw no change")
                        }
                    }
                    state.reloadsDone.store(true, ordering: .sequentiallyConsistent)
                    return []
                }
                for worker in 0..<workers {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: Self.patientClient) { client in
                            var seen: [Observation] = []
                            var index = 0
                            while state.sent.add(1, ordering: .relaxed).newValue <= total || !state.reloadsDone.load(ordering: .sequentiallyConsistent) {
                                index += 1
                                let isRules = (index + worker) % 10 == 0
                                let response = isRules
                                    ? try await client.get("/v1/rules")
                                    : try await client.post("/v1/policies/flip:authorize", headers: Support.json, body: Support.body(#"{"get": "flips/f\#(index)", "auth": {"uid": "u\#(worker)"}}"#))
                                let revision = response.headers[HTTPField.Name("Regimen-Revision")!] ?? ""
                                let object = response.body.flatMap { try? JSONSerialization.jsonObject(with: Data($0.readableBytesView)) as? [String: Any] }
                                let answer = (isRules ? object?["revision"] : object?["decision"]) as? String ?? "?"
                                seen.append(Observation(worker: worker, status: Int(response.status.code), revision: revision, answer: answer, isRules: isRules))
                            }
                            return seen
                        }
                    }
                }
                var all: [Observation] = []
                for try await observations in group { all += observations }
                return all
            }
        }

        let goodRevisions = state.good.withLock { $0 }
        let order = Dictionary(goodRevisions.enumerated().map { ($0.element.revision, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let expected = Dictionary(goodRevisions.map { ($0.revision, $0.allow ? "allow" : "deny") }, uniquingKeysWith: { first, _ in first })
        #expect(observations.count >= total)
        #expect(goodRevisions.count == reloads - reloads / 4 + 1)
        #expect(observations.allSatisfy { $0.status == 200 }, "failed: \(observations.filter { $0.status != 200 }.prefix(3).map(\.status))")
        for observation in observations {
            guard let expectedAnswer = expected[observation.revision] else {
                Issue.record("a response carried revision '\(observation.revision)', which is not a good set")
                break
            }
            let consistent = observation.isRules ? observation.answer == observation.revision : observation.answer == expectedAnswer
            if !consistent {
                Issue.record("revision \(observation.revision) answered \(observation.answer)")
                break
            }
        }
        for worker in 0..<workers {
            let seen = observations.filter { $0.worker == worker }.compactMap { order[$0.revision] }
            #expect(seen == seen.sorted(), "worker \(worker) saw the revision move backwards")
        }
        // Responses came from more than one revision: the reloads happened under load.
        #expect(Set(observations.map(\.revision)).count > 2)
    }
}
