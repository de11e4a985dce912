import FuzzSupport
import RegimenLanguage
import RegimenSecurity

/// The `.rules` parser, compiler and decision: the input is a policy text, optionally followed by
/// a NUL byte and steering bytes that pick requests (operation, path, who asks, what data) to
/// decide against it, plainly and with explanations.
let verbs = ["get", "list", "create", "update", "set", "delete"]
let paths = ["users/alice", "users/bob", "users/alice/workouts/w1", "a/b", "trainers/t1/students/s1", "x/y/z/w", "users"]
let auths = ["null", "{uid: alice}", "{uid: bob, token: {admin: true}}", "{uid: '', token: {email_verified: false}}"]
let datas = [
    "{owner: alice, n: 1}", "{owner: bob}", "{}", "{title: aaaaaaaaaaaaaaaaaaaa, tags: [a, b], n: 1.5}",
    "{owner: alice, createdAt: 2025-01-01T00:00:00Z, nested: {deep: {x: [1, 2, {y: null}]}}}",
]
let queries = ["{limit: 10}", "{limit: 10, where: [[owner, '==', alice]]}", "{}", "{orderBy: [n], limit: 1000}"]

/// The indexes of one request the steering bytes chose (`data` and `query` -1 when the verb has none).
struct RequestChoice: Hashable {
    let service: SecurityService
    let verb: Int, path: Int, data: Int, query: Int, auth: Int
}

/// Every request the steering bytes can choose, built once: building one parses its data, query
/// and auth texts, which took most of each run when it was done per request, and those texts are
/// fixed, so parsing them again reached no new code. A choice the builder refuses has no entry.
let requests: [RequestChoice: SecurityRequest] = {
    var table: [RequestChoice: SecurityRequest] = [:]
    for service in SecurityService.allCases {
        for (v, verb) in verbs.enumerated() {
            let isWrite = ["create", "update", "set"].contains(verb)
            for p in paths.indices {
                for d in isWrite ? Array(datas.indices) : [-1] {
                    for q in verb == "list" ? Array(queries.indices) : [-1] {
                        for a in auths.indices {
                            let choice = RequestChoice(service: service, verb: v, path: p, data: d, query: q, auth: a)
                            table[choice] = try? SecurityTestSuite.request(
                                verb: verb, path: paths[p], data: d < 0 ? nil : datas[d], query: q < 0 ? nil : queries[q],
                                auth: auths[a], time: nil, service: service)
                        }
                    }
                }
            }
        }
    }
    return table
}()

func fuzzPolicy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Built before the first input (see runFuzzer on once-per-process memory and leak checks).
    guard !requests.isEmpty else { return 0 }
    let (document, tail) = FuzzInput(data, size).documentAndTail
    guard let parsed = try? PolicyLoader.parse(document, file: "fuzz.rules"), let policy = try? CompiledPolicy(parsed) else { return 0 }
    var choices = Choices(tail)
    var explained = 0
    let store = DocumentStore(["users/alice": ["owner": .string("alice"), "n": .int(3)], "a/b": ["owner": .string("bob")]])
    repeat {
        // Picked in the order the corpus was made with: verb, path, data (writes), query (list), auth.
        let v = choices.pick(Array(verbs.indices))
        let p = choices.pick(Array(paths.indices))
        let d = ["create", "update", "set"].contains(verbs[v]) ? choices.pick(Array(datas.indices)) : -1
        let q = verbs[v] == "list" ? choices.pick(Array(queries.indices)) : -1
        let a = choices.pick(Array(auths.indices))
        guard let request = requests[RequestChoice(service: parsed.service, verb: v, path: p, data: d, query: q, auth: a)] else { continue }
        _ = policy.decide(request, store: store)
        // Explanations walk every statement with the traced evaluator: once per input is enough.
        if explained < 1 {
            explained += 1
            _ = policy.decide(request, store: store, options: DecisionOptions(explain: true, evaluateAll: true))
        }
    } while !choices.isEmpty
    return 0
}

@_cdecl("FuzzPolicy_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzPolicy(data, size) }
}
