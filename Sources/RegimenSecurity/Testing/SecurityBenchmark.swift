import Foundation
import OrderedCollections
import RegimenLanguage

/// A fixed workload for measuring decision speed: 1,000 write requests against the `sets` path
/// of the workout tracker's policy (rules/security/workout-tracker/appendix-a.rules; see
/// docs/requirements.md#tracker-security-policy) — owners, admins, strangers and signed-out
/// callers; valid and invalid set data; correct and wrong paths. The same seed always gives the
/// same requests.
package struct SecurityBenchmark: Sendable {
    package let requests: [SecurityRequest]
    package let store: DocumentStore

    static let setsCollection = "users/alice/programs/p1/weeks/w1/workouts/d1/exercises/e1/sets"

    package init(count: Int = 1_000, seed: UInt64 = 0x5EED) {
        var random = SplitMix(seed: seed)
        var store = DocumentStore()
        for i in 0..<10 {
            store[RequestPath("\(Self.setsCollection)/s\(i)", service: .firestore)] = [
                "setNumber": .int(Int64(i + 1)), "reps": .int(8), "weight": .float(60.5), "checked": .bool(false), "userId": .string("alice"),
            ]
        }
        self.store = store
        let auths: [(AuthContext?, Int)] = [
            (AuthContext(uid: "alice"), 40), (AuthContext(uid: "support", token: ["admin": .bool(true)]), 20),
            (AuthContext(uid: "bob"), 25), (nil, 10), (AuthContext(uid: "mallory", token: ["admin": .string("true")]), 5),
        ]
        let valid: [OrderedDictionary<String, Value>] = [
            ["setNumber": .int(3), "reps": .int(10), "weight": .float(62.5), "userId": .string("alice")],
            ["setNumber": .int(4), "duration": .int(600), "distance": .float(5000), "userId": .string("alice")],
            ["setNumber": .int(5), "reps": .int(12), "checked": .bool(true), "notes": .string("easy"), "userId": .string("alice")],
        ]
        let invalid: [OrderedDictionary<String, Value>] = [
            ["setNumber": .int(3), "reps": .int(-5), "userId": .string("alice")],
            ["setNumber": .string("three"), "reps": .int(10), "userId": .string("alice")],
            ["setNumber": .int(3), "userId": .string("alice")],
            ["setNumber": .int(3), "reps": .int(10), "userId": .string("bob")],
            ["reps": .string("ten"), "weight": .float(-1)],
        ]
        var requests: [SecurityRequest] = []
        requests.reserveCapacity(count)
        for _ in 0..<count {
            let auth = random.weighted(auths)
            var path = "\(Self.setsCollection)/s\(random.next(upTo: 14))"
            switch random.next(upTo: 100) {
            case 0..<6: path = path.replacingOccurrences(of: "users/alice", with: "users/bob")
            case 6..<11: path = path.replacingOccurrences(of: "/sets/", with: "/set/")
            case 11..<15: path = path.replacingOccurrences(of: "/exercises/e1", with: "")
            default: break
            }
            let requestPath = RequestPath(path, service: .firestore)
            let data = random.next(upTo: 100) < 60 ? valid[random.next(upTo: valid.count)] : invalid[random.next(upTo: invalid.count)]
            let operation: SecurityOperation
            switch random.next(upTo: 100) {
            case 0..<40: operation = .set(requestPath, WriteData(data))
            case 40..<70: operation = .update(requestPath, WriteData(data))
            case 70..<80: operation = .create(requestPath, WriteData(data))
            default: operation = .delete(requestPath)
            }
            requests.append(SecurityRequest(auth: auth, operation: operation, time: SecurityTestSuite.defaultTime))
        }
        self.requests = requests
    }

    /// The workload as a security test file whose expectations are `decisions`, so `regimen test`
    /// (and the emulator differential) can replay it.
    package func testFile(rules: String, decisions: [Bool]) -> String {
        var out = "# 1,000 write requests against the sets path of Appendix A (regimen bench-security).\n"
        out += "kind: security_tests\nversion: 1\nrules: \(YAMLValues.quote(rules))\ndocuments:\n"
        for key in store.documents.keys.sorted() {
            guard let data = store.documents[key] else { continue }
            out += "  \(YAMLValues.quote(String(key.dropFirst("/databases/(default)/documents/".count)))): \(flow(.map(data)))\n"
        }
        out += "cases:\n"
        for (index, (request, allowed)) in zip(requests, decisions).enumerated() {
            out += "  - name: request \(index + 1)\n"
            if let auth = request.auth {
                out += "    auth: {uid: \(YAMLValues.quote(auth.uid))" + (auth.token.isEmpty ? "" : ", token: \(flow(.map(auth.token)))") + "}\n"
            }
            let path = YAMLValues.quote(String(request.operation.path.description.dropFirst("/databases/(default)/documents/".count)))
            out += "    \(request.operation.verb): \(path)\n"
            switch request.operation {
            case .set(_, let data), .update(_, let data), .create(_, let data):
                out += "    data: \(flow(data.resolved(at: request.time)))\n"
            default: break
            }
            out += "    expect: \(allowed ? "allow" : "deny")\n"
        }
        return out
    }

    private func flow(_ value: Value) -> String {
        if case .float(let d) = value { return "!float '\(d)'" }
        if case .map(let m) = value { return "{" + m.map { "\(YAMLValues.quote($0.key)): \(flow($0.value))" }.joined(separator: ", ") + "}" }
        return YAMLValues.render(value)
    }
}

/// A small deterministic generator (SplitMix64), so the workload is the same on every machine.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    mutating func weighted<T>(_ options: [(T, Int)]) -> T {
        let total = options.reduce(0) { $0 + $1.1 }
        var pick = next(upTo: total)
        for (value, weight) in options {
            if pick < weight { return value }
            pick -= weight
        }
        return options[options.count - 1].0
    }
}
